package io.zkgroups.chaos.run;

import io.zkgroups.chaos.cluster.ChaosCluster;
import io.zkgroups.chaos.fault.FaultCatalog;
import io.zkgroups.chaos.monitor.Verdict;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The chaos suite's short mode, in {@code mvn verify}: a few faults against real parts in separate JVMs (three
 * ZooKeeper servers, a broker, the members), with zkgroups' promises checked over the logs; and the same monitor
 * failing runs whose member is broken on purpose, so that a passing run means something. The long mode is
 * {@code bench/chaos.sh} (docs/chaos.md).
 */
@Timeout(300)
class ChaosShortIT {

    private static final Path RUNS = Path.of("target", "chaos-it").toAbsolutePath();

    private static ChaosRunner.Options options(String name, int members, String broken, String faults, int count, long seed)
            throws java.io.IOException {
        return options(name, members, broken, faults, count, seed, false);
    }

    private static ChaosRunner.Options options(String name, int members, String broken, String faults, int count, long seed,
                                               boolean kafkaOffsets) throws java.io.IOException {
        deleteRecursively(RUNS.resolve(name)); // a run starts from empty servers
        ChaosCluster.Settings settings = new ChaosCluster.Settings(RUNS.resolve(name), "chaos", "chaos-t", 4, members, 0,
                60, 3_000, 200, broken, 500, kafkaOffsets);
        return new ChaosRunner.Options(settings, FaultCatalog.parse(faults), count, seed, true,
                Duration.ofSeconds(60), Duration.ZERO, Duration.ofSeconds(45), false);
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
        assertThat(result.verdict().violations()).allSatisfy(x -> assertThat(x.process()).isIn("m0-1", "-", "m1-1"));
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
    }
}
