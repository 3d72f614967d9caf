package io.zkgroups.chaos.run;

import io.zkgroups.chaos.cluster.ChaosCluster;
import io.zkgroups.chaos.cluster.ZooKeeperServerRelease;
import io.zkgroups.chaos.cluster.ChaosException;
import io.zkgroups.chaos.cluster.Consumption;
import io.zkgroups.chaos.cluster.HealthGate;
import io.zkgroups.chaos.cluster.Journal;
import io.zkgroups.chaos.fault.Fault;
import io.zkgroups.chaos.monitor.History;
import io.zkgroups.chaos.monitor.HistoryReader;
import io.zkgroups.chaos.monitor.InvariantMonitor;
import io.zkgroups.chaos.monitor.Verdict;
import io.zkgroups.chaos.offsets.ConsumerOffsetsReader;
import io.zkgroups.chaos.offsets.OffsetCommitRecord;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * One chaos run: start the cluster, wait for a healthy group, then {@code faults} times draw a fault from the
 * seeded {@link Random}, inject and undo it, and wait for the group to be healthy again; then stop producing, let
 * the group commit everything acknowledged, leave gracefully, stop the servers and check the invariants over the
 * logs ({@link InvariantMonitor}). Writes {@code report.json}, {@code report.txt} and {@code violations.txt} (every
 * violation, one a line) into the run directory.
 */
public final class ChaosRunner {

    /** Everything a run is told. */
    public record Options(ChaosCluster.Settings cluster, List<Fault> faults, int faultCount, long seed, boolean cycle,
                          Duration healthTimeout, Duration settle, Duration stallBound, boolean echo) {
    }

    /** What a run produced. */
    public record Result(Path runDir, long seed, List<FaultRecord> faults, Verdict verdict, String table) {
    }

    private static final int MAX_UNHEALTHY_IN_A_ROW = 3;
    /** How long the next fault waits for consumption to resume (a fault that stalls longer is the stall invariant's). */
    private static final Duration RESUME_TIMEOUT = Duration.ofSeconds(30);

    /**
     * What one rebalance may take: the 0.8.2.2 consumer's own budget for it, {@code rebalance.max.retries} (4) times
     * {@code rebalance.backoff.ms} (2000) at their defaults, after which it gives up with
     * ConsumerRebalanceFailedException.
     */
    public static final Duration REBALANCE_ALLOWANCE = Duration.ofMillis(4 * 2_000);

    /**
     * The longest a partition may wait with a backlog: a member's death is noticed after one session timeout, then
     * one rebalance hands its partitions over.
     */
    public static Duration defaultStallBound(int sessionTimeoutMs) {
        return Duration.ofMillis(sessionTimeoutMs).plus(REBALANCE_ALLOWANCE);
    }

    /**
     * The monitor's bounds for a run of these settings: a zkgroups member's unclean end is judged by its
     * {@code zkgroups.max.uncommitted.records}; a 0.8.2.2 consumer's by the members' commit interval, session timeout
     * and {@code max.poll.records}, and the produce rate per partition at the start (an upper bound: partitions are
     * only ever added).
     */
    public static InvariantMonitor.Bounds bounds(ChaosCluster.Settings s, Duration stallBound) {
        return bounds(s, stallBound, s.maxPollRecords(), s.maxUncommittedRecords());
    }

    private static InvariantMonitor.Bounds bounds(ChaosCluster.Settings s, Duration stallBound, long maxPollRecords,
                                                  long maxUncommittedRecords) {
        return new InvariantMonitor.Bounds(stallBound, Duration.ofMillis(5), Duration.ofMillis(s.commitIntervalMs()),
                (double) s.recordsPerSecond() / s.partitions(), Duration.ofMillis(s.sessionTimeoutMs()), maxPollRecords,
                maxUncommittedRecords);
    }

    private ChaosRunner() {
    }

