package io.zkgroups.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.zkgroups.embedded.EmbeddedKafka;
import io.zkgroups.embedded.EmbeddedKafka.Record;
import io.zkgroups.testing.ZooKeeperExtension;
import org.apache.curator.framework.CuratorFramework;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The in-process Kafka broker in both modes: what it writes to ZooKeeper, and that it serves records. */
@Timeout(120)
class EmbeddedKafkaIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static final ZooKeeperExtension zk = new ZooKeeperExtension();
    private static CuratorFramework curator;

    @BeforeAll
    static void connect() {
        curator = zk.newClient();
    }

    @Test
    void zooKeeperModeBrokerRegistersItselfAndItsTopicsUnderTheChroot() throws Exception {
        try (EmbeddedKafka broker = EmbeddedKafka.startZooKeeperMode(zk.connectString() + "/kafka-zk-mode", 7)) {
            JsonNode registration = readJson("/kafka-zk-mode/brokers/ids/7");
            assertThat(registration.path("host").asText()).isEqualTo("127.0.0.1");
            assertThat(registration.path("port").asInt()).isEqualTo(broker.port()).isPositive();
            assertThat(broker.brokerId()).isEqualTo(7);
            assertThat(broker.bootstrapServers()).isEqualTo("127.0.0.1:" + broker.port());

            broker.createTopic("orders", 3);

            JsonNode topic = readJson("/kafka-zk-mode/brokers/topics/orders");
            assertThat(topic.path("partitions"))
                    .isEqualTo(JSON.readTree("{\"0\":[7],\"1\":[7],\"2\":[7]}"));
        }
        assertThat(curator.checkExists().forPath("/kafka-zk-mode/brokers/ids/7"))
                .as("the broker's ephemeral registration is gone after close()")
                .isNull();
    }

    @Test
    void aStoppedKRaftNodeRestartsOnItsPortsWithItsRecords() {
        try (EmbeddedKafka broker = EmbeddedKafka.startKRaftMode()) {
            broker.createTopic("kept", 1);
            broker.produce("kept", Record.to(0, "k", "before"));
            broker.stop();
            broker.restart();
            broker.produce("kept", Record.to(0, "k", "after"));
            List<String> values = new ArrayList<>();
            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                    ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                    ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                    ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
                    new StringDeserializer(), new StringDeserializer())) {
                consumer.assign(List.of(new TopicPartition("kept", 0)));
                await("2 records consumed").atMost(Duration.ofSeconds(30)).until(() -> {
                    consumer.poll(Duration.ofMillis(100)).forEach(r -> values.add(r.value()));
                    return values.size() >= 2;
                });
            }
            assertThat(values).containsExactly("before", "after");
        }
    }

    @Test
    void kraftModeBrokerServesRecordsWithoutZooKeeper() {
        try (EmbeddedKafka broker = EmbeddedKafka.startKRaftMode()) {
            broker.createTopic("events", 2);
            Record[] records = IntStream.range(0, 10)
                    .mapToObj(i -> Record.to(i % 2, "k" + i, "v" + i))
                    .toArray(Record[]::new);
            broker.produce("events", records);

            List<ConsumerRecord<String, String>> consumed = new ArrayList<>();
            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                    ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                    ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                    ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
                    new StringDeserializer(), new StringDeserializer())) {
                consumer.assign(List.of(new TopicPartition("events", 0), new TopicPartition("events", 1)));
                await("10 records consumed").atMost(Duration.ofSeconds(30)).until(() -> {
                    consumer.poll(Duration.ofMillis(200)).forEach(consumed::add);
                    return consumed.size() >= 10;
                });
            }

            assertThat(consumed).hasSize(10);
            assertThat(consumed).extracting(ConsumerRecord::value)
                    .containsExactlyInAnyOrder(IntStream.range(0, 10).mapToObj(i -> "v" + i).toArray(String[]::new));
            assertThat(consumed).allSatisfy(r -> assertThat(r.partition()).isEqualTo(
                    Integer.parseInt(r.key().substring(1)) % 2));
        }
    }

    private static JsonNode readJson(String path) throws Exception {
        return JSON.readTree(new String(curator.getData().forPath(path), StandardCharsets.UTF_8));
    }
}
