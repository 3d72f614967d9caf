package io.zkgroups.chaos.bounce;

import io.zkgroups.chaos.cluster.ChaosCluster;
import io.zkgroups.chaos.cluster.ChaosException;
import io.zkgroups.chaos.cluster.Consumption;
import io.zkgroups.chaos.cluster.HealthGate;
import io.zkgroups.chaos.cluster.Journal;
import io.zkgroups.chaos.cluster.MemberProcess;
import io.zkgroups.chaos.cluster.MemberSlot;
import io.zkgroups.chaos.monitor.History;
import io.zkgroups.chaos.monitor.HistoryReader;
import io.zkgroups.chaos.monitor.InvariantMonitor;
import io.zkgroups.chaos.monitor.Verdict;
import io.zkgroups.chaos.run.ChaosRunner;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;

/**
 * One rolling bounce under load, as a rolling-bounce script does it (docs/rolling-bounce.sh): start the cluster of
 * the chaos suite ({@link ChaosCluster}: three ZooKeeper servers, a broker, the producer, one JVM per member), wait
 * until the group is healthy and consuming every partition, observe the steady state, then for each slot in turn
 * SIGTERM its process, wait for the exit, start the slot's next process and gate on {@code zkgroups health --wait
 * --expect-members N}; after the last step wait for consumption to catch up, stop, and analyse the logs
 * ({@link #analyze}).
 */
public final class BounceRun {

    private static final Duration START_HEALTH_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration CONSUMPTION_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(60);

    private BounceRun() {
    }

    /** Runs the bounce into {@code runDir} (which must be empty or absent) and analyses it. */
    public static BounceReport run(BounceConfig config, Path runDir, Duration healthTimeout, boolean echo)
            throws IOException, InterruptedException {
        ChaosRunner.createRunDirectory(runDir);
        try (Writer out = Files.newBufferedWriter(runDir.resolve("run.properties"), StandardCharsets.UTF_8)) {
            config.properties().store(out, "rolling bounce " + config.label());
        }
        ChaosCluster.Settings settings = config.cluster(runDir);
        Duration settle = Duration.ofMillis(config.settleMs());
        try (Journal journal = new Journal(runDir.resolve("journal.log"), echo);
             ChaosCluster cluster = ChaosCluster.start(settings, journal, config.classData(runDir))) {
            int size = settings.groupSize();
            HealthGate.Result first = cluster.health().await(size, START_HEALTH_TIMEOUT, settle);
            if (!first.healthy()) {
                throw new ChaosException("the group never became healthy at the start: " + first.output());
            }
            journal.log("HEALTHY", "0 " + first.millis());
            if (!Consumption.awaitCommittedPast(cluster, cluster.producer().ackedEnds(), CONSUMPTION_TIMEOUT)) {
                throw new ChaosException("the group did not consume every partition within " + CONSUMPTION_TIMEOUT
                        + " of being healthy");
            }
            journal.log("DELIVERING", "");
            Thread.sleep(config.steadyMs()); // the length of the steady-state observation, not a synchronization
            Map<Integer, MemberProcess> successors = new HashMap<>();
            for (int i = 0; i < size; i++) {
                prestart(cluster, journal, successors, i, Math.min(size, i + config.prestart()));
                step(cluster, journal, i, healthTimeout, settle, successors.remove(i));
            }
            journal.clock();
            boolean caughtUp = Consumption.awaitCommittedPast(cluster, cluster.producer().ackedEnds(), CONSUMPTION_TIMEOUT);
            journal.log(caughtUp ? "CAUGHT-UP" : "NOT-CAUGHT-UP", "");
            Consumption.drain(cluster, journal, CONSUMPTION_TIMEOUT);
            cluster.stopMembers(EXIT_TIMEOUT);
            journal.clock();
        }
        return analyze(runDir);
    }

    /**
     * Launches the successors of slots {@code from} (the next step's) to {@code to} (exclusive) not yet launched; a
     * 0.8.2.2 slot has none (its next consumer starts after the old one's exit).
     */
    private static void prestart(ChaosCluster cluster, Journal journal, Map<Integer, MemberProcess> successors, int from,
                                 int to) {
        for (int j = from; j < to; j++) {
            if (!successors.containsKey(j) && !cluster.slots().get(j).legacy()) {
                MemberProcess successor = cluster.prestartMember(cluster.slots().get(j));
                successors.put(j, successor);
                journal.log("BOUNCE-PRESTARTED", j + " " + successor.name());
            }
        }
    }

