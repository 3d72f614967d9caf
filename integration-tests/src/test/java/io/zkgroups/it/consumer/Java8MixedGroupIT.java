package io.zkgroups.it.consumer;

import io.zkgroups.it.support.KafkaOnZooKeeperExtension;
import io.zkgroups.it.support.LegacyConsumerProcess;
import io.zkgroups.testing.Java8Runtime;
import io.zkgroups.tool.Main;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The libraries on a real Java 8 JVM ({@link Java8Runtime}) in a group with real Kafka 0.8.2.2 consumers, also on
 * Java 8, against a real ZooKeeper and Kafka broker: two ZkGroupConsumer poll loops (consumer-driver) and two 0.8.2.2
 * high-level consumers join one group with {@code offsets.storage=kafka}, dual commit and a commit every 100 ms; the
 * group converges to one owner per partition, survives a SIGTERM and a kill -9, consumes everything, leaves both
 * offset stores at the end of the log, and the CLI's read commands describe it. Skipped, with the reason, where no
 * Java 8 runtime can be had.
 */
@Tag("compat-matrix")
@Timeout(420)
class Java8MixedGroupIT {

    private static final String GROUP = "j8-mixed";
    private static final String TOPIC = GROUP + "-t";
    private static final int PARTITIONS = 8;
    private static final int PER_PARTITION = 50;
    private static final int SESSION_MS = 6000;

    @RegisterExtension
    static final KafkaOnZooKeeperExtension servers = new KafkaOnZooKeeperExtension();
    private static Path java8;

    @BeforeAll
    @Timeout(value = 25, unit = TimeUnit.MINUTES) // the first run makes the Java 8 runtime
    static void java8() {
        Java8Runtime.Found found = Java8Runtime.find();
        Assumptions.assumeTrue(found.available(), found::reason);
        java8 = found.java();
    }

    @Test
    void zkGroupConsumersOnJava8ShareAGroupWith0822ConsumersThroughJoinSigtermAndKill() throws Exception {
        servers.broker().createTopic(TOPIC, PARTITIONS);
        produce(0);
        List<AutoCloseable> all = new ArrayList<>();
        try {
            PollLoopProcess z1 = PollLoopProcess.start(java8, "z1", TOPIC, zkGroupProperties("z1"));
            all.add(z1);
            assertThat(z1.javaVersion()).as("the poll loop's JVM").startsWith("JAVA 1.8.0");
            LegacyConsumerProcess l1 = legacy("l1");
            all.add(l1);
            PollLoopProcess z2 = PollLoopProcess.start(java8, "z2", TOPIC, zkGroupProperties("z2"));
            all.add(z2);
            LegacyConsumerProcess l2 = legacy("l2");
            all.add(l2);
            l1.awaitReady(PollLoopProcess.WAIT);
            l2.awaitReady(PollLoopProcess.WAIT);

            awaitOwnedBy(Set.of(GROUP + "_z1", GROUP + "_z2", GROUP + "_l1", GROUP + "_l2"));
            awaitConsumed(PARTITIONS * PER_PARTITION, z1, z2, l1, l2);

            assertThat(l1.terminate()).as("0.8.2.2 consumer's exit code after SIGTERM").isEqualTo(143);
            awaitOwnedBy(Set.of(GROUP + "_z1", GROUP + "_z2", GROUP + "_l2"));

            z1.kill(); // its session expires after SESSION_MS, then the others take its partitions over
            awaitOwnedBy(Set.of(GROUP + "_z2", GROUP + "_l2"));

            produce(PER_PARTITION);
            awaitConsumed(2 * PARTITIONS * PER_PARTITION, z1, z2, l1, l2);
            awaitBothStoresAt(2 * PER_PARTITION);

            assertReadCommandsDescribeTheGroup();

            assertThat(z2.sigterm()).as("poll loop's exit code after SIGTERM").isEqualTo(143);
            assertThat(z2.lines()).as("closed by its shutdown hook").contains("CLOSED");
            l2.shutdown();
            assertThat(servers.client().getChildren().forPath("/consumers/" + GROUP + "/ids")).isEmpty();
        } finally {
            for (AutoCloseable c : all) {
                c.close();
            }
        }
    }

    private void assertReadCommandsDescribeTheGroup() {
        String[] list = cli("groups", "list");
        assertThat(list[1]).as(String.join("\n", list)).contains(GROUP);
        String[] members = cli("groups", "describe", "--group", GROUP, "--members");
        assertThat(members[1]).as(String.join("\n", members)).contains(GROUP + "_z2", GROUP + "_l2");
        String[] offsets = cli("groups", "describe", "--group", GROUP, "--offsets");
        assertThat(offsets[1]).as(String.join("\n", offsets)).contains(TOPIC);
        String[] health = cli("health", "--group", GROUP, "--expect-members", "2", "--settle", "1s", "--wait", "60s");
        assertThat(health[0]).as(String.join("\n", health)).isEqualTo("0");
        String[] lag = cli("lag", "--group", GROUP);
        assertThat(lag[0]).as(String.join("\n", lag)).isEqualTo("0");
        String[] export = cli("offsets", "export", "--group", GROUP);
        assertThat(export[1]).as(String.join("\n", export)).contains(TOPIC);
    }

