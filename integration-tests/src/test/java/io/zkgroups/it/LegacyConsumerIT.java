package io.zkgroups.it;

import io.zkgroups.embedded.EmbeddedKafka;
import io.zkgroups.embedded.EmbeddedKafka.Record;
import io.zkgroups.it.support.LegacyConsumerProcess;
import io.zkgroups.it.support.LegacyConsumerProcess.ConsumedMessage;
import io.zkgroups.testing.ZooKeeperExtension;
import org.apache.curator.framework.CuratorFramework;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The real Kafka 0.8.2.2 consumer, in child JVMs, against our test servers: what it writes to ZooKeeper
 * (the reference bytes our implementation must match) and that it fetches from a Kafka 3.9 broker.
 */
@Timeout(180)
class LegacyConsumerIT {

    private static final Duration WAIT = LegacyConsumerProcess.DEFAULT_TIMEOUT;
    /**
     * A 0.8.2.2 broker registration, byte for byte (docs/compatibility.md#broker-and-topic-registrations); nothing
     * listens on 9092.
     */
    private static final String FAKE_BROKER =
            "{\"jmx_port\":-1,\"timestamp\":\"1\",\"host\":\"127.0.0.1\",\"version\":1,\"port\":9092}";
    private static final String THREE_PARTITIONS = "{\"version\":1,\"partitions\":{\"0\":[0],\"1\":[0],\"2\":[0]}}";

    @RegisterExtension
    static final ZooKeeperExtension zk = new ZooKeeperExtension();
    private static CuratorFramework curator;

    @BeforeAll
    static void connect() {
        curator = zk.newClient();
    }

    @Test
    void twoLegacyConsumersRegisterIn082FormatAndSplitPartitionsByRange() throws Exception {
        // The fake broker lives as long as its own session, like a real one; the topic is persistent.
        CuratorFramework fakeBroker = zk.newClient();
        fakeBroker.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL)
                .forPath("/brokers/ids/0", utf8(FAKE_BROKER));
        curator.create().creatingParentsIfNeeded().forPath("/brokers/topics/T1", utf8(THREE_PARTITIONS));

