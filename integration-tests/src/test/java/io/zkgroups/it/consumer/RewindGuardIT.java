package io.zkgroups.it.consumer;

import io.zkgroups.embedded.EmbeddedKafka;
import io.zkgroups.it.support.KafkaOnZooKeeperExtension;
import io.zkgroups.it.support.LegacyConsumerProcess;
import io.zkgroups.rebalancer.consumer.ZkGroupConsumer;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.store.Unreadable;
import org.apache.curator.framework.CuratorFramework;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A zkgroups owner puts back its partition's offset when a real 0.8.2.2 consumer, frozen past its ZooKeeper session
 * while the zkgroups member took the partition over and committed further, wakes and writes its old position over the
 * member's commit: the offset is restored, counted in {@code rewind-restored-total} and reported as an alarm in the
 * member's health, and the partition's next owner starts at the member's commit instead of delivering the range again.
 */
@Timeout(180)
class RewindGuardIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    @RegisterExtension
    static final KafkaOnZooKeeperExtension servers = new KafkaOnZooKeeperExtension();

    @Test
    void aZombiesLateCommitIsWrittenBackAndTheNextOwnerDeliversNothingAgain() throws Exception {
        String group = "rewind-guard";
        String topic = group + "-t";
        TopicAndPartition p0 = TopicAndPartition.of(topic, 0);
        String offsetPath = "/consumers/" + group + "/offsets/" + topic + "/0";
        servers.broker().createTopic(topic, 1);
        produce(topic, 0, 100);
        CuratorFramework zk = servers.client();
        String zombieRegistration = "/consumers/" + group + "/ids/" + group + "_z-legacy";

        try (LegacyConsumerProcess zombie = LegacyConsumerProcess.builder(group + "-z-legacy")
                .zookeeperConnect(servers.connectString()).groupId(group).consumerId("z-legacy")
                .property("auto.offset.reset", "smallest")
                .property("auto.commit.enable", "true")
                .property("auto.commit.interval.ms", "3600000") // its only commit is the one it makes when it wakes
                .property("zookeeper.session.timeout.ms", "2000")
                .property("rebalance.backoff.ms", "300")
                .property("rebalance.max.retries", "30")
                .topic(topic, 1).start()) {
            zombie.awaitReady(WAIT);
            zombie.awaitMessages(100, WAIT);
            assertThat(committed(group, p0)).as("nothing committed by the 0.8.2.2 consumer yet").isEqualTo(-1);

            // frozen with a commit of its position (100) waiting on its stdin, as a late auto-commit waits on its timer
            zombie.signal("STOP");
            zombie.send("commit");
            await("the frozen consumer's session expires").atMost(WAIT)
                    .until(() -> zk.checkExists().forPath(zombieRegistration) == null);
            produce(topic, 100, 100);

            // "a-member" sorts before the 0.8.2.2 consumer: the range assignor leaves it the one partition throughout
            Properties props = servers.consumerProperties(group, "a-member", 6000);
            props.setProperty("bootstrap.servers", servers.broker().bootstrapServers());
            props.setProperty("auto.commit.enable", "false");
            try (ZkGroupConsumer<String, String> member = new ZkGroupConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
                member.subscribe(List.of(topic));
                List<ConsumerRecord<String, String>> delivered = new ArrayList<>();
                await("the member delivers the partition").atMost(WAIT).until(() -> {
                    member.poll(Duration.ofMillis(50)).forEach(delivered::add);
                    return delivered.size() >= 200;
                });
                member.commitSync();
                assertThat(committed(group, p0)).isEqualTo(200);

                zombie.signal("CONT");
                zombie.awaitLine(0, "COMMITTED"::equals, WAIT, "the woken consumer's commit of its old position");
                await("the member writes its offset back").atMost(WAIT).until(() -> {
                    member.poll(Duration.ofMillis(50)).forEach(delivered::add);
                    return restored(member) >= 1 && committed(group, p0) == 200;
                });
                await("the alarm is published for zkgroups health").atMost(WAIT).until(() -> {
                    member.poll(Duration.ofMillis(50)).forEach(delivered::add);
                    return alarms(group).stream().anyMatch(a -> a.path().equals(offsetPath)
                            && a.reason().contains("written back to 100") && a.reason().contains("restored to 200"));
                });
                System.out.println("RewindGuardIT alarm: " + alarms(group));
                assertThat(delivered).as("the member delivers each record once").hasSize(200);
                zombie.shutdown();
            }
        }
        assertThat(committed(group, p0)).as("after both left").isEqualTo(200);

        // the next owner starts at the member's commit: nothing up to 200 is delivered again
        produce(topic, 200, 10);
        Properties props = servers.consumerProperties(group, "b-next", 6000);
        props.setProperty("bootstrap.servers", servers.broker().bootstrapServers());
        try (ZkGroupConsumer<String, String> next = new ZkGroupConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
            next.subscribe(List.of(topic));
            List<Long> offsets = new ArrayList<>();
            await("the next owner delivers the new records").atMost(WAIT).until(() -> {
                next.poll(Duration.ofMillis(50)).forEach(r -> offsets.add(r.offset()));
                return offsets.contains(209L);
            });
            assertThat(offsets).as("offsets the next owner delivered").first().isEqualTo(200L);
            assertThat(offsets).hasSize(10);
        }
    }

    private static double restored(ZkGroupConsumer<?, ?> consumer) {
        return consumer.metrics().entrySet().stream()
                .filter(e -> e.getKey().name().equals("rewind-restored-total"))
                .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue()).sum();
    }

    private static List<Unreadable> alarms(String group) {
        return ZkRegistry.of(servers.client()).memberAlarms().read(group).alarms().values().stream()
                .flatMap(List::stream).collect(Collectors.toList());
    }

    private static long committed(String group, TopicAndPartition tp) {
        Long offset = ZkRegistry.of(servers.client()).offsets().read(group, List.of(tp)).offsets().get(tp);
        return offset == null ? -1 : offset;
    }

    private static void produce(String topic, int from, int count) {
        List<EmbeddedKafka.Record> records = new ArrayList<>();
        for (int i = from; i < from + count; i++) {
            records.add(EmbeddedKafka.Record.to(0, "k" + i, "v" + i));
        }
        servers.broker().produce(topic, records.toArray(EmbeddedKafka.Record[]::new));
    }
}
