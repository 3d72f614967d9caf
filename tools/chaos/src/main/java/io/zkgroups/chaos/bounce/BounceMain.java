package io.zkgroups.chaos.bounce;

import io.zkgroups.testing.ChildJvm;
import io.zkgroups.chaos.cluster.ChaosException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.Callable;

/**
 * {@code tools/bench/bounce.sh}: one rolling bounce under load of one configuration. Exit 0: a valid run (every gate passed,
 * no invariant violated); 1: an invalid run (the report says why) or one that could not start; 2: bad usage.
 */
@Command(name = "bounce", mixinStandardHelpOptions = true, sortOptions = false,
        description = "A rolling bounce of every member of a group under load (3 ZooKeeper servers, a Kafka broker, a "
                + "producer, one JVM per member), gated on zkgroups health, then its figures: backlog-without-delivery "
                + "partition-seconds, ownership moves, bounce time, and the chaos suite's invariants.")
public final class BounceMain implements Callable<Integer> {

    @Option(names = "--impl", description = "legacy (kafka 0.8.2.2 consumers), ours (zkgroups) or mixed (zkgroups and "
            + "one 0.8.2.2 consumer) (default: ${DEFAULT-VALUE}).")
    String impl = "ours";

    @Option(names = "--strategy", description = "The zkgroups members' assignor: range or sticky (default: ${DEFAULT-VALUE}).")
    String strategy = "range";

    @Option(names = "--handover", description = "zkgroups members restart by session hand-over (docs/restarts.md).")
    boolean handover;

    @Option(names = "--prestart", arity = "0..1", fallbackValue = "1", paramLabel = "K", description = "With --handover: "
            + "start each successor before its predecessor's SIGTERM; it waits for the ticket "
            + "(zkgroups.restart.handover.await.ms). With K, the next K slots' successors start and wait at once "
            + "(default: 0, none; --prestart alone: 1).")
    int prestart;

    @Option(names = "--class-data", description = "Every member JVM maps a class-data archive (AppCDS) of its kind, "
            + "written by an unmeasured training member of that kind before the group starts: zkgroups and 0.8.2.2 "
            + "alike (docs/restarts.md, \"A class-data archive\").")
    boolean classData;

    @Option(names = "--members", description = "Members of the group (default: ${DEFAULT-VALUE}).")
    int members = 10;

    @Option(names = "--partitions", description = "Partitions of the topic (default: ${DEFAULT-VALUE}).")
    int partitions = 100;

    @Option(names = "--rate", description = "Records per second produced, over all partitions (default: ${DEFAULT-VALUE}).")
    int rate = 2_000;

    @Option(names = "--session-ms", description = "Members' zookeeper.session.timeout.ms (default: ${DEFAULT-VALUE}; the "
            + "ensemble allows at most 10000).")
    int sessionMs = 10_000;

    @Option(names = "--commit-interval-ms", description = "How often members commit (default: ${DEFAULT-VALUE}).")
    long commitIntervalMs = 250;

    @Option(names = "--slice-ms", description = "Time slice of the backlog-without-delivery figure (default: ${DEFAULT-VALUE}).")
    long sliceMs = 250;

    @Option(names = "--steady-ms", description = "Steady state observed before the first SIGTERM (default: ${DEFAULT-VALUE}).")
    long steadyMs = 10_000;

    @Option(names = "--settle-ms", description = "The health gate's --settle (default: ${DEFAULT-VALUE}: health counts "
            + "every offset commit as a change, so under load a settle never ends).")
    long settleMs = 0;

    @Option(names = "--health-timeout", description = "How long a gate waits for a healthy group, in seconds (default: "
            + "${DEFAULT-VALUE}).")
    long healthTimeoutSeconds = 120;

    @Option(names = "--out", description = "Run directory (default: tools/chaos/target/bounce-runs/<time>-<configuration>).")
    Path out;

    @Option(names = "--analyze", paramLabel = "RUN_DIR", description = "Only analyse an existing run directory again.")
    Path analyze;

    public static void main(String[] args) {
        System.exit(new CommandLine(new BounceMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        BounceReport report;
        if (analyze != null) {
            if (!Files.isRegularFile(analyze.resolve("run.properties")) || !Files.isRegularFile(analyze.resolve("journal.log"))) {
                System.err.println("bounce: " + analyze + " is not a bounce run directory (no run.properties or journal.log)");
                return 2;
            }
            report = BounceRun.analyze(analyze.toAbsolutePath());
        } else {
            BounceConfig config;
            try {
                config = new BounceConfig(impl, strategy, handover, members, partitions, rate, sessionMs,
                        commitIntervalMs, sliceMs, steadyMs, settleMs, prestart, classData);
            } catch (IllegalArgumentException e) {
                System.err.println("bounce: " + e.getMessage());
                return 2;
            }
            if (sessionMs > 10_000 || sessionMs < 1_000) {
                System.err.println("bounce: --session-ms must be 1000..10000 (the ensemble's tick is 500 ms), not " + sessionMs);
                return 2;
            }
            Path dir = (out != null ? out : Path.of("tools", "chaos", "target", "bounce-runs",
                    LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")) + "-" + config.label()))
                    .toAbsolutePath();
            System.out.println("bounce: " + config.label() + ", run directory " + dir);
            try {
                report = BounceRun.run(config, dir, Duration.ofSeconds(healthTimeoutSeconds), true);
            } catch (ChaosException | ChildJvm.Failure e) {
                // a part that did not start or a group that never formed: no figures to report
                System.err.println("bounce: the run in " + dir + " failed: " + e.getMessage());
                return 1;
            }
        }
        System.out.println();
        System.out.print(report.text());
        return report.figures().valid() ? 0 : 1;
    }
}
