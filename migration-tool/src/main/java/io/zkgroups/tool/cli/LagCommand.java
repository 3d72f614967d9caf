package io.zkgroups.tool.cli;

import io.zkgroups.tool.CliException;
import io.zkgroups.tool.ExitCode;
import io.zkgroups.tool.io.Clients;
import io.zkgroups.tool.lag.GroupLag;
import io.zkgroups.tool.lag.GroupSample;
import io.zkgroups.tool.lag.GroupSampler;
import io.zkgroups.tool.lag.LagStatus;
import io.zkgroups.tool.lag.LagWindow;
import io.zkgroups.tool.output.Json;
import io.zkgroups.tool.output.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/** {@code zkgroups lag}: per-partition lag of groups, judged over a window of samples (docs/cli.md, docs/monitoring.md). */
@Command(name = "lag", sortOptions = false, description = {
        "Per partition of every group under /consumers (or each --group): the offsets in ZooKeeper and Kafka, the log end, "
                + "the lag of each store and of the offset the group reads, and a status judged over --samples samples "
                + "--interval apart, after Burrow's rules: OK, WARN (lag growing), STALL (not moving with backlog, owned by "
                + "a live member), STOP (not moving with backlog, no live owner), REWIND (offset moved back), ERR (offset "
                + "behind the log start). A group's status is its worst partition's.",
        "LAG-TIME is the age of the record at the committed offset (the next to consume): from its timestamp, read with "
                + "one small fetch per partition, else interpolated from the log end samples (~), or a lower bound (>=); "
                + "0 when caught up. It keeps growing while the offset does not move. COMMITTED is the time since the "
                + "offset was written (a ZooKeeper offset's mtime).",
        "--watch samples and prints again every --interval, over a sliding window, until interrupted.",
        "Exit 3 for a --group that does not exist, 11 when Kafka did not answer (the ZooKeeper half is printed)."})
final class LagCommand extends AbstractCommand {

    @Option(names = "--group", paramLabel = "G", description = "A group (repeatable; default: every group under /consumers).")
    List<String> groups;

    @Option(names = "--samples", paramLabel = "N", defaultValue = "3",
            description = "Samples per evaluation (the window; default: ${DEFAULT-VALUE}). 1 judges at once, from the "
                    + "ZooKeeper offsets' mtimes only.")
    int samples;

    @Option(names = "--interval", paramLabel = "DURATION", defaultValue = "5s", converter = DurationParser.class,
            description = "Time between samples (default: ${DEFAULT-VALUE}).")
    Duration interval;

    @Option(names = "--idle-after", paramLabel = "DURATION", defaultValue = "2m", converter = DurationParser.class,
            description = "An offset with backlog unchanged for longer than this is STALL or STOP (default: ${DEFAULT-VALUE}, "
                    + "two 0.8.2.2 auto-commit intervals).")
    Duration idleAfter;

    @Option(names = "--stale-after", paramLabel = "DURATION", defaultValue = "5m", converter = DurationParser.class,
            description = "Phase inference: a ZooKeeper offset older than this is stale (default: ${DEFAULT-VALUE}).")
    Duration staleAfter;

    @Option(names = "--watch", description = "Keep sampling and printing every --interval until interrupted.")
    boolean watch;

    @Override
    ExitCode run(Clients clients) {
        if (samples < 1) {
            throw new CliException(ExitCode.USAGE, "--samples must be at least 1");
        }
        if (interval.isZero() || interval.isNegative() || idleAfter.isNegative()) {
            throw new CliException(ExitCode.USAGE, "--interval must be positive and --idle-after not negative");
        }
        GroupSampler sampler = new GroupSampler(clients, staleAfter);
        LagWindow window = new LagWindow(samples);
        boolean explicit = groups != null && !groups.isEmpty();
        ExitCode code = ExitCode.OK;
        for (int taken = 0; ; taken++) {
            long started = System.nanoTime();
            List<String> names = explicit ? List.copyOf(new TreeSet<>(groups)) : sampler.allGroups();
            GroupSampler.Sampling sampling = sampler.sample(names);
            sampling.groups().values().forEach(window::add);
            window.retainGroups(Set.copyOf(names));
            if (explicit && taken == 0) {
                requireKnown(sampling);
            }
            boolean last = taken + 1 >= samples;
            if (watch || last) {
                if (sampling.kafkaProblem() != null) {
                    warn(sampling.kafkaProblem() + "; Kafka offsets, log offsets, lag and status are unknown");
                    code = ExitCode.KAFKA_PARTIAL;
                }
                List<GroupLag> evaluated = new ArrayList<>();
                sampling.groups().values().forEach(g -> evaluated.add(window.evaluate(g, idleAfter)));
                print(sampling.at(), evaluated);
                if (!watch) {
                    return code;
                }
            }
            if (!pause(interval.toNanos() - (System.nanoTime() - started))) {
                return code; // interrupted: --watch ends here
            }
        }
    }

    /** Waits out the sampling interval; false when interrupted. */
    private static boolean pause(long nanos) {
        if (nanos <= 0) {
            return !Thread.currentThread().isInterrupted();
        }
        try {
            TimeUnit.NANOSECONDS.sleep(nanos); // the sampling period itself, not a wait for an event
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static void requireKnown(GroupSampler.Sampling sampling) {
        List<String> unknown = sampling.groups().values().stream()
                .filter(g -> !g.isKnown()).map(GroupSample::group).toList();
        if (!unknown.isEmpty()) {
            throw new CliException(ExitCode.NOT_FOUND, "group " + String.join(", ", unknown) + " not found: no members, "
                    + "owners or offsets under /consumers and no offsets in Kafka");
        }
    }

    private void print(Instant at, List<GroupLag> evaluated) {
        if (json()) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("at", at.toString());
            doc.put("groups", evaluated);
            if (watch) {
                Json.printLine(out(), doc);
            } else {
                printJson(doc);
            }
            return;
        }
        if (watch) {
            out().println("== " + at);
        }
        for (GroupLag g : evaluated) {
            out().println("GROUP " + g.group() + "  STATUS " + g.status() + "  PHASE " + g.phase() + "  MEMBERS " + g.members()
                    + "  LAG " + (g.totalLag() == null ? "-" : g.totalLag()) + "  MAX-LAG " + Seconds.format(g.maxLagSeconds())
                    + "  (" + g.samples() + " samples)  COORDINATOR " + g.coordinator());
            Table t = new Table("TOPIC", "PARTITION", "LOG-END", "ZK-OFFSET", "ZK-LAG", "KAFKA-OFFSET", "KAFKA-LAG",
                    "LAG-TIME", "COMMITTED", "STATUS", "OWNER");
            g.partitions().forEach(p -> t.row(p.topic(), p.partition(), p.logEnd(), p.zookeeperOffset(), p.zookeeperLag(),
                    p.kafkaOffset(), p.kafkaLag(), Seconds.lag(p.lagSeconds(), p.lagSecondsSource()),
                    Seconds.ago(p.commitAgeSeconds()), p.status(), p.owner() == null ? null
                            : p.ownerLive() ? p.owner() : p.owner() + " (not a member)"));
            t.print(out());
            g.partitions().stream().filter(p -> p.status() != null && p.status() != LagStatus.OK)
                    .forEach(p -> out().println("  " + p.topic() + ":" + p.partition() + " " + p.status() + ": " + p.reason()));
            g.unreadable().forEach(u -> out().println("  unreadable: " + u));
            out().println();
        }
        out().flush();
    }
}