    /**
     * SIGTERM the slot's process, wait for its exit, start the next one, gate on health. With a {@code waiting}
     * successor (started earlier, {@link #prestart}) the step begins once it waits for the ticket the old process
     * writes at its SIGTERM; it takes over instead of a new process starting, and the gate runs while the old process
     * exits (the step ends when both are done).
     */
    private static void step(ChaosCluster cluster, Journal journal, int i, Duration healthTimeout, Duration settle,
                             MemberProcess waiting) {
        MemberSlot slot = cluster.slots().get(i);
        MemberProcess old = slot.current();
        if (waiting != null) {
            waiting.awaitTicketWait();
            journal.log("BOUNCE-AWAITING", i + " " + waiting.name());
        }
        journal.clock();
        journal.log("FAULT", (i + 1) + " bounce-" + old.name()); // names the step a stall began in
        journal.log("BOUNCE-TERM", i + " " + old.name());
        old.jvm().sigterm();
        if (waiting == null) {
            exited(journal, i, old);
            journal.log("BOUNCE-STARTED", i + " " + cluster.startMember(slot).name());
            gate(cluster, journal, i, healthTimeout, settle);
        } else {
            // The successor takes over while the old process is still exiting; the step ends when both are done.
            CompletableFuture<Void> exit = CompletableFuture.runAsync(() -> exited(journal, i, old));
            journal.log("BOUNCE-STARTED", i + " " + cluster.takeOver(slot, waiting).name());
            gate(cluster, journal, i, healthTimeout, settle);
            exit.join();
        }
    }

    private static void exited(Journal journal, int i, MemberProcess old) {
        int exit = old.jvm().awaitTermination(EXIT_TIMEOUT);
        journal.log("BOUNCE-EXITED", i + " " + old.name() + " " + exit);
    }

    /** What {@code zkgroups health --wait} says of its waiting: "after N checks in M ms". */
    private static final java.util.regex.Pattern CHECKS = java.util.regex.Pattern.compile("after \\d+ checks in \\d+ ms");

    private static void gate(ChaosCluster cluster, Journal journal, int i, Duration healthTimeout, Duration settle) {
        HealthGate.Result health = cluster.health().await(cluster.settings().groupSize(), healthTimeout, settle);
        java.util.regex.Matcher checks = CHECKS.matcher(health.output());
        journal.log(health.healthy() ? "BOUNCE-HEALTHY" : "BOUNCE-UNHEALTHY", i + " "
                + (health.healthy() ? health.millis() + (checks.find() ? " " + checks.group() : "")
                : health.exitCode() + " " + health.output().replace('\n', ' ')));
    }

    /**
     * The run's slice and 1 s: a slice shorter than the gaps in delivery of a member that keeps up but is descheduled
     * (on a loaded machine, hundreds of milliseconds) counts those gaps too.
     */
    private static List<Long> slices(long sliceMs) {
        return sliceMs == 1_000 ? List.of(sliceMs) : List.of(sliceMs, 1_000L);
    }

    /** Analyses a run directory (again): the figures and the invariant monitor's verdict; writes report.txt and .json. */
    public static BounceReport analyze(Path runDir) throws IOException {
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(runDir.resolve("run.properties"), StandardCharsets.UTF_8)) {
            p.load(in);
        }
        BounceConfig config = BounceConfig.of(p);
        ChaosCluster.Settings settings = config.cluster(runDir);
        History history = HistoryReader.read(runDir, BounceConfig.GROUP, BounceConfig.TOPIC);
        Verdict verdict = InvariantMonitor.check(history, ChaosRunner.bounds(settings,
                ChaosRunner.defaultStallBound(settings.sessionTimeoutMs())));
        BounceTimeline timeline = BounceTimeline.read(runDir.resolve("journal.log"));
        BounceFigures figures = BounceFigures.of(history, timeline, config.partitions(), slices(config.sliceMs()),
                history.groupFormed(), verdict);
        BounceReport report = new BounceReport(config, runDir, figures);
        Files.writeString(runDir.resolve("report.txt"), report.text(), StandardCharsets.UTF_8);
        Files.writeString(runDir.resolve("report.json"), report.json(), StandardCharsets.UTF_8);
        return report;
    }
}
