package io.zkgroups.it.consumer;

import io.zkgroups.embedded.EmbeddedKafka;
import io.zkgroups.it.support.KafkaOnZooKeeperExtension;
import io.zkgroups.it.support.LegacyConsumerProcess;
import io.zkgroups.rebalancer.consumer.ZkGroupConsumer;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.store.Unreadable;
import io.zkgroups.testing.TcpProxy;
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
 * A zkgroups owner with the rewind guard on puts back its partition's offset when a real 0.8.2.2 consumer, frozen past
 * its ZooKeeper session while the zkgroups member took the partition over and committed further, wakes and writes its
 * old position over the member's commit: the offset is restored, counted in {@code rewind-restored-total} and reported
 * as an alarm in the member's health, and the partition's next owner starts at the member's commit instead of
 * delivering the range again. Without the guard ({@code zkgroups.offsets.rewind.guard=false}) the rewind stays.
 */
@Timeout(180)
class RewindGuardIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    @RegisterExtension
    static final KafkaOnZooKeeperExtension servers = new KafkaOnZooKeeperExtension();

    /**
     * With the guard (on by default, docs/fence.md): the offset is written back, counted and reported; nothing comes
     * again.
     */
    @Test
    void aZombiesLateCommitIsWrittenBackAndTheNextOwnerDeliversNothingAgain() throws Exception {
        Outcome outcome = zombieRewinds("rewind-guard", true);
        assertThat(outcome.restored).as("rewind-restored-total").isEqualTo(1);
        assertThat(outcome.alarm).as("the alarm published for zkgroups health").isNotNull();
        assertThat(outcome.alarm.reason()).contains("written back to 100", "restored to 200", "writer");
        assertThat(io.zkgroups.registry.codec.MemberAlarmsCodec.isRestoredRewind(outcome.alarm))
                .as("a notice for zkgroups health, not a failure").isTrue();
        assertThat(outcome.committedAfter).as("the offset once both left").isEqualTo(200);
        assertThat(outcome.nextOwnerDelivered).as("what the partition's next owner delivers")
                .containsExactlyElementsOf(range(200, 210));
    }

    /** Without it (turned off), the 0.8.2.2 consumer's write stays, and the next owner delivers 100 records again. */
    @Test
    void withoutTheGuardTheRewindStaysAndTheNextOwnerDeliversTheRangeAgain() throws Exception {
        Outcome outcome = zombieRewinds("rewind-unguarded", false);
        assertThat(outcome.restored).isZero();
        assertThat(outcome.committedAfter).isEqualTo(100);
        assertThat(outcome.nextOwnerDelivered).containsExactlyElementsOf(range(100, 210));
    }

    /**
     * A 0.8.2.2 consumer delivers 100 records and is frozen with a commit of its position waiting (nothing committed
     * before, as with a long auto-commit interval); its session expires; 100 more records are produced and a zkgroups
     * member — which sorts first, so the range assignor leaves it the one partition throughout — delivers all 200 and
     * commits 200. The 0.8.2.2 consumer wakes and writes 100. Both leave, and a next owner delivers what follows the
     * stored offset.
     * <p>
     * The 0.8.2.2 consumer reaches ZooKeeper through a proxy, cut while it is frozen and healed only once its commit is
     * writing: on waking it takes the snapshot of its position before it can learn that its session ended (which
     * clears what it would commit), however slowly its threads are scheduled.
     */
    private static Outcome zombieRewinds(String group, boolean guard) throws Exception {
        String topic = group + "-t";
        TopicAndPartition p0 = TopicAndPartition.of(topic, 0);
        String offsetPath = "/consumers/" + group + "/offsets/" + topic + "/0";
        servers.broker().createTopic(topic, 1);
        produce(topic, 0, 100);
        CuratorFramework zk = servers.client();
        String zombieRegistration = "/consumers/" + group + "/ids/" + group + "_z-legacy";
        Outcome outcome = new Outcome();

        String zkAddress = servers.connectString();
        try (TcpProxy zombieLink = TcpProxy.start("zombie-zookeeper",
                Integer.parseInt(zkAddress.substring(zkAddress.lastIndexOf(':') + 1)));
             LegacyConsumerProcess zombie = LegacyConsumerProcess.builder(group + "-z-legacy")
                .zookeeperConnect("127.0.0.1:" + zombieLink.port()).groupId(group).consumerId("z-legacy")
                .property("auto.offset.reset", "smallest")
                .property("auto.commit.enable", "true")
                .property("auto.commit.interval.ms", "3600000") // its only commit is the one it makes when it wakes
                .property("zookeeper.session.timeout.ms", "2000")
                .property("rebalance.backoff.ms", "300")
                .property("rebalance.max.retries", "30")
                .maxMessages(100) // its position stays 100 while it is awake again before its commit
                .topic(topic, 1).start()) {
            zombie.awaitReady(WAIT);
            zombie.awaitMessages(100, WAIT);
            assertThat(committed(group, p0)).as("nothing committed by the 0.8.2.2 consumer yet").isEqualTo(-1);

            // frozen with a commit of its position (100) waiting on its stdin, as a late auto-commit waits on its timer
            zombie.signal("STOP");
            zombieLink.cut();
            zombie.send("commit");
            await("the frozen consumer's session expires").atMost(WAIT)
                    .until(() -> zk.checkExists().forPath(zombieRegistration) == null);
            produce(topic, 100, 100);

            Properties props = servers.consumerProperties(group, "a-member", 6000);
            props.setProperty("bootstrap.servers", servers.broker().bootstrapServers());
            props.setProperty("auto.commit.enable", "false");
            props.setProperty("zkgroups.offsets.rewind.guard", String.valueOf(guard));
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
                zombie.awaitLine(0, "COMMIT-WRITING"::equals, WAIT, "the woken consumer's commit, its position taken");
                zombieLink.heal();
                zombie.awaitLine(0, "COMMITTED"::equals, WAIT, "the woken consumer's commit of its old position");
                if (guard) {
                    await("the member writes its offset back, and the alarm is published").atMost(WAIT).until(() -> {
                        member.poll(Duration.ofMillis(50)).forEach(delivered::add);
                        outcome.alarm = alarms(group).stream().filter(a -> a.path().equals(offsetPath)).findFirst()
                                .orElse(null);
                        return restored(member) >= 1 && committed(group, p0) == 200 && outcome.alarm != null;
                    });
                } else {
                    await("the 0.8.2.2 consumer's write lands").atMost(WAIT).until(() -> {
                        member.poll(Duration.ofMillis(50)).forEach(delivered::add);
                        return committed(group, p0) == 100;
                    });
                }
                // the member keeps polling a while: nothing it does may bring the records back to it
                for (int i = 0; i < 10; i++) {
                    member.poll(Duration.ofMillis(50)).forEach(delivered::add);
                }
                outcome.restored = restored(member);
                assertThat(delivered).as("the member delivers each record once").hasSize(200);
                zombie.shutdown();
            }
        }
        outcome.committedAfter = committed(group, p0);
        System.out.println("RewindGuardIT " + group + ": " + outcome);

        produce(topic, 200, 10);
        Properties props = servers.consumerProperties(group, "b-next", 6000);
        props.setProperty("bootstrap.servers", servers.broker().bootstrapServers());
        try (ZkGroupConsumer<String, String> next = new ZkGroupConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
            next.subscribe(List.of(topic));
            await("the next owner delivers up to the new records").atMost(WAIT).until(() -> {
                next.poll(Duration.ofMillis(50)).forEach(r -> outcome.nextOwnerDelivered.add(r.offset()));
                return outcome.nextOwnerDelivered.contains(209L);
            });
        }
        return outcome;
    }

    /** What one run saw. */
    private static final class Outcome {
        double restored;
        Unreadable alarm;
        long committedAfter;
        final List<Long> nextOwnerDelivered = new ArrayList<>();

        @Override
        public String toString() {
            return "restored=" + restored + ", committed after=" + committedAfter + ", alarm=" + alarm;
        }
    }

    private static List<Long> range(long from, long to) {
        List<Long> offsets = new ArrayList<>();
        for (long o = from; o < to; o++) {
            offsets.add(o);
        }
        return offsets;
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
