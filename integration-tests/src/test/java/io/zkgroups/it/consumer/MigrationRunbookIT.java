package io.zkgroups.it.consumer;

import io.zkgroups.embedded.EmbeddedKafka;
import io.zkgroups.testing.SteadyProducer;
import io.zkgroups.testing.TestZooKeeper;
import io.zkgroups.tool.Main;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * docs/migration-runbook.md on a live group of ZkGroupConsumers that consume throughout: copy, rolling bounce to
 * dual commit, verify, rolling bounce to Kafka only, then the rollback the same way back — every step gated on
 * {@code zkgroups health}, the phase visible in {@code groups describe}, and not a record lost.
 */
@Tag("older-zookeeper") // also run on ZooKeeper 3.4 and 3.5 (integration-tests/pom.xml)
@Timeout(600)
class MigrationRunbookIT {

    private static final String GROUP = "runbook";
    private static final String TOPIC = "runbook-orders";
    private static final int PARTITIONS = 4;

    private TestZooKeeper zk;
    private EmbeddedKafka broker;
    private final DeliveryLog log = new DeliveryLog();
    private final List<ConsumerWorker> members = new ArrayList<>();
    private int generation;

    @Test
    void theDualCommitRunbookAndItsRollbackLoseNothing() {
        try (TestZooKeeper server = (zk = TestZooKeeper.start());
             EmbeddedKafka kafka = (broker = EmbeddedKafka.startZooKeeperMode(server.connectString()));
             SteadyProducer producer = producerOnNewTopic(kafka)) {
            start("zookeeper", null);
            start("zookeeper", null);
            gate(false);
            // the phase shows once the members have committed to ZooKeeper (stable comes before the first commit)
            await().atMost(Duration.ofSeconds(30)).until(() -> describe().contains("zookeeper-only"));

            // step 1: copy the offsets, then a rolling bounce to offsets.storage=kafka with dual commit
            assertThat(cli("migrate", "execute", "--group", GROUP).code).isZero();
            bounce("kafka", "true");
            gate(true);
            // dual commit shows once the dual-committing members have committed past what the old ones left in ZooKeeper
            await().atMost(Duration.ofSeconds(30)).until(() -> describe().contains("dual-commit"));
            await().atMost(Duration.ofSeconds(30)).until(() -> cli("migrate", "verify", "--group", GROUP).code == 0);

            // step 2: a rolling bounce to Kafka storage only; ZooKeeper offsets go stale
            bounce("kafka", "false");
            gate(false);
            await().atMost(Duration.ofSeconds(30)).until(() -> describe("--stale-after", "1s").contains("kafka-only"));

            // rollback, step 1: copy Kafka offsets back, then dual commit again
            assertThat(cli("migrate", "rollback", "--group", GROUP).code).isZero();
            bounce("kafka", "true");
            gate(true);
            await().atMost(Duration.ofSeconds(30)).until(() -> describe().contains("dual-commit"));
            // rollback, step 2: back to ZooKeeper storage
            bounce("zookeeper", null);
            gate(false);

            long[] produced = producer.stop();
            await().atMost(Duration.ofSeconds(60)).until(() -> missing(produced) == 0);
            closeMembers();
            assertThat(log.moves()).allSatisfy(h -> assertThat(h.overlap()).as(h.toString()).isZero());
            assertThat(log.interleavings(Set.of())).isEmpty();
        }
    }

    /** Members left running by a failed step would go on against stopped servers for the rest of the JVM. */
    @AfterEach
    void closeMembers() {
        List<IllegalStateException> failed = new ArrayList<>();
        for (ConsumerWorker m : members) {
            try {
                m.close();
            } catch (IllegalStateException e) {
                failed.add(e);
            }
        }
        members.clear();
        assertThat(failed).as("members that did not stop cleanly").isEmpty();
    }

    private static SteadyProducer producerOnNewTopic(EmbeddedKafka kafka) {
        kafka.createTopic(TOPIC, PARTITIONS);
        return SteadyProducer.start(kafka.bootstrapServers(), TOPIC, PARTITIONS, 5, Duration.ofMillis(50));
    }

    private long missing(long[] produced) {
        long missing = 0;
        for (int p = 0; p < produced.length; p++) {
            missing += log.missing(new TopicPartition(TOPIC, p), produced[p]).size();
        }
        return missing;
    }

    private void start(String storage, String dual) {
        Properties props = new Properties();
        props.setProperty("zookeeper.connect", zk.connectString());
        props.setProperty("group.id", GROUP);
        props.setProperty("auto.offset.reset", "smallest");
        props.setProperty("auto.commit.interval.ms", "100");
        props.setProperty("offsets.storage", storage);
        if (dual != null) {
            props.setProperty("dual.commit.enabled", dual);
        }
        members.add(new ConsumerWorker("m" + (++generation) + "-" + storage + (dual == null ? "" : "-dual" + dual), props, List.of(TOPIC), log));
    }

    /** Replaces every member, one at a time, each step gated on health (no store check: the stores differ mid-bounce). */
    private void bounce(String storage, String dual) {
        int size = members.size();
        for (int i = 0; i < size; i++) {
            ConsumerWorker old = members.remove(0);
            old.close();
            gate(false);
            start(storage, dual);
            gate(false);
        }
    }

    private void gate(boolean checkStores) {
        List<String> args = new ArrayList<>(List.of("health", "--group", GROUP, "--expect-members",
                Integer.toString(members.size()), "--wait", "60s"));
        if (!checkStores) {
            args.add("--no-store-check");
        }
        Run run = cli(args.toArray(String[]::new));
        assertThat(run.code).as(run.toString()).isZero();
    }

    private String describe(String... extra) {
        List<String> args = new ArrayList<>(List.of("groups", "describe", "--group", GROUP));
        args.addAll(List.of(extra));
        Run run = cli(args.toArray(String[]::new));
        assertThat(run.code).as(run.toString()).isZero();
        return run.out;
    }

    private Run cli(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--zookeeper", zk.connectString()));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(all.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private record Run(int code, String out, String err) {
    }
}