    public static Result run(Options options) throws Exception {
        ChaosCluster.Settings s = options.cluster();
        createRunDirectory(s.runDir());
        writeSettings(options);
        List<FaultRecord> records = new ArrayList<>();
        String aborted = null;
        try (Journal journal = new Journal(s.runDir().resolve("journal.log"), options.echo());
             ChaosCluster cluster = ChaosCluster.start(s, journal)) {
            HealthGate.Result first = cluster.health().await(s.groupSize(), Duration.ofSeconds(120), options.settle());
            if (!first.healthy()) {
                throw new ChaosException("the group never became healthy at the start: " + first.output());
            }
            journal.log("HEALTHY", "0 " + first.millis());
            Random random = new Random(options.seed());
            int unhealthyInARow = 0;
            for (int i = 1; i <= options.faultCount(); i++) {
                // cycle: every fault of the set in turn (coverage); otherwise drawn (a seeded mix)
                Fault fault = options.cycle() ? options.faults().get((i - 1) % options.faults().size())
                        : options.faults().get(random.nextInt(options.faults().size()));
                journal.clock();
                journal.log("FAULT", i + " " + fault.name());
                String detail = fault.inject(cluster, random);
                journal.log("FAULT-END", i + " " + detail);
                HealthGate.Result health = cluster.health().await(s.groupSize(), options.healthTimeout(), options.settle());
                journal.log(health.healthy() ? "HEALTHY" : "UNHEALTHY", i + " " + health.millis()
                        + (health.healthy() ? "" : " " + health.output().replace('\n', ' ')));
                records.add(new FaultRecord(i, fault.name(), detail, health.healthy(), health.millis(), health.exitCode()));
                if (health.healthy()) {
                    awaitResumed(cluster, journal, i);
                }
                unhealthyInARow = health.healthy() ? 0 : unhealthyInARow + 1;
                if (unhealthyInARow >= MAX_UNHEALTHY_IN_A_ROW) {
                    aborted = "the group stayed unhealthy after " + MAX_UNHEALTHY_IN_A_ROW + " faults in a row";
                    journal.log("ABORT", aborted);
                    break;
                }
            }
            journal.clock();
            Consumption.drain(cluster, journal, Duration.ofSeconds(90));
            cluster.stopMembers(Duration.ofSeconds(60));
            writeKafkaOffsets(cluster, journal);
            journal.clock();
        }
        History history = HistoryReader.read(s.runDir(), s.group(), s.topic());
        Verdict checked = InvariantMonitor.check(history, bounds(s, options.stallBound()));
        Verdict verdict = aborted == null ? checked : checked.withNote("run aborted: " + aborted);
        String table = Report.table(options, records, verdict, history::faultAt);
        Files.writeString(s.runDir().resolve("report.txt"), table, StandardCharsets.UTF_8);
        Files.writeString(s.runDir().resolve("report.json"), Report.json(options, records, verdict, history::faultAt), StandardCharsets.UTF_8);
        Files.write(s.runDir().resolve("violations.txt"), Report.lines(verdict, history::faultAt), StandardCharsets.UTF_8);
        return new Result(s.runDir(), options.seed(), records, verdict, table);
    }

    /** Creates an empty run directory; refuses one with anything in it (its servers' data would be reused). */
    public static void createRunDirectory(Path runDir) throws java.io.IOException {
        if (Files.isDirectory(runDir)) {
            try (java.util.stream.Stream<Path> entries = Files.list(runDir)) {
                if (entries.findAny().isPresent()) {
                    throw new ChaosException("run directory " + runDir + " is not empty (its servers' data would be "
                            + "reused): choose another one or delete it");
                }
            }
        }
        Files.createDirectories(runDir);
    }

    /**
     * Checks the invariants over an existing run directory again (e.g. after a change of the monitor), with the
     * faults as its journal recorded them; writes {@code report.txt} and {@code report.json} anew.
     */
    public static Result analyze(Path runDir, Duration stallBoundOrNull) throws Exception {
        java.util.Properties p = new java.util.Properties();
        try (java.io.Reader in = Files.newBufferedReader(runDir.resolve("run.properties"))) {
            p.load(in);
        }
        String broken = p.getProperty("broken.member", "");
        ChaosCluster.Settings s = new ChaosCluster.Settings(runDir, p.getProperty("group"), p.getProperty("topic"),
                Integer.parseInt(p.getProperty("partitions")), Integer.parseInt(p.getProperty("members")),
                Integer.parseInt(p.getProperty("legacy.members", "0")), Integer.parseInt(p.getProperty("rate")), Integer.parseInt(p.getProperty("session.ms")),
                Long.parseLong(p.getProperty("commit.interval.ms")), broken.isEmpty() ? null : broken, 500,
                Boolean.parseBoolean(p.getProperty("kafka.offsets", "false")),
                Long.parseLong(p.getProperty("slow.processing.ms", "0")))
                .withZooKeeper(new ZooKeeperServerRelease(p.getProperty("zookeeper.version", "unrecorded"), null));
        Duration stallBound = stallBoundOrNull != null ? stallBoundOrNull : defaultStallBound(s.sessionTimeoutMs());
        Options options = new Options(s, io.zkgroups.chaos.fault.FaultCatalog.parse(p.getProperty("fault.set")),
                Integer.parseInt(p.getProperty("faults")), Long.parseLong(p.getProperty("seed")),
                "cycle".equals(p.getProperty("order")), Duration.ZERO, Duration.ZERO, stallBound, false);
        List<FaultRecord> records = JournalFaults.read(runDir.resolve("journal.log"));
        History history = HistoryReader.read(runDir, s.group(), s.topic());
        // runs from before max.poll.records was set ran with Kafka's default; runs without a cap are judged by the rate
        Verdict verdict = InvariantMonitor.check(history, bounds(s, stallBound,
                Long.parseLong(p.getProperty("max.poll.records", "500")),
                Long.parseLong(p.getProperty("max.uncommitted.records", "0"))));
        String table = Report.table(options, records, verdict, history::faultAt);
        Files.writeString(runDir.resolve("report.txt"), table, StandardCharsets.UTF_8);
        Files.writeString(runDir.resolve("report.json"), Report.json(options, records, verdict, history::faultAt), StandardCharsets.UTF_8);
        Files.write(runDir.resolve("violations.txt"), Report.lines(verdict, history::faultAt), StandardCharsets.UTF_8);
        return new Result(runDir, options.seed(), records, verdict, table);
    }