    /** Exit code, stdout and stderr of the CLI run in this JVM against the servers' ZooKeeper. */
    private static String[] cli(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--zookeeper");
        all.add(servers.connectString());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            code = Main.run(all.toArray(String[]::new), o, e);
        }
        return new String[]{String.valueOf(code), out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)};
    }

    private static Properties zkGroupProperties(String id) {
        Properties p = servers.consumerProperties(GROUP, id, SESSION_MS);
        p.setProperty("offsets.storage", "kafka");
        p.setProperty("dual.commit.enabled", "true");
        return p;
    }

    private static LegacyConsumerProcess legacy(String id) {
        return LegacyConsumerProcess.builder(id).java(java8).zookeeperConnect(servers.connectString())
                .groupId(GROUP).consumerId(id).topic(TOPIC, 1)
                .property("auto.offset.reset", "smallest")
                .property("auto.commit.interval.ms", "100")
                .property("offsets.storage", "kafka")
                .property("dual.commit.enabled", "true")
                .property("zookeeper.session.timeout.ms", String.valueOf(SESSION_MS))
                .property("rebalance.backoff.ms", "1000")
                .property("rebalance.max.retries", "20")
                .start();
    }

    /** Every partition owned, by exactly the {@code live} consumers, split as 0.8's range assignor splits them. */
    private static void awaitOwnedBy(Set<String> live) {
        List<Integer> split = new ArrayList<>();
        for (int i = 0; i < live.size(); i++) {
            split.add(PARTITIONS / live.size() + (i < PARTITIONS % live.size() ? 1 : 0));
        }
        await("partitions owned by " + live + ", " + split).atMost(PollLoopProcess.WAIT).untilAsserted(() -> {
            Map<String, Integer> counts = new TreeMap<>();
            String path = "/consumers/" + GROUP + "/owners/" + TOPIC;
            List<String> partitions = servers.client().checkExists().forPath(path) == null ? List.of()
                    : servers.client().getChildren().forPath(path);
            for (String partition : partitions) {
                String thread = new String(servers.client().getData().forPath(path + "/" + partition), StandardCharsets.UTF_8);
                counts.merge(thread.substring(0, thread.lastIndexOf('-')), 1, Integer::sum);
            }
            assertThat(partitions).hasSize(PARTITIONS);
            assertThat(counts.keySet()).isEqualTo(new HashSet<>(live));
            assertThat(counts.values()).containsExactlyInAnyOrderElementsOf(split);
            assertThat(new HashSet<>(servers.client().getChildren().forPath("/consumers/" + GROUP + "/ids"))).isEqualTo(live);
        });
    }

    private static void awaitConsumed(int count, Object... consumers) {
        await(count + " distinct records consumed by the group").atMost(PollLoopProcess.WAIT).until(() -> {
            Set<String> seen = new HashSet<>();
            for (Object c : consumers) {
                if (c instanceof PollLoopProcess p) {
                    seen.addAll(p.records());
                } else {
                    ((LegacyConsumerProcess) c).messages().forEach(m -> seen.add(m.partition() + "@" + m.offset()));
                }
            }
            return seen.size() >= count;
        });
    }

    private static void awaitBothStoresAt(long offset) {
        await("ZooKeeper and Kafka offsets at " + offset).atMost(PollLoopProcess.WAIT).untilAsserted(() -> {
            Map<TopicPartition, OffsetAndMetadata> kafka = servers.broker().admin().listConsumerGroupOffsets(GROUP)
                    .partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
            for (int p = 0; p < PARTITIONS; p++) {
                byte[] zk = servers.client().getData().forPath("/consumers/" + GROUP + "/offsets/" + TOPIC + "/" + p);
                assertThat(Long.parseLong(new String(zk, StandardCharsets.UTF_8))).as("ZooKeeper offset of " + p).isEqualTo(offset);
                OffsetAndMetadata k = kafka.get(new TopicPartition(TOPIC, p));
                assertThat(k).as("Kafka offset of " + p).isNotNull();
                assertThat(k.offset()).as("Kafka offset of " + p).isEqualTo(offset);
            }
        });
    }

    private static void produce(int from) {
        List<io.zkgroups.embedded.EmbeddedKafka.Record> records = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            for (int i = from; i < from + PER_PARTITION; i++) {
                records.add(io.zkgroups.embedded.EmbeddedKafka.Record.to(p, "k", "v" + p + "-" + i));
            }
        }
        servers.broker().produce(TOPIC, records.toArray(io.zkgroups.embedded.EmbeddedKafka.Record[]::new));
    }
}
