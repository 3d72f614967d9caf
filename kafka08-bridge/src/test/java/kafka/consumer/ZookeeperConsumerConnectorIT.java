package kafka.consumer;

import io.zkgroups.testing.ZooKeeperExtension;
import kafka.common.ConsumerRebalanceFailedException;
import kafka.common.MessageStreamsExistException;
import kafka.javaapi.consumer.ConsumerConnector;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The connector's group side against a real ZooKeeper, with a broker registered in 0.8.2.2's format where nothing
 * listens (as 0.8.2.2's own tests do): it registers and claims exactly like 0.8.2.2, while no message ever arrives.
 * Fetching end to end, with real brokers, is in integration-tests (Kafka08BridgeIT) and kafka08-bridge-kafka4-it.
 */
@Timeout(60)
class ZookeeperConsumerConnectorIT {

    private static final String FAKE_BROKER =
            "{\"jmx_port\":-1,\"timestamp\":\"1\",\"host\":\"127.0.0.1\",\"version\":1,\"port\":1}";
    private static final String FOUR_PARTITIONS = "{\"version\":1,\"partitions\":{\"0\":[0],\"1\":[0],\"2\":[0],\"3\":[0]}}";

    @RegisterExtension
    static final ZooKeeperExtension zk = new ZooKeeperExtension();
    private static CuratorFramework curator;
    private final List<ConsumerConnector> connectors = new ArrayList<>();

    @BeforeAll
    static void brokerAndTopics() throws Exception {
        curator = zk.newClient();
        curator.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath("/brokers/ids/0", utf8(FAKE_BROKER));
        for (String topic : List.of("orders", "payments", "audit")) {
            curator.create().creatingParentsIfNeeded().forPath("/brokers/topics/" + topic, utf8(FOUR_PARTITIONS));
        }
    }

    @AfterEach
    void shutDown() {
        connectors.forEach(ConsumerConnector::shutdown);
    }

    @Test
    void streamsAreConsumerThreadsRegisteredAndAssignedExactlyAs082() throws Exception {
        ConsumerConnector connector = connector("static", "c1", Map.of());
        Map<String, List<KafkaStream<byte[], byte[]>>> streams = connector.createMessageStreams(Map.of("orders", 2));

        assertThat(streams).containsOnlyKeys("orders");
        assertThat(streams.get("orders")).hasSize(2);
        assertThat(read("/consumers/static/ids/static_c1"))
                .startsWith("{\"version\":1,\"subscription\":{\"orders\":2},\"pattern\":\"static\",\"timestamp\":\"");
        assertThat(owners("static", "orders")).as("range over static_c1-0, static_c1-1")
                .isEqualTo(Map.of("0", "static_c1-0", "1", "static_c1-0", "2", "static_c1-1", "3", "static_c1-1"));
    }

    @Test
    void aFilterRegistersItsNormalisedRegexAndTakesTheTopicsItMatches() throws Exception {
        ConsumerConnector connector = connector("filtered", "c1", Map.of());
        List<KafkaStream<byte[], byte[]>> streams = connector.createMessageStreamsByFilter(new Whitelist("orders, pay.*"), 3);

        assertThat(streams).hasSize(3);
        assertThat(read("/consumers/filtered/ids/filtered_c1"))
                .startsWith("{\"version\":1,\"subscription\":{\"orders|pay.*\":3},\"pattern\":\"white_list\",");
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            assertThat(owners("filtered", "orders")).hasSize(4);
            assertThat(owners("filtered", "payments")).hasSize(4);
        });
        assertThat(curator.checkExists().forPath("/consumers/filtered/owners/audit")).isNull();
    }

    @Test
    void everyTopicNeedsAStream() {
        ConsumerConnector connector = connector("none", "c1", Map.of());
        assertThatThrownBy(() -> connector.createMessageStreams(Map.of("orders", 0)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("orders").hasMessageContaining("at least 1");
    }

    @Test
    void streamsAreCreatedOncePerConnector() {
        ConsumerConnector connector = connector("once", "c1", Map.of());
        connector.createMessageStreams(Map.of("orders", 1));
        assertThatThrownBy(() -> connector.createMessageStreamsByFilter(new Whitelist("orders")))
                .isInstanceOf(MessageStreamsExistException.class)
                .hasMessageContaining("at most once");
    }

    @Test
    void consumerTimeoutMsEndsAWaitWithAConsumerTimeoutException() {
        ConsumerConnector connector = connector("timeout", "c1", Map.of("consumer.timeout.ms", "200"));
        ConsumerIterator<byte[], byte[]> it = connector.createMessageStreams(Map.of("orders", 1)).get("orders").get(0).iterator();
        long start = System.nanoTime();
        assertThatThrownBy(it::hasNext).isInstanceOf(ConsumerTimeoutException.class);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isGreaterThanOrEqualTo(190);
        assertThatThrownBy(it::hasNext).as("the iterator can be used again").isInstanceOf(ConsumerTimeoutException.class);
    }

    @Test
    void shutdownEndsEveryStreamAndLeavesTheGroup() throws Exception {
        ConsumerConnector connector = connector("leaving", "c1", Map.of());
        List<KafkaStream<byte[], byte[]>> streams = connector.createMessageStreams(Map.of("orders", 2)).get("orders");
        CompletableFuture<Boolean> blocked = CompletableFuture.supplyAsync(() -> streams.get(0).iterator().hasNext());

        connector.shutdown();
        connector.shutdown(); // idempotent

        assertThat(blocked.get(10, TimeUnit.SECONDS)).as("a thread blocked in hasNext").isFalse();
        assertThat(streams.get(1).iterator().hasNext()).isFalse();
        assertThatThrownBy(() -> streams.get(1).iterator().next()).isInstanceOf(NoSuchElementException.class);
        assertThat(curator.checkExists().forPath("/consumers/leaving/ids/leaving_c1")).isNull();
        assertThat(owners("leaving", "orders")).isEmpty();
        assertThatThrownBy(connector::commitOffsets).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("shut down");
    }

    @Test
    void aMemberTheGroupRefusesGetsAConsumerRebalanceFailedException() {
        connector("full", "c1", Map.of("zkgroups.max.group.size", "1")).createMessageStreams(Map.of("orders", 1));
        ConsumerConnector second = connector("full", "c2", Map.of("zkgroups.max.group.size", "1"));
        assertThatThrownBy(() -> second.createMessageStreams(Map.of("orders", 1)))
                .isInstanceOf(ConsumerRebalanceFailedException.class)
                .hasMessageContaining("full_c2").hasMessageContaining("is full");
    }

    @Test
    void aBadConfigurationFailsNamingThePropertyAndTheValue() {
        Properties noGroup = new Properties();
        noGroup.setProperty("zookeeper.connect", zk.connectString());
        assertThatThrownBy(() -> new ConsumerConfig(noGroup)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("group.id");

        Properties badCommit = properties("bad", "c1", Map.of("auto.commit.enable", "yes"));
        assertThatThrownBy(() -> new ConsumerConfig(badCommit)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("auto.commit.enable").hasMessageContaining("yes");

        Properties badTimeout = properties("bad", "c1", Map.of("consumer.timeout.ms", "soon"));
        assertThatThrownBy(() -> new ConsumerConfig(badTimeout)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("consumer.timeout.ms").hasMessageContaining("soon");
    }

    private ConsumerConnector connector(String group, String consumerId, Map<String, String> extra) {
        ConsumerConnector connector = Consumer.createJavaConsumerConnector(new ConsumerConfig(properties(group, consumerId, extra)));
        connectors.add(connector);
        return connector;
    }

    private static Properties properties(String group, String consumerId, Map<String, String> extra) {
        Properties props = new Properties();
        props.setProperty("zookeeper.connect", zk.connectString());
        props.setProperty("group.id", group);
        props.setProperty("consumer.id", consumerId);
        props.setProperty("rebalance.backoff.ms", "200");
        extra.forEach(props::setProperty);
        return props;
    }

    private static Map<String, String> owners(String group, String topic) throws Exception {
        Map<String, String> owners = new TreeMap<>();
        String path = "/consumers/" + group + "/owners/" + topic;
        if (curator.checkExists().forPath(path) != null) {
            for (String partition : curator.getChildren().forPath(path)) {
                owners.put(partition, read(path + "/" + partition));
            }
        }
        return owners;
    }

    private static String read(String path) throws Exception {
        return new String(curator.getData().forPath(path), StandardCharsets.UTF_8);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