    /**
     * Waits until the group has committed past what was acknowledged when it was healthy again: consumption has
     * resumed on every partition. Without it the next fault could move partitions nobody has consumed since the
     * last one, and their stall would be the sum of a chain of faults instead of each fault's own.
     */
    private static void awaitResumed(ChaosCluster cluster, Journal journal, int fault) {
        long start = System.nanoTime();
        boolean resumed = Consumption.awaitCommittedPast(cluster, cluster.producer().ackedEnds(), RESUME_TIMEOUT);
        long ms = (System.nanoTime() - start) / 1_000_000;
        journal.log(resumed ? "RESUMED" : "NOT-RESUMED", fault + " " + ms);
    }

    /**
     * Copies the group's commits from {@code __consumer_offsets} into {@code kafka-offsets.log} while the broker still
     * runs (dual commit, {@code migrate execute}): the monitor checks them too.
     */
    private static void writeKafkaOffsets(ChaosCluster cluster, Journal journal) {
        Path file = cluster.settings().runDir().resolve("kafka-offsets.log");
        try {
            List<OffsetCommitRecord> commits = ConsumerOffsetsReader.read(cluster.broker().bootstrapServers(),
                    cluster.settings().group(), Duration.ofSeconds(60));
            Files.write(file, commits.stream().map(OffsetCommitRecord::line).toList(), StandardCharsets.US_ASCII);
            journal.log("KAFKA-OFFSETS", commits.size() + " commits of " + cluster.settings().group() + " in "
                    + ConsumerOffsetsReader.TOPIC);
        } catch (RuntimeException | java.io.IOException e) {
            journal.log("UNCHECKED", "cannot read " + ConsumerOffsetsReader.TOPIC + ": " + e);
        }
    }

    private static void writeSettings(Options o) throws java.io.IOException {
        ChaosCluster.Settings s = o.cluster();
        String text = "seed=" + o.seed() + "\nfaults=" + o.faultCount() + "\norder=" + (o.cycle() ? "cycle" : "random") + "\nfault.set="
                + String.join(",", o.faults().stream().map(Fault::name).toList()) + "\ngroup=" + s.group()
                + "\ntopic=" + s.topic() + "\npartitions=" + s.partitions() + "\nmembers=" + s.members()
                + "\nlegacy.members=" + s.legacyMembers()
                + "\nrate=" + s.recordsPerSecond() + "\nsession.ms=" + s.sessionTimeoutMs() + "\ncommit.interval.ms="
                + s.commitIntervalMs() + "\nbroken.member=" + (s.brokenMode() == null ? "" : s.brokenMode())
                + "\nkafka.offsets=" + s.kafkaOffsets() + "\nslow.processing.ms=" + s.slowProcessingMs() + "\nstall.bound.ms=" + o.stallBound().toMillis()
                + "\nmax.poll.records=" + s.maxPollRecords() + "\nmax.uncommitted.records=" + s.maxUncommittedRecords()
                + "\nzookeeper.version=" + s.zooKeeper().version() + "\n";
        Files.writeString(s.runDir().resolve("run.properties"), text, StandardCharsets.UTF_8);
    }
}
