package io.zkgroups.it.consumer;

import io.zkgroups.it.support.LegacyConsumerProcess;
import io.zkgroups.rebalancer.consumer.ZkGroupConsumer;
import io.zkgroups.testing.ChildKafkaBroker;
import io.zkgroups.testing.Java8Runtime;
import io.zkgroups.testing.TestZooKeeper;
import io.zkgroups.tool.Main;
import org.apache.curator.framework.CuratorFramework;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What zkgroups does against one Kafka broker generation before 2.8: a real broker of that release in ZooKeeper mode
 * ({@link ChildKafkaBroker#zooKeeperMode}), run on Java 8 ({@link Java8Runtime}) in a child JVM and registered under a
 * chroot of a real ZooKeeper. A ZkGroupConsumer finds it through {@code /brokers/ids} and consumes with ZooKeeper and
 * with Kafka offset storage (dual commit); {@code offsets reset --to-datetime} finds offsets by time; {@code migrate
 * plan|execute|verify} copies a group's offsets to Kafka; the 0.8 wiki's ConsumerGroupExample runs on the bridge, on
 * Java 8. One subclass per generation; skipped, with the reason, where no Java 8 runtime can be had.
 */
@Tag("compat-matrix")
@Timeout(240)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class OldBrokerContract {

    private static final int PARTITIONS = 3;
    private static final int PER_PARTITION = 40;
    private TestZooKeeper zk;
    private CuratorFramework curator;
    private ChildKafkaBroker broker;
    private Path java8;

    /** The broker's release, as in docs/compatibility.md (e.g. 0.10.2). */
    abstract String release();

    /** Its servers/ module's classpath property prefix (e.g. kafka010 for kafka010.classpathFile). */
    abstract String module();

    @BeforeAll
    @Timeout(value = 25, unit = TimeUnit.MINUTES) // the first run makes the Java 8 runtime
    void startBroker() throws Exception {
        Java8Runtime.Found found = Java8Runtime.find();
        Assumptions.assumeTrue(found.available(), found::reason);
        java8 = found.java();
        zk = TestZooKeeper.start();
        curator = zk.newClient();
        broker = ChildKafkaBroker.zooKeeperMode(release(), module(), zookeeper(), java8);
    }

    @AfterAll
    void stopBroker() {
        if (broker != null) {
            broker.close();
        }
        if (curator != null) {
            curator.close();
        }
        if (zk != null) {
            zk.close();
        }
    }

    private String zookeeper() {
        return zk.connectString() + "/kafka" + module();
    }

    @Test
    void aZkGroupConsumerConsumesAndCommitsToZooKeeper() throws Exception {
        String topic = topic("zk");
        Properties p = consumerProperties("zk-store");
        p.setProperty("offsets.storage", "zookeeper");
        consumeAllAndCommit(topic, p);
        assertThat(zkOffsets("zk-store", topic)).as("ZooKeeper offsets").hasSize(PARTITIONS).containsOnly((long) PER_PARTITION);
        assertThat(kafkaOffsets("zk-store", topic)).as("no Kafka offsets").isEmpty();
    }

    @Test
    void aZkGroupConsumerConsumesAndCommitsToKafkaAndZooKeeperWithDualCommit() throws Exception {
        String topic = topic("dual");
        Properties p = consumerProperties("dual");
        p.setProperty("offsets.storage", "kafka");
        p.setProperty("dual.commit.enabled", "true");
        consumeAllAndCommit(topic, p);
        assertThat(zkOffsets("dual", topic)).as("ZooKeeper offsets").hasSize(PARTITIONS).containsOnly((long) PER_PARTITION);
        assertThat(kafkaOffsets("dual", topic)).as("Kafka offsets").hasSize(PARTITIONS).containsOnly((long) PER_PARTITION);
    }

    /** False where the broker is too old for kafka-clients 3.9's Admin listOffsets (Metadata v4: 0.11.0). */
    boolean adminListsOffsets() {
        return true;
    }

    @Test
    void offsetsResetToADatetimeFindsTheFirstRecordAtOrAfterIt() throws Exception {
        String topic = topic("time");
        broker.createTopic(topic, PARTITIONS);
        broker.produce(topic, PARTITIONS, PER_PARTITION);
        long between = System.currentTimeMillis() + 1;
        await("the clock passes " + between).atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(2))
                .until(() -> System.currentTimeMillis() > between);
        broker.produce(topic, PARTITIONS, PER_PARTITION, PER_PARTITION);
        setZkOffsets("by-time", topic, 0);
        String[] run = cli("offsets", "reset", "--group", "by-time", "--topic", topic, "--to-datetime",
                Instant.ofEpochMilli(between).toString(), "--execute");
        if (!adminListsOffsets()) {
            assertThat(run[0]).as(String.join("\n", run)).isEqualTo("14");
            assertThat(run[2]).as("a clear error").contains("is older than 0.11.0", "offsets reset")
                    .doesNotContain("\tat ");
            assertThat(zkOffsets("by-time", topic)).as("offsets left alone").containsExactly(0L, 1L, 2L);
            return;
        }
        assertThat(run[0]).as(String.join("\n", run)).isEqualTo("0");
        assertThat(zkOffsets("by-time", topic)).as("ZooKeeper offsets after the reset").hasSize(PARTITIONS).containsOnly((long) PER_PARTITION);
    }

    @Test
    void migratePlanExecuteVerifyCopiesZooKeeperOffsetsToKafka() throws Exception {
        String topic = topic("migrate");
        String group = "migrate";
        broker.createTopic(topic, PARTITIONS);
        broker.produce(topic, PARTITIONS, PER_PARTITION);
        setZkOffsets(group, topic, 10);
        String[] plan = cli("migrate", "plan", "--group", group);
        assertThat(plan[0]).as(String.join("\n", plan)).isEqualTo("0");
        assertThat(kafkaOffsets(group, topic)).as("a plan writes nothing").isEmpty();
        String[] execute = cli("migrate", "execute", "--group", group);
        assertThat(execute[0]).as(String.join("\n", execute)).isEqualTo("0");
        String[] verify = cli("migrate", "verify", "--group", group);
        assertThat(verify[0]).as(String.join("\n", verify)).isEqualTo("0");
        assertThat(kafkaOffsets(group, topic)).containsExactly(10L, 11L, 12L);
    }

    @Test
    void the08ConsumerGroupExampleRunsOnTheBridgeOnJava8() throws Exception {
        String topic = topic("bridge");
        broker.createTopic(topic, PARTITIONS);
        broker.produce(topic, PARTITIONS, PER_PARTITION);
        try (Kafka08BridgeIT.ExampleProcess example = Kafka08BridgeIT.ExampleProcess.start(java8, zookeeper(),
                "bridge", topic, 2, "c1")) {
            Duration wait = LegacyConsumerProcess.DEFAULT_TIMEOUT;
            example.output.requireLine(0, "READY"::equals, wait, "READY",
                    what -> new AssertionError(what + "\n" + example.stderrText()));
            await("all " + PARTITIONS * PER_PARTITION + " messages printed").atMost(wait)
                    .until(() -> example.messages().size() >= PARTITIONS * PER_PARTITION);
            assertThat(example.messages().stream().map(m -> m[3] + "@" + m[4]).distinct()).hasSize(PARTITIONS * PER_PARTITION);
            example.shutdown();
        }
    }

    private void consumeAllAndCommit(String topic, Properties p) throws Exception {
        broker.createTopic(topic, PARTITIONS);
        broker.produce(topic, PARTITIONS, PER_PARTITION);
        Set<String> seen = new HashSet<>();
        try (ZkGroupConsumer<String, String> consumer = new ZkGroupConsumer<>(p, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            await("every record of the " + release() + " broker").atMost(Duration.ofSeconds(60)).until(() -> {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    assertThat(r.value()).startsWith("v" + r.partition() + "-");
                    seen.add(r.partition() + "@" + r.offset());
                }
                return seen.size() == PARTITIONS * PER_PARTITION;
            });
            consumer.commitSync();
        }
    }

    private Properties consumerProperties(String group) {
        Properties p = new Properties();
        p.setProperty("zookeeper.connect", zookeeper()); // no bootstrap.servers: from /brokers/ids
        p.setProperty("group.id", group);
        p.setProperty("auto.offset.reset", "smallest");
        p.setProperty("auto.commit.enable", "false");
        return p;
    }

    private String topic(String use) {
        return module() + "-" + use;
    }

    private String chroot() {
        return "/kafka" + module();
    }

    /** Offsets {@code first}, {@code first + 1}, ... for the partitions, as a 0.8 consumer commits them. */
    private void setZkOffsets(String group, String topic, long first) throws Exception {
        for (int p = 0; p < PARTITIONS; p++) {
            curator.create().creatingParentsIfNeeded().forPath(chroot() + "/consumers/" + group + "/offsets/" + topic + "/" + p,
                    String.valueOf(first + p).getBytes(StandardCharsets.UTF_8));
        }
    }

    private List<Long> zkOffsets(String group, String topic) throws Exception {
        List<Long> offsets = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            String path = chroot() + "/consumers/" + group + "/offsets/" + topic + "/" + p;
            if (curator.checkExists().forPath(path) != null) {
                offsets.add(Long.parseLong(new String(curator.getData().forPath(path), StandardCharsets.UTF_8)));
            }
        }
        return offsets;
    }

    private List<Long> kafkaOffsets(String group, String topic) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> all = broker.admin().listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
        List<Long> offsets = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            OffsetAndMetadata o = all.get(new TopicPartition(topic, p));
            if (o != null) {
                offsets.add(o.offset());
            }
        }
        return offsets;
    }

    /** Exit code, stdout and stderr of the CLI run in this JVM with {@code --zookeeper} of this broker's chroot. */
    private String[] cli(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--zookeeper");
        all.add(zookeeper());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            code = Main.run(all.toArray(String[]::new), o, e);
        }
        return new String[]{String.valueOf(code), "--- stdout\n" + out.toString(StandardCharsets.UTF_8),
                "--- stderr\n" + err.toString(StandardCharsets.UTF_8)};
    }
}
