package io.zkgroups.kafka4it;

import io.zkgroups.rebalancer.consumer.ZkGroupConsumer;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.CoordinationDecision;
import io.zkgroups.registry.model.Coordinator;
import io.zkgroups.testing.ChildKafkaBroker;
import io.zkgroups.testing.GroupWorker;
import io.zkgroups.testing.HoldMonitor;
import io.zkgroups.testing.SteadyProducer;
import io.zkgroups.testing.ZooKeeperExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The crossing of docs/cutover.md on a Kafka 4.4 broker in KRaft mode (nothing in /brokers: the members take
 * partitions from Kafka), with Kafka's classic protocol and with the {@code consumer} protocol of KIP-848, a producer
 * running throughout: every record delivered, never by a member that does not hold its partition, none twice.
 */
@Timeout(300)
class CoordinationCutoverKafka4IT {

    private static final int PARTITIONS = 6;
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

    @ParameterizedTest
    @ValueSource(strings = {"classic", "consumer"})
    void aLiveGroupCrossesToTheGroupCoordinatorOfAKafka44Broker(String protocol) throws Exception {
        String group = "cutover-kraft-" + protocol;
        String topic = group + "-t";
        kafka.createTopic(topic, PARTITIONS);
        HoldMonitor monitor = new HoldMonitor();
        Map<String, Set<Long>> delivered = new ConcurrentHashMap<>();
        List<TopicPartition> partitions = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            partitions.add(new TopicPartition(topic, p));
        }
        List<GroupWorker> members = new ArrayList<>();
        try (SteadyProducer producer = SteadyProducer.start(kafka.bootstrapServers(), topic, PARTITIONS, 5,
                Duration.ofMillis(50))) {
            for (int i = 1; i <= 3; i++) {
                members.add(member(group, "m" + i, protocol, topic, monitor, delivered));
            }
            long started = System.nanoTime();
            await().atMost(Duration.ofSeconds(60)).until(() -> monitor.allFetchedAgainAfter(started, partitions) > 0);

            long switched = System.nanoTime();
            ZkRegistry.of(zk.newClient()).coordination().decide(group,
                    new CoordinationDecision(Coordinator.KAFKA, System.currentTimeMillis()));
            await().atMost(Duration.ofSeconds(120)).until(() -> members.stream()
                    .allMatch(m -> ((ZkGroupConsumer<?, ?>) m.consumer).coordinator().equals("kafka"))
                    && monitor.allFetchedAgainAfter(switched, partitions) > 0);
            System.out.printf("cutover pause on Kafka 4.4 (%s protocol): %d ms%n", protocol,
                    TimeUnit.NANOSECONDS.toMillis(monitor.allFetchedAgainAfter(switched, partitions) - switched));
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
                ConsumerGroupDescription described = admin.describeConsumerGroups(List.of(group)).describedGroups()
                        .get(group).get(30, TimeUnit.SECONDS);
                assertThat(described.type()).isEqualTo(GroupType.parse(protocol));
            }
            // Kafka's assignor spreads the partitions over the three: each move goes through the owner znodes
            await().atMost(Duration.ofSeconds(120)).until(() -> members.stream()
                    .allMatch(m -> !monitor.heldBy(m.name).isEmpty()));

            long[] produced = producer.stop();
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                for (int p = 0; p < PARTITIONS; p++) {
                    if (delivered.getOrDefault(topic + "-" + p, Set.of()).size() < produced[p]) {
                        return false;
                    }
                }
                return true;
            });
            for (GroupWorker m : members) {
                m.close();
            }
            assertThat(monitor.violations()).isEmpty();
            assertThat(monitor.redeliveries()).isZero();
        }
    }

    private static GroupWorker member(String group, String name, String protocol, String topic, HoldMonitor monitor,
                                      Map<String, Set<Long>> delivered) {
        Properties p = new Properties();
        p.setProperty("zookeeper.connect", zk.connectString());
        p.setProperty("bootstrap.servers", kafka.bootstrapServers()); // partitions from Kafka: nothing in /brokers
        p.setProperty("group.id", group);
        p.setProperty("consumer.id", name);
        p.setProperty("auto.offset.reset", "smallest");
        p.setProperty("auto.commit.interval.ms", "100");
        p.setProperty("offsets.storage", "kafka");
        p.setProperty("dual.commit.enabled", "true");
        p.setProperty("zkgroups.advertise.capabilities", "true");
        p.setProperty("zkgroups.cutover.group.protocol", protocol);
        return new GroupWorker(name, new ZkGroupConsumer<>(p, new StringDeserializer(), new StringDeserializer()),
                List.of(topic), monitor, (tp, offset) -> delivered.computeIfAbsent(tp.toString(),
                k -> ConcurrentHashMap.newKeySet()).add(offset));
    }
}
