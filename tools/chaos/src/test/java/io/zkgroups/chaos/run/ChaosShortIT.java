package io.zkgroups.chaos.run;

import io.zkgroups.chaos.cluster.ChaosCluster;
import io.zkgroups.chaos.cluster.ZooKeeperServerRelease;
import io.zkgroups.chaos.fault.FaultCatalog;
import io.zkgroups.chaos.monitor.Verdict;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The chaos suite's short mode, in {@code mvn verify}: a few faults against real parts in separate JVMs (three
 * ZooKeeper servers, a broker, the members), with zkgroups' promises checked over the logs; and the same monitor
 * failing runs whose member is broken on purpose, so that a passing run means something. The long mode is
 * {@code tools/bench/chaos.sh} (docs/chaos.md).
 */
@Timeout(300)
class ChaosShortIT {

    private static final Path RUNS = Path.of("target", "chaos-it").toAbsolutePath();
    /** The members' session timeout; the stall bound is derived from it as in every run: 3 s + one rebalance, 8 s. */
    private static final int SESSION_MS = 3_000;

    private static ChaosRunner.Options options(String name, int members, String broken, String faults, int count, long seed)
            throws java.io.IOException {
        return options(name, members, broken, faults, count, seed, false);
    }

    private static ChaosRunner.Options options(String name, int members, String broken, String faults, int count, long seed,
                                               boolean kafkaOffsets) throws java.io.IOException {
        return options(name, members, broken, faults, count, seed, kafkaOffsets, ZooKeeperServerRelease.current());
    }

    private static ChaosRunner.Options options(String name, int members, String broken, String faults, int count, long seed,
                                               boolean kafkaOffsets, ZooKeeperServerRelease zooKeeper)
            throws java.io.IOException {
        deleteRecursively(RUNS.resolve(name)); // a run starts from empty servers
        ChaosCluster.Settings settings = new ChaosCluster.Settings(RUNS.resolve(name), "chaos", "chaos-t", 4, members, 0,
                60, SESSION_MS, 200, broken, 500, kafkaOffsets).withZooKeeper(zooKeeper);
        return new ChaosRunner.Options(settings, FaultCatalog.parse(faults), count, seed, true,
                Duration.ofSeconds(60), Duration.ZERO, ChaosRunner.defaultStallBound(SESSION_MS), false);
    }

