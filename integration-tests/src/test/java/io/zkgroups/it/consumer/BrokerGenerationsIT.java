package io.zkgroups.it.consumer;

import io.zkgroups.it.support.LegacyConsumerProcess;
import io.zkgroups.rebalancer.consumer.ZkGroupConsumer;
import io.zkgroups.testing.ChildKafkaBroker;
import io.zkgroups.testing.ZooKeeperExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The broker generation the other suites do not run: a real Kafka 2.8.2 broker (ZooKeeper mode) in a child JVM,
 * registered under a chroot of a real ZooKeeper. A {@link ZkGroupConsumer} finds it through {@code /brokers/ids}
 * alone and consumes everything; the 0.8 wiki's ConsumerGroupExample runs on the bridge against it. (3.9 in ZooKeeper
 * mode: {@code ZkGroupConsumerIT}, {@code Kafka08BridgeIT}; 4.x in KRaft mode: {@code ZkGroupConsumerIT},
 * {@code Kafka4BridgeIT}.)
 */
@Timeout(180)
class BrokerGenerationsIT {

    private static final String CHROOT = "/kafka28";
    private static final int PARTITIONS = 4;
    private static final int PER_PARTITION = 50;

    @RegisterExtension
    static final ZooKeeperExtension zk = new ZooKeeperExtension();
    private static ChildKafkaBroker broker;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = ChildKafkaBroker.kafka2(zk.connectString() + CHROOT);
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void aZkGroupConsumerConsumesEverythingFromAKafka28BrokerFoundInZooKeeper() throws Exception {
        String topic = "gen28-consumer";
        broker.createTopic(topic, PARTITIONS);
        broker.produce(topic, PARTITIONS, PER_PARTITION);
        Properties p = new Properties();
        p.setProperty("zookeeper.connect", zk.connectString() + CHROOT); // no bootstrap.servers: from /brokers/ids
        p.setProperty("group.id", "gen28");
        p.setProperty("auto.offset.reset", "smallest");
        Set<String> seen = new HashSet<>();
        try (ZkGroupConsumer<String, String> consumer = new ZkGroupConsumer<>(p, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            await("every record of the 2.8 broker").atMost(Duration.ofSeconds(60)).until(() -> {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    assertThat(r.value()).startsWith("v" + r.partition() + "-");
                    seen.add(r.partition() + "@" + r.offset());
                }
                return seen.size() == PARTITIONS * PER_PARTITION;
            });
        }
    }

    @Test
    void the08ConsumerGroupExampleRunsOnTheBridgeAgainstAKafka28Broker() throws Exception {
        String topic = "gen28-bridge";
        broker.createTopic(topic, PARTITIONS);
        broker.produce(topic, PARTITIONS, PER_PARTITION);
        try (Kafka08BridgeIT.ExampleProcess example = Kafka08BridgeIT.ExampleProcess.start(zk.connectString() + CHROOT,
                "gen28-bridge", topic, 2, "c1")) {
            Duration wait = LegacyConsumerProcess.DEFAULT_TIMEOUT;
            example.output.requireLine(0, "READY"::equals, wait, "READY",
                    what -> new AssertionError(what + "\n" + example.stderrText()));
            await("all " + PARTITIONS * PER_PARTITION + " messages printed").atMost(wait)
                    .until(() -> example.messages().size() >= PARTITIONS * PER_PARTITION);
            assertThat(example.messages().stream().map(m -> m[3] + "@" + m[4]).distinct()).hasSize(PARTITIONS * PER_PARTITION);
            example.shutdown();
        }
    }
}