        try (LegacyConsumerProcess c1 = noFetcherConsumer("c1").start();
             LegacyConsumerProcess c2 = noFetcherConsumer("c2").start()) {
            assertThat(c1.awaitReady(WAIT)).isEqualTo("g_c1");
            assertThat(c2.awaitReady(WAIT)).isEqualTo("g_c2");

            String registration = registrationWithAnyTimestamp(
                    "{\"version\":1,\"subscription\":{\"T1\":1},\"pattern\":\"static\",\"timestamp\":\"");
            assertThat(read("/consumers/g/ids/g_c1")).matches(registration);
            assertThat(read("/consumers/g/ids/g_c2")).matches(registration);

            // range over sorted thread ids [g_c1-0, g_c2-0] and partitions [0, 1, 2]: 2 + 1
            await("owners as range assigns them").atMost(WAIT).untilAsserted(() ->
                    assertThat(owners("/consumers/g/owners/T1"))
                            .isEqualTo(Map.of("0", "g_c1-0", "1", "g_c1-0", "2", "g_c2-0")));

            assertThat(c2.terminate()).as("exit code after SIGTERM").isEqualTo(143);
            assertThat(c2.output()).last().isEqualTo("CLOSED");
            // Let c1's rebalance finish first: a shutdown during a rebalance waits out all its retries.
            await("c1 owns everything after c2 left").atMost(WAIT).untilAsserted(() ->
                    assertThat(owners("/consumers/g/owners/T1"))
                            .isEqualTo(Map.of("0", "g_c1-0", "1", "g_c1-0", "2", "g_c1-0")));
            assertThat(c1.shutdown()).as("exit code after the shutdown command").isZero();
            assertThat(c1.output()).last().isEqualTo("CLOSED");
        }
        assertThat(curator.getChildren().forPath("/consumers/g/ids"))
                .as("both sessions were closed, so their ephemeral registrations are gone")
                .isEmpty();
    }

    @Test
    void wildcardConsumerRegistersItsRegexAndAKilledOneStaysRegisteredUntilItsSessionExpires() throws Exception {
        try (LegacyConsumerProcess consumer = LegacyConsumerProcess.builder("wildcard")
                .zookeeperConnect(zk.connectString())
                .groupId("w")
                .consumerId("k1")
                .property("zookeeper.session.timeout.ms", "3000")
                .whitelist("T1|T\\d", 2)
                .noFetcher()
                .start()) {
            assertThat(consumer.awaitReady(WAIT)).isEqualTo("w_k1");
            // The regex is a JSON key, JSON-escaped: T1|T\d in the bytes.
            assertThat(read("/consumers/w/ids/w_k1")).matches(registrationWithAnyTimestamp(
                    "{\"version\":1,\"subscription\":{\"T1|T\\\\d\":2},\"pattern\":\"white_list\",\"timestamp\":\""));

            assertThat(consumer.kill()).as("exit code after SIGKILL").isEqualTo(137);
            assertThat(consumer.output()).doesNotContain("CLOSED");
            assertThat(curator.checkExists().forPath("/consumers/w/ids/w_k1"))
                    .as("no shutdown ran: the registration outlives the process")
                    .isNotNull();
            await("the killed consumer's session expires").atMost(WAIT).until(() ->
                    curator.checkExists().forPath("/consumers/w/ids/w_k1") == null);
        }
    }

    @Test
    void legacyConsumerFetchesFromKafka39BrokerAndCommitsNextOffsetsToZooKeeper() throws Exception {
        try (EmbeddedKafka broker = EmbeddedKafka.startZooKeeperMode(zk.connectString() + "/kafka")) {
            broker.createTopic("T", 2);
            Record[] records = IntStream.range(0, 10)
                    .mapToObj(i -> Record.to(i % 2, "key-" + i, "value " + i))
                    .toArray(Record[]::new);
            List<RecordMetadata> sent = broker.produce("T", records);
            Map<Integer, Long> nextOffsets = sent.stream().collect(Collectors.toMap(
                    RecordMetadata::partition, m -> m.offset() + 1, Math::max, TreeMap::new));
            assertThat(nextOffsets).isEqualTo(Map.of(0, 5L, 1, 5L));

            try (LegacyConsumerProcess consumer = LegacyConsumerProcess.builder("fetching")
                    .zookeeperConnect(zk.connectString() + "/kafka")
                    .groupId("G")
                    .consumerId("f1")
                    .property("auto.offset.reset", "smallest")
                    .property("auto.commit.enable", "false")
                    .topic("T", 2)
                    .maxMessages(10)
                    .start()) {
                assertThat(consumer.awaitReady(WAIT)).isEqualTo("G_f1");
                consumer.awaitLine(0, "LIMIT 10"::equals, WAIT, "LIMIT 10");

                List<ConsumedMessage> messages = consumer.messages();
                assertThat(messages).hasSize(10).allSatisfy(m -> {
                    int i = Integer.parseInt(m.key().substring("key-".length()));
                    assertThat(m.topic()).isEqualTo("T");
                    assertThat(m.value()).isEqualTo("value " + i);
                    assertThat(m.partition()).isEqualTo(sent.get(i).partition());
                    assertThat(m.offset()).isEqualTo(sent.get(i).offset());
                });

                consumer.commit();
                assertThat(read("/kafka/consumers/G/offsets/T/0")).isEqualTo("5");
                assertThat(read("/kafka/consumers/G/offsets/T/1")).isEqualTo("5");
                assertThat(consumer.shutdown()).isZero();
            }
        }
    }

    private static LegacyConsumerProcess.Builder noFetcherConsumer(String consumerId) {
        return LegacyConsumerProcess.builder(consumerId)
                .zookeeperConnect(zk.connectString())
                .groupId("g")
                .consumerId(consumerId)
                // Conflicting claims while both join are normal; retry fast instead of 0.8's 2 s back-off.
                .property("rebalance.backoff.ms", "200")
                .property("rebalance.max.retries", "20")
                .property("auto.commit.enable", "false")
                .topic("T1", 1)
                .noFetcher();
    }

    /** A regex for {@code prefix}, then the decimal millis and {@code "}}. */
    private static String registrationWithAnyTimestamp(String prefix) {
        return Pattern.quote(prefix) + "\\d+\"}";
    }

    private static Map<String, String> owners(String path) throws Exception {
        Map<String, String> owners = new TreeMap<>();
        if (curator.checkExists().forPath(path) == null) {
            return owners;
        }
        for (String partition : curator.getChildren().forPath(path)) {
            owners.put(partition, read(path + "/" + partition));
        }
        return owners;
    }

    private static String read(String path) throws Exception {
        byte[] data = curator.getData().forPath(path);
        return data == null ? null : new String(data, StandardCharsets.UTF_8);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