    private static void deleteRecursively(Path dir) throws java.io.IOException {
        if (java.nio.file.Files.exists(dir)) {
            try (java.util.stream.Stream<Path> paths = java.nio.file.Files.walk(dir)) {
                for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    java.nio.file.Files.delete(p);
                }
            }
        }
    }

    @Test
    void aGroupThroughKillsPausesAndZooKeeperAndBrokerFailuresKeepsEveryPromise() throws Exception {
        ChaosRunner.Result result = ChaosRunner.run(options("correct", 3, null,
                "kill-member,pause-member,member-zk-stall,term-member,kill-zk-leader,restart-broker", 6, 7));
        System.out.println(result.table());

        Verdict v = result.verdict();
        assertThat(result.faults()).hasSize(6).allSatisfy(f -> assertThat(f.healthy()).as(f.toString()).isTrue());
        assertThat(v.acked()).as("records produced through the faults").isGreaterThan(500);
        assertThat(v.violations()).as(result.table()).isEmpty();
        assertThat(v.notes()).anySatisfy(n -> assertThat(n).contains("from ZooKeeper's transaction logs"));
    }

    /**
     * The same faults on the ensembles the fleet still runs: ZooKeeper 3.4 and 3.5 servers (their classpath files are
     * written by the modules servers/zookeeper-3.4 and servers/zookeeper-3.5), where the members may not send a request
     * those servers do not implement.
     */
    @ParameterizedTest(name = "on ZooKeeper {0}")
    @ValueSource(strings = {"zookeeper-3.4", "zookeeper-3.5"})
    void aGroupOnAnOlderEnsembleKeepsEveryPromise(String serverModule) throws Exception {
        ZooKeeperServerRelease release = ZooKeeperServerRelease.fromClasspathFile(
                Path.of(System.getProperty("zkgroups.test.servers", "../../servers")).resolve(serverModule)
                        .resolve("target/classpath.txt"));
        ChaosRunner.Result result = ChaosRunner.run(options("on-" + serverModule, 3, null,
                "kill-member,pause-member,member-zk-stall,term-member,kill-zk-leader,restart-broker", 6, 7, false, release));
        System.out.println(result.table());

        assertThat(result.table()).contains("ZooKeeper " + release.version());
        assertThat(java.nio.file.Files.readString(result.runDir().resolve("journal.log")))
                .as("the version the servers report").contains("version " + release.version() + ",");
        try (java.util.stream.Stream<Path> logs = java.nio.file.Files.list(result.runDir().resolve("stderr"))) {
            for (Path log : logs.filter(f -> f.getFileName().toString().startsWith("zk")).toList()) {
                assertThat(java.nio.file.Files.readString(log)).as("%s: no request the server does not implement", log)
                        .doesNotContainIgnoringCase("unknown type");
            }
        }
        Verdict v = result.verdict();
        assertThat(result.faults()).hasSize(6).allSatisfy(f -> assertThat(f.healthy()).as(f.toString()).isTrue());
        assertThat(v.acked()).as("records produced through the faults").isGreaterThan(500);
        assertThat(v.violations()).as(result.table()).isEmpty();
    }

    @Test
    void aMemberThatIgnoresLosingItsPartitionsIsCaught() throws Exception {
        // The second member's join already takes partitions away from m0 (which joins ahead of it); the fault only
        // gives both time to overlap.
        ChaosRunner.Result result = ChaosRunner.run(options("ignore-loss", 2, "ignore-loss", "member-kafka-latency", 1, 1));
        System.out.println(result.table());

        assertThat(result.verdict().passed()).isFalse();
        assertThat(result.verdict().counts().get("exclusivity")).isPositive();
        assertThat(result.verdict().counts().get("ownership")).isPositive();
        assertThat(result.verdict().counts().get("duplicate")).as("its stale hand-outs repeat the new owner's").isPositive();
        assertThat(Blame.onOthersThan(result.verdict(), "m0-1")).as("blamed on the correct member").isEmpty();
    }

    @Test
    void aMemberThatCommitsStaleOffsetsIsCaughtInZooKeeperAndInConsumerOffsets() throws Exception {
        // dual commit: the stale offsets go to ZooKeeper and to __consumer_offsets, and each is read back on its own
        ChaosRunner.Result result = ChaosRunner.run(options("stale-commit", 2, "stale-commit", "member-kafka-latency", 1, 1,
                true));
        System.out.println(result.table());

        Verdict v = result.verdict();
        assertThat(v.passed()).isFalse();
        List<String> rewinds = v.violations().stream().filter(x -> x.invariant().equals("offset-backwards"))
                .map(x -> x.message()).toList();
        assertThat(rewinds).anySatisfy(m -> assertThat(m).contains("(zxid"));
        assertThat(rewinds).anySatisfy(m -> assertThat(m).contains("in __consumer_offsets"));
        assertThat(v.notes()).anySatisfy(n -> assertThat(n).matches("from __consumer_offsets: [1-9][0-9]* offset commits.*"));
        assertThat(List.of(v.counts().get("lost"))).containsExactly(0);
        assertThat(Blame.onOthersThan(v, "m0-1")).as("blamed on the correct member").isEmpty();
    }

    @Test
    @Timeout(480)
    void aMemberThatDoesNotCommitOnTheIntervalIsCaughtAfterItsLostSessionAndItsKill() throws Exception {
        // Seed 1 slows m1's Kafka links (m0 meanwhile hands out without committing: the group does not resume), then
        // pauses m0-1 past its session (LOST), then kills it (KILLED); m0-2 runs correctly, so the run drains.
        ChaosRunner.Result result = ChaosRunner.run(options("lazy-commit", 2, "lazy-commit",
                "member-kafka-latency,pause-member,kill-member", 3, 1));
        System.out.println(result.table());

        Verdict v = result.verdict();
        assertThat(result.faults()).extracting(FaultRecord::detail)
                .anySatisfy(d -> assertThat(d).startsWith("SIGSTOP m0-1"))
                .anySatisfy(d -> assertThat(d).startsWith("SIGKILL m0-1"));
        List<String> windows = v.violations().stream().filter(x -> x.invariant().equals("unclean-window"))
                .map(x -> x.message()).toList();
        assertThat(windows).anySatisfy(m -> assertThat(m).contains("ended LOST"))
                .anySatisfy(m -> assertThat(m).contains("ended KILLED"));
        assertThat(v.counts().get("not-resumed")).as("m0-1's partitions are never committed past").isPositive();
        assertThat(List.of(v.counts().get("lost"))).containsExactly(0);
        assertThat(Blame.onOthersThan(v, "m0-1")).as("blamed on the correct members").isEmpty();
    }

    @Test
    void aMemberThatStopsHandingOutWhileKeepingItsPartitionsIsCaughtAsAStall() throws Exception {
        ChaosRunner.Result result = ChaosRunner.run(options("stall", 2, "stall", "member-kafka-latency", 1, 1));
        System.out.println(result.table());

        Verdict v = result.verdict();
        assertThat(v.counts().get("stall")).isPositive();
        assertThat(v.violations()).filteredOn(x -> x.invariant().equals("stall"))
                .allSatisfy(x -> assertThat(x.process()).isEqualTo("m0-1"));
        assertThat(List.of(v.counts().get("lost"), v.counts().get("duplicate"), v.counts().get("exclusivity")))
                .containsExactly(0, 0, 0);
        assertThat(Blame.onOthersThan(v, "m0-1")).as("blamed on the correct member").isEmpty();
    }
}
