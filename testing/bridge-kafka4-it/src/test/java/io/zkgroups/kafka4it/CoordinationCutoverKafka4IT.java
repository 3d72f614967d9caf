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
import org.apache.kafka.clients.consumer.KafkaConsumer;
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
 * The journey of docs/cutover.md on a Kafka 4.4 broker in KRaft mode (nothing in /brokers: the members take
 * partitions from Kafka), with Kafka's classic protocol and with the {@code consumer} protocol of KIP-848, a producer
 * running throughout: a 4-member group crosses, comes back to ZooKeeper, crosses again, and is rolled to plain
 * {@code KafkaConsumer}s one member at a time. Every record is delivered, never by a member that does not hold its
 * partition, none twice.
 */
@Timeout(600)
class CoordinationCutoverKafka4IT {

    private static final int PARTITIONS = 6;
    private static final int MEMBERS = 4;
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
    void aLiveGroupCrossesComesBackCrossesAgainAndIsRolledToPlainKafkaConsumers(String protocol) throws Exception {
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
        ZkRegistry registry = ZkRegistry.of(zk.newClient());
        try (SteadyProducer producer = SteadyProducer.start(kafka.bootstrapServers(), topic, PARTITIONS, 5,
                Duration.ofMillis(50))) {
            for (int i = 1; i <= MEMBERS; i++) {
                members.add(member(group, "m" + i, protocol, topic, monitor, delivered));
            }
            long started = System.nanoTime();
            await().atMost(Duration.ofSeconds(60)).until(() -> monitor.allFetchedAgainAfter(started, partitions) > 0);

            decide(registry, group, Coordinator.KAFKA, members, monitor, partitions, "the crossing", protocol);
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
                ConsumerGroupDescription described = admin.describeConsumerGroups(List.of(group)).describedGroups()
                        .get(group).get(30, TimeUnit.SECONDS);
                assertThat(described.type()).isEqualTo(GroupType.parse(protocol));
                assertThat(described.members()).hasSize(MEMBERS);
            }
            // Kafka's assignor spreads the partitions over the four: each move goes through the owner znodes
            await().atMost(Duration.ofSeconds(120)).until(() -> members.stream()
                    .allMatch(m -> !monitor.heldBy(m.name).isEmpty()));

            decide(registry, group, Coordinator.ZOOKEEPER, members, monitor, partitions, "the rollback", protocol);
            decide(registry, group, Coordinator.KAFKA, members, monitor, partitions, "the second crossing", protocol);

            // the roll: each zkgroups member in turn replaced by a plain KafkaConsumer of the same protocol
            for (int i = 0; i < MEMBERS; i++) {
                long replaced = System.nanoTime();
                members.get(i).close();
                members.set(i, plainMember(group, "plain" + (i + 1), protocol, topic, monitor, delivered));
                // the consumer protocol moves only the partitions of the member that left
                await().atMost(Duration.ofSeconds(120)).until(() -> monitor.allDeliveredByTheirHolderAfter(replaced, partitions));
            }

            long[] produced = producer.stop();
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                for (int p = 0; p < PARTITIONS; p++) {
                    if (delivered.getOrDefault(topic + "-" + p, Set.of()).size() < produced[p]) {
                        return false;
                    }
                }
                return true;
            });
        } finally {
            for (GroupWorker m : members) {
                m.close();
            }
        }
        assertThat(monitor.violations()).isEmpty();
        assertThat(monitor.redeliveries()).isZero();
    }

    /** Records the decision, then waits until every member follows it and every partition is fetched again. */
    private static void decide(ZkRegistry registry, String group, Coordinator to, List<GroupWorker> members,
                               HoldMonitor monitor, List<TopicPartition> partitions, String what, String protocol) {
        long switched = System.nanoTime();
        registry.coordination().decide(group, new CoordinationDecision(to, System.currentTimeMillis()));
        await().atMost(Duration.ofSeconds(120)).until(() -> members.stream()
                .allMatch(m -> ((ZkGroupConsumer<?, ?>) m.consumer).coordinator().equals(to.label()))
                && monitor.allFetchedAgainAfter(switched, partitions) > 0);
        System.out.printf("%s on Kafka 4.4 (%s protocol): every partition fetched again %d ms after the decision%n",
                what, protocol, TimeUnit.NANOSECONDS.toMillis(monitor.allFetchedAgainAfter(switched, partitions) - switched));
    }

    private static GroupWorker plainMember(String group, String name, String protocol, String topic, HoldMonitor monitor,
                                           Map<String, Set<Long>> delivered) {
        Properties p = new Properties();
        p.setProperty("bootstrap.servers", kafka.bootstrapServers());
        p.setProperty("group.id", group);
        p.setProperty("client.id", name);
        p.setProperty("group.protocol", protocol);
        p.setProperty("auto.offset.reset", "earliest");
        p.setProperty("auto.commit.interval.ms", "100");
        return new GroupWorker(name, new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer()),
                List.of(topic), monitor, (tp, offset) -> delivered.computeIfAbsent(tp.toString(),
                k -> ConcurrentHashMap.newKeySet()).add(offset));
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
