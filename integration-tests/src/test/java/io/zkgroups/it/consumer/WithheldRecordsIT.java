package io.zkgroups.it.consumer;

import io.zkgroups.embedded.EmbeddedKafka;
import io.zkgroups.rebalancer.consumer.ZkGroupConsumer;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.BrokerInfo;
import io.zkgroups.registry.model.TopicRegistration;
import io.zkgroups.testing.ZooKeeperExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Records fetched past {@code zkgroups.max.uncommitted.records} are kept, not fetched again, and stay invisible to
 * the application until a commit makes room: a poll hands out exactly up to the cap, {@code position()} is the first
 * record not handed out, {@code currentLag} counts the kept ones, the next commit lets the following ones out in
 * order with no gap and no repeat, and a seek or a pause of the application moves or holds them as it would records
 * still on the broker.
 */
@Timeout(120)
class WithheldRecordsIT {

    private static final int RECORDS = 1_000;
    private static final int CAP = 100;
    private static final Duration WAIT = Duration.ofSeconds(30);

    @RegisterExtension
    static final ZooKeeperExtension zk = new ZooKeeperExtension();
    private static EmbeddedKafka kafka;
    private static ZkRegistry registry;

    @BeforeAll
    static void startBroker() {
        kafka = EmbeddedKafka.startKRaftMode(0, 0);
        registry = ZkRegistry.of(zk.newClient());
        registry.brokers().register(BrokerInfo.v1(kafka.brokerId(), "127.0.0.1", kafka.port(), -1,
                System.currentTimeMillis()));
    }

    @AfterAll
    static void stopBroker() {
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void recordsPastTheCapWaitInOrderForTheNextCommitAndFollowSeeksAndPauses() {
        String topic = "withheld";
        TopicPartition tp = new TopicPartition(topic, 0);
        kafka.createTopic(topic, 1);
        registry.topics().create(topic, TopicRegistration.v1(1, List.of(kafka.brokerId())));
        produce(topic);
        try (ZkGroupConsumer<String, String> consumer = new ZkGroupConsumer<>(props(topic),
                new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic));

            List<Long> first = pollUntilSome(consumer);
            assertThat(first).as("one poll of up to 1,000 records, cut at the cap of " + CAP)
                    .isEqualTo(range(0, CAP));
            assertThat(consumer.position(tp)).as("the first record not handed out").isEqualTo(CAP);
            assertThat(consumer.poll(Duration.ofMillis(300))).as("at the cap: nothing until a commit").isEmpty();
            assertThat(consumer.currentLag(tp).orElse(RECORDS - CAP))
                    .as("the records kept count as lag").isEqualTo(RECORDS - CAP);

            consumer.commitSync();
            assertThat(pollUntilSome(consumer)).as("after the commit: the next ones, no gap, no repeat")
                    .isEqualTo(range(CAP, 2 * CAP));
            assertThat(fetchedFromTheBroker(consumer)).as("the kept records were not fetched again")
                    .isEqualTo(RECORDS);

            consumer.commitSync();
            consumer.pause(Set.of(tp));
            assertThat(consumer.poll(Duration.ofMillis(300))).as("paused by the application, records kept or not")
                    .isEmpty();
            assertThat(consumer.paused()).containsExactly(tp);
            consumer.resume(Set.of(tp));
            assertThat(pollUntilSome(consumer)).as("resumed: from where it paused")
                    .isEqualTo(range(2 * CAP, 3 * CAP));

            consumer.seek(tp, 250);
            assertThat(consumer.position(tp)).as("a seek moves the position past the records kept").isEqualTo(250);
            consumer.commitSync();
            assertThat(pollUntilSome(consumer)).as("after the seek: from the new position, nothing kept before it")
                    .isEqualTo(range(250, 250 + CAP));

            consumer.seek(tp, 10);
            assertThat(pollUntilSome(consumer)).as("a seek back: up to the cap past the last commit (250)")
                    .isEqualTo(range(10, 250 + CAP));
            assertThat(consumer.position(tp)).isEqualTo(250 + CAP);
        }
    }

    /** Records the inner client took from the broker's answers, kept ones included. */
    private static double fetchedFromTheBroker(ZkGroupConsumer<String, String> consumer) {
        return consumer.metrics().entrySet().stream()
                .filter(m -> m.getKey().name().equals("records-consumed-total")
                        && m.getKey().group().equals("consumer-fetch-manager-metrics")
                        && !m.getKey().tags().containsKey("topic"))
                .mapToDouble(m -> ((Number) m.getValue().metricValue()).doubleValue())
                .sum();
    }

    /** Polls until a batch comes, which it returns as offsets, in order. */
    private static List<Long> pollUntilSome(ZkGroupConsumer<String, String> consumer) {
        List<Long> offsets = new ArrayList<>();
        await().atMost(WAIT).until(() -> {
            ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(100));
            for (ConsumerRecord<String, String> r : records) {
                offsets.add(r.offset());
            }
            return !offsets.isEmpty();
        });
        return offsets;
    }

    private static List<Long> range(long from, long to) {
        List<Long> offsets = new ArrayList<>();
        for (long o = from; o < to; o++) {
            offsets.add(o);
        }
        return offsets;
    }

    private static Properties props(String group) {
        Properties p = new Properties();
        p.setProperty("zookeeper.connect", zk.connectString());
        p.setProperty("group.id", group);
        p.setProperty("auto.offset.reset", "smallest");
        p.setProperty("enable.auto.commit", "false");
        p.setProperty("max.poll.records", String.valueOf(RECORDS));
        p.setProperty("zkgroups.max.uncommitted.records", String.valueOf(CAP));
        return p;
    }

    private static void produce(String topic) {
        Properties p = new Properties();
        p.setProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.setProperty(ProducerConfig.ACKS_CONFIG, "all");
        p.setProperty(ProducerConfig.LINGER_MS_CONFIG, "20");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < RECORDS; i++) {
                producer.send(new ProducerRecord<>(topic, 0, null, "record-" + i));
            }
            producer.flush();
        }
    }
}
