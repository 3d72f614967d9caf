package io.zkgroups.kafka4it;

import io.zkgroups.rebalancer.consumer.ZkGroupConsumer;
import io.zkgroups.testing.ChildJvm;
import io.zkgroups.testing.ChildKafkaBroker;
import io.zkgroups.testing.ChildOutput;
import io.zkgroups.testing.ZooKeeperExtension;
import org.apache.curator.framework.CuratorFramework;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.File;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The 0.8 wiki's consumer group example, compiled against kafka_2.10:0.8.2.2 and run unchanged on the kafka08-bridge,
 * consumes from a Kafka 4.4 broker in KRaft mode — which a 0.8.2.2 consumer cannot talk to at all (Kafka 4.0 removed
 * the request versions it speaks). The group lives in ZooKeeper as before; only the brokers' address is new, given
 * outside the program as {@code -Dzkgroups.consumer.bootstrap.servers} (a KRaft broker registers nothing in ZooKeeper).
 * The same for {@code ZkGroupConsumer} itself: two members of one ZooKeeper group share a Kafka 4.4 topic.
 */
@Timeout(180)
class Kafka4BridgeIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    @RegisterExtension
    static final ZooKeeperExtension zk = new ZooKeeperExtension();
    private static ChildKafkaBroker kafka;

    @BeforeAll
    static void startBroker() throws Exception {
        kafka = ChildKafkaBroker.kafka4();
    }

    @AfterAll
    static void stopBroker() {
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void theConsumerGroupExampleConsumesFromAKafka44BrokerInKRaftMode() throws Exception {
        String group = "kafka4-example";
        String topic = group + "-t";
        int partitions = 6;
        kafka.createTopic(topic, partitions);
        kafka.produce(topic, partitions, 0, 40);
        CuratorFramework curator = zk.newClient();
        assertThat(kafka.metadataVersion()).startsWith("4.4-");

        ChildJvm process = startExample(group, topic, 3, "c1");
        ChildOutput out = process.output();
        try {
            out.requireLine(0, "READY"::equals, WAIT, "READY", this::failure);
            await("the 240 records produced before").atMost(WAIT).until(() -> messages(out).size() >= 240);
            kafka.produce(topic, partitions, 40, 40);
            await("and the 240 produced while it runs").atMost(WAIT).until(() -> messages(out).size() >= 480);

            List<String[]> messages = messages(out);
            assertThat(messages).hasSize(480);
            assertThat(messages.stream().map(m -> m[3] + "@" + m[4]).distinct()).as("each record once").hasSize(480);
            assertThat(messages).allSatisfy(m -> assertThat(m[6]).startsWith("v" + m[3] + "-"));
            Map<Integer, Set<String>> streams = new TreeMap<>();
            messages.forEach(m -> streams.computeIfAbsent(Integer.parseInt(m[3]), p -> new HashSet<>()).add(m[1]));
            assertThat(streams).as("each partition on the stream of its consumer thread (range: 2 per thread)")
                    .isEqualTo(Map.of(0, Set.of("0"), 1, Set.of("0"), 2, Set.of("1"), 3, Set.of("1"), 4, Set.of("2"), 5, Set.of("2")));
            assertThat(curator.checkExists().forPath("/brokers/ids")).as("a KRaft broker is not in ZooKeeper").isNull();

            process.send("shutdown");
            process.closeStdin();
            out.requireLine(0, "CLOSED"::equals, WAIT, "CLOSED", this::failure);
            assertThat(process.process().waitFor()).isZero();
        } finally {
            process.process().destroyForcibly();
        }
        for (int p = 0; p < partitions; p++) {
            String offset = new String(curator.getData().forPath("/consumers/" + group + "/offsets/" + topic + "/" + p),
                    StandardCharsets.UTF_8);
            assertThat(offset).as("offset of partition %d committed in ZooKeeper at shutdown", p).isEqualTo("80");
        }
    }

    @Test
    void zkGroupConsumersCoordinatedInZooKeeperConsumeFromAKafka44BrokerInKRaftMode() throws Exception {
        String group = "kafka4-zkgroups";
        String topic = group + "-t";
        int partitions = 4;
        kafka.createTopic(topic, partitions);
        Properties p = new Properties();
        p.setProperty("zookeeper.connect", zk.connectString());
        p.setProperty("group.id", group);
        p.setProperty("bootstrap.servers", kafka.bootstrapServers()); // partitions from Kafka: nothing in /brokers
        p.setProperty("auto.offset.reset", "smallest");
        p.setProperty("auto.commit.enable", "false");
        Map<String, String> consumedBy = new HashMap<>(); // "partition@offset" -> consumer
        List<String> repeats = new ArrayList<>();
        try (ZkGroupConsumer<String, String> a = new ZkGroupConsumer<>(p, new StringDeserializer(), new StringDeserializer());
             ZkGroupConsumer<String, String> b = new ZkGroupConsumer<>(p, new StringDeserializer(), new StringDeserializer())) {
            a.subscribe(List.of(topic));
            b.subscribe(List.of(topic));
            await("both members own two partitions (range)").atMost(WAIT).until(() -> {
                pollInto(a, "a", consumedBy, repeats);
                pollInto(b, "b", consumedBy, repeats);
                return a.assignment().size() == 2 && b.assignment().size() == 2;
            });
            kafka.produce(topic, partitions, 0, 30);
            await("the 120 records produced").atMost(WAIT).until(() -> {
                pollInto(a, "a", consumedBy, repeats);
                pollInto(b, "b", consumedBy, repeats);
                return consumedBy.size() >= 120;
            });
            a.commitSync();
            b.commitSync();

            assertThat(repeats).as("records handed out twice").isEmpty();
            assertThat(consumedBy).hasSize(120);
            for (int partition = 0; partition < partitions; partition++) {
                String owner = consumedBy.get(partition + "@0");
                for (int offset = 0; offset < 30; offset++) {
                    assertThat(consumedBy.get(partition + "@" + offset)).as("partition %d consumed by its owner", partition)
                            .isEqualTo(owner);
                }
            }
            CuratorFramework curator = zk.newClient();
            assertThat(curator.getChildren().forPath("/consumers/" + group + "/ids")).hasSize(2);
            assertThat(curator.getChildren().forPath("/consumers/" + group + "/owners/" + topic))
                    .containsExactlyInAnyOrder("0", "1", "2", "3");
            for (int partition = 0; partition < partitions; partition++) {
                assertThat(new String(curator.getData().forPath("/consumers/" + group + "/offsets/" + topic + "/" + partition),
                        StandardCharsets.UTF_8)).as("offset of partition %d in ZooKeeper", partition).isEqualTo("30");
            }
            assertThat(curator.checkExists().forPath("/brokers/ids")).as("a KRaft broker is not in ZooKeeper").isNull();
        }
    }

    private static void pollInto(ZkGroupConsumer<String, String> consumer, String name, Map<String, String> consumedBy,
                                 List<String> repeats) {
        for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(50))) {
            String key = r.partition() + "@" + r.offset();
            if (consumedBy.putIfAbsent(key, name) != null) {
                repeats.add(key + " by " + name);
            }
        }
    }

    private ChildJvm startExample(String group, String topic, int threads, String consumerId) throws IOException {
        Path stderr = Path.of(System.getProperty("kafka4.workDir", "target/kafka4"), group + "-stderr.log");
        return ChildJvm.builder("kafka4-example-" + consumerId, "io.zkgroups.legacy.ConsumerGroupExample")
                .classpath(bridgeClasspath()).heapMb(128)
                .jvmOptions(List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                        "-Dzkgroups.consumer.bootstrap.servers=" + kafka.bootstrapServers(),
                        "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-Dorg.slf4j.simpleLogger.log.io.zkgroups=info"))
                .args(List.of(zk.connectString(), group, topic, String.valueOf(threads), consumerId))
                .stderrTo(stderr)
                .start();
    }

    private AssertionError failure(String what) {
        return new AssertionError(what);
    }

    /** MSG lines split into: MSG stream topic partition offset key value. */
    private static List<String[]> messages(ChildOutput out) {
        return out.lines().stream().filter(l -> l.startsWith("MSG ")).map(l -> l.split(" ", 7)).toList();
    }

    /** The example's classes (compiled against 0.8.2.2), the bridge and its dependencies, and a log binding. */
    private static String bridgeClasspath() throws IOException {
        String bridgeDependencies = Files.readString(Path.of(System.getProperty("bridge.classpathFile")), StandardCharsets.UTF_8).trim();
        String slf4jSimple;
        try {
            slf4jSimple = Path.of(org.slf4j.simple.SimpleLogger.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        return String.join(File.pathSeparator, System.getProperty("legacy.driver.classes"), System.getProperty("bridge.classes"),
                bridgeDependencies, slf4jSimple);
    }
}
