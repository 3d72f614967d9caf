package io.zkgroups.it.consumer;

import io.zkgroups.embedded.EmbeddedKafka;
import io.zkgroups.it.support.KafkaOnZooKeeperExtension;
import io.zkgroups.rebalancer.cutover.KafkaGroupMode;
import io.zkgroups.registry.Time;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.testing.TestZooKeeper;
import org.apache.curator.framework.CuratorFramework;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A member on Kafka's group coordinator keeps its partitions' owner znodes as fences (docs/cutover.md). They are
 * ephemeral: when its ZooKeeper session ends they are gone, so it shows its partitions to {@code onPartitionsLost},
 * and fetches each again only once it holds its owner znode in the new session — not while someone else (a 0.8.2.2
 * consumer started meanwhile) has claimed it — from the offset committed last.
 */
@Timeout(120)
class KafkaGroupFenceIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    @RegisterExtension
    static final KafkaOnZooKeeperExtension servers = new KafkaOnZooKeeperExtension();

    @Test
    void fencesLostWithTheSessionAreTakenAgainAndAClaimMadeMeanwhileHoldsItsPartitionBack() throws Exception {
        String group = "fence-session";
        String topic = group + "-t";
        servers.broker().createTopic(topic, 2);
        produce(topic, 0, 10);
        produce(topic, 1, 10);
        String owner1 = "/consumers/" + group + "/owners/" + topic + "/1";
        CuratorFramework memberZk = servers.newClient();
        CuratorFramework other = servers.newClient();
        Events events = new Events();

        try (KafkaGroupMode<String, String> member = new KafkaGroupMode<>(kafkaConsumer(group), ZkRegistry.of(memberZk),
                group, new ThreadId(new ConsumerId(group + "_m1"), 0), false, Duration.ofSeconds(1),
                Duration.ofSeconds(30), Duration.ofMinutes(5), Time.SYSTEM)) {
            member.subscribe(List.of(topic), events);
            List<String> delivered = new ArrayList<>();
            await("both partitions fetched").atMost(WAIT).until(() -> {
                member.poll(Duration.ofMillis(100)).forEach(r -> delivered.add(r.partition() + ":" + r.offset()));
                return delivered.size() >= 20;
            });
            member.commitSync(Duration.ofSeconds(30));
            long firstSession = memberZk.getZookeeperClient().getZooKeeper().getSessionId();
            assertThat(ephemeralOwner(memberZk, owner1)).isEqualTo(firstSession);

            TestZooKeeper.expireSession(memberZk);
            await("the member's client has a new session").atMost(WAIT).until(() ->
                    memberZk.getZookeeperClient().isConnected()
                            && memberZk.getZookeeperClient().getZooKeeper().getSessionId() != firstSession);
            assertThat(memberZk.checkExists().forPath(owner1)).as("the fence went with the session").isNull();
            // someone else claims partition 1 before the member looks again
            other.create().withMode(CreateMode.EPHEMERAL).forPath(owner1, "a-legacy-consumer-0".getBytes(StandardCharsets.UTF_8));
            produce(topic, 0, 5);
            produce(topic, 1, 5);

            List<String> after = new ArrayList<>();
            await("partition 0 fetched again in the new session").atMost(WAIT).until(() -> {
                member.poll(Duration.ofMillis(100)).forEach(r -> after.add(r.partition() + ":" + r.offset()));
                return after.size() >= 5;
            });
            assertThat(events.lost).as("both partitions lost with the session")
                    .containsExactlyInAnyOrder(new TopicPartition(topic, 0), new TopicPartition(topic, 1));
            assertThat(after).as("from the committed offset, only the partition whose fence it holds")
                    .containsExactly("0:10", "0:11", "0:12", "0:13", "0:14");
            assertThat(member.assignment()).containsExactly(new TopicPartition(topic, 0));
            long newSession = memberZk.getZookeeperClient().getZooKeeper().getSessionId();
            assertThat(ephemeralOwner(memberZk, "/consumers/" + group + "/owners/" + topic + "/0")).isEqualTo(newSession);

            other.delete().forPath(owner1); // the claim is let go
            await("partition 1 fetched once its fence is the member's").atMost(WAIT).until(() -> {
                member.poll(Duration.ofMillis(100)).forEach(r -> after.add(r.partition() + ":" + r.offset()));
                return after.size() >= 10;
            });
            assertThat(after.subList(5, after.size())).containsExactly("1:10", "1:11", "1:12", "1:13", "1:14");
            assertThat(ephemeralOwner(memberZk, owner1)).isEqualTo(newSession);
            assertThat(events.assigned).as("each partition shown again once fenced")
                    .containsExactly(Set.of(new TopicPartition(topic, 0), new TopicPartition(topic, 1)),
                            Set.of(new TopicPartition(topic, 0)), Set.of(new TopicPartition(topic, 1)));
        } finally {
            other.close();
            memberZk.close();
        }
    }

    /**
     * An application that stops polling is dropped from Kafka's group after {@code max.poll.interval.ms}; the member's
     * watchdog then lets go of its owner znodes, so the member Kafka gives its partition to fetches it (from the
     * offset committed last) without waiting for the stalled one. Polling again, the stalled member is shown the
     * partition as lost.
     */
    @Test
    void aMemberWhoseApplicationStopsPollingLetsGoOfItsFencesAfterMaxPollInterval() throws Exception {
        String group = "fence-stalled";
        String topic = group + "-t";
        servers.broker().createTopic(topic, 2);
        produce(topic, 0, 10);
        produce(topic, 1, 10);
        CuratorFramework zkA = servers.newClient();
        CuratorFramework zkB = servers.newClient();
        Events eventsA = new Events();
        Events eventsB = new Events();
        Duration maxPoll = Duration.ofSeconds(3);
        try (KafkaGroupMode<String, String> a = member(group, "a", zkA, maxPoll);
             KafkaGroupMode<String, String> b = member(group, "b", zkB, maxPoll)) {
            a.subscribe(List.of(topic), eventsA);
            b.subscribe(List.of(topic), eventsB);
            List<String> deliveredA = new ArrayList<>();
            List<String> deliveredB = new ArrayList<>();
            await("each member fetches one partition").atMost(WAIT).until(() -> {
                a.poll(Duration.ofMillis(50)).forEach(r -> deliveredA.add(r.partition() + ":" + r.offset()));
                b.poll(Duration.ofMillis(50)).forEach(r -> deliveredB.add(r.partition() + ":" + r.offset()));
                return a.assignment().size() == 1 && b.assignment().size() == 1
                        && a.consumer().position(a.assignment().iterator().next()) == 10;
            });
            a.commitSync(Duration.ofSeconds(30));
            TopicPartition stalled = a.assignment().iterator().next();
            produce(topic, stalled.partition(), 5);

            // a's application stops polling; b goes on
            List<String> later = new ArrayList<>();
            await("b fetches a's partition once a's fence is gone").atMost(WAIT).until(() -> {
                b.poll(Duration.ofMillis(100)).forEach(r -> {
                    if (r.partition() == stalled.partition()) {
                        later.add(r.partition() + ":" + r.offset());
                    }
                });
                return later.size() >= 5;
            });
            assertThat(later).as("from a's commit").containsExactly(stalled.partition() + ":10",
                    stalled.partition() + ":11", stalled.partition() + ":12", stalled.partition() + ":13",
                    stalled.partition() + ":14");
            assertThat(ephemeralOwner(zkB, "/consumers/" + group + "/owners/" + topic + "/" + stalled.partition()))
                    .isEqualTo(zkB.getZookeeperClient().getZooKeeper().getSessionId());

            a.poll(Duration.ofMillis(50));
            assertThat(eventsA.lost).as("shown to the stalled member when it polls again").contains(stalled);
        } finally {
            zkA.close();
            zkB.close();
        }
    }

    private static KafkaGroupMode<String, String> member(String group, String name, CuratorFramework zk, Duration maxPoll) {
        KafkaConsumer<String, String> consumer = kafkaConsumer(group, maxPoll);
        return new KafkaGroupMode<>(consumer, ZkRegistry.of(zk), group, new ThreadId(new ConsumerId(group + "_" + name), 0),
                false, Duration.ofSeconds(1), Duration.ofSeconds(30), maxPoll, Time.SYSTEM);
    }

    private static long ephemeralOwner(CuratorFramework zk, String path) throws Exception {
        Stat stat = zk.checkExists().forPath(path);
        assertThat(stat).as(path).isNotNull();
        return stat.getEphemeralOwner();
    }

    private static KafkaConsumer<String, String> kafkaConsumer(String group) {
        return kafkaConsumer(group, Duration.ofMinutes(5));
    }

    private static KafkaConsumer<String, String> kafkaConsumer(String group, Duration maxPoll) {
        Properties p = new Properties();
        p.setProperty(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, String.valueOf(maxPoll.toMillis()));
        p.setProperty(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, servers.broker().bootstrapServers());
        p.setProperty(ConsumerConfig.GROUP_ID_CONFIG, group);
        p.setProperty(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.setProperty(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        return new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer());
    }

    private static void produce(String topic, int partition, int count) {
        List<EmbeddedKafka.Record> records = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            records.add(EmbeddedKafka.Record.to(partition, "k" + i, "v" + i));
        }
        servers.broker().produce(topic, records.toArray(EmbeddedKafka.Record[]::new));
    }

    /** What the application's listener is shown. */
    private static final class Events implements ConsumerRebalanceListener {
        final List<Set<TopicPartition>> assigned = new CopyOnWriteArrayList<>();
        final List<TopicPartition> lost = new CopyOnWriteArrayList<>();

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            assigned.add(Set.copyOf(partitions));
        }

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            lost.addAll(partitions);
        }
    }
}
