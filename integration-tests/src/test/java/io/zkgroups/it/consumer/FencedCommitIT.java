package io.zkgroups.it.consumer;

import io.zkgroups.embedded.EmbeddedKafka;
import io.zkgroups.it.consumer.ZkGroupConsumerIT.OffsetMonotonicity;
import io.zkgroups.it.support.KafkaOnZooKeeperExtension;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.testing.OffsetWrites;
import io.zkgroups.rebalancer.consumer.ZkGroupConsumer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Every commit passes the member's ownership fence: a commit of a partition this member no longer owns — in the
 * session and under the grant it was told of — is refused, whenever the application makes it. Each case here is one
 * way an application's commit used to reach ZooKeeper after the partition had moved on, rewinding the new owner.
 */
@Tag("older-zookeeper") // also run on ZooKeeper 3.4 and 3.5 (integration-tests/pom.xml)
@Timeout(180)
class FencedCommitIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    @RegisterExtension
    static final KafkaOnZooKeeperExtension servers = new KafkaOnZooKeeperExtension();

    /**
     * An application that processes each batch for a while and then calls {@code commitSync()}, frozen (SIGSTOP) past
     * its session timeout while processing: when it wakes, its client opens a new session, registers again and the
     * group gives it a partition back — all before the application's next {@code poll()}. Its {@code commitSync()} of
     * the stale batch must fail instead of rewinding what the other member committed meanwhile.
     */
    @Test
    void aMemberFrozenPastItsSessionCannotCommitItsStaleBatchAfterItRejoined() throws Exception {
        String group = "frozen-commit";
        String topic = group + "-t";
        servers.broker().createTopic(topic, 2);
        produce(topic, 2, 50);
        DeliveryLog log = new DeliveryLog();
        Map<String, String> props = new HashMap<>(Map.of(
                "zookeeper.connect", servers.connectString(), "group.id", group,
                "bootstrap.servers", servers.broker().bootstrapServers(), "auto.offset.reset", "smallest",
                "auto.commit.enable", "false", "zookeeper.session.timeout.ms", "1000", "test.commit", "on-request",
                "consumer.id", "a-frozen"));
        CuratorFramework zk = servers.client();
        String registration = "/consumers/" + group + "/ids/" + group + "_a-frozen"; // 0.8: group_consumer.id
        try (OffsetMonotonicity monotonic = new OffsetMonotonicity(ZkRegistry.of(servers.newClient()), group, topic, 2)) {
            ChildConsumer frozen = ChildConsumer.start("a-frozen", topic, props, log);
            try {
                int line = frozen.awaitLine(0, "WAITING"::equals, WAIT, "a first batch");
                frozen.send("commit");
                line = frozen.awaitLine(line + 1, "COMMITTED"::equals, WAIT, "the first commit");
                produce(topic, 2, 50);
                line = frozen.awaitLine(line + 1, "WAITING"::equals, WAIT, "a second batch, being processed");
                long sessionBefore = zk.checkExists().forPath(registration).getEphemeralOwner();

                frozen.signal("STOP");
                Properties other = new Properties();
                props.forEach(other::setProperty);
                other.remove("test.commit");
                other.setProperty("consumer.id", "b-other");
                other.setProperty("auto.commit.enable", "true");
                other.setProperty("auto.commit.interval.ms", "50");
                other.setProperty("zookeeper.session.timeout.ms", "6000");
                try (ConsumerWorker b = new ConsumerWorker("b-other", other, List.of(topic), log)) {
                    produce(topic, 2, 50);
                    await().atMost(WAIT).until(() -> committed(group, topic, 0) == 150 && committed(group, topic, 1) == 150);

                    frozen.signal("CONT");
                    await().atMost(WAIT).until(() -> {
                        Stat stat = zk.checkExists().forPath(registration);
                        return stat != null && stat.getEphemeralOwner() != sessionBefore;
                    });
                    await().atMost(WAIT).until(() -> ownerOf(group, topic, 0).startsWith(group + "_a-frozen")
                            && ownerOf(group, topic, 1).startsWith(group + "_b-other"));
                    frozen.send("commit");
                    int outcome = frozen.awaitLine(line + 1, l -> l.startsWith("COMMIT"), WAIT, "the commit's outcome");
                    assertThat(frozen.events().get(outcome)).startsWith("COMMIT-FAILED");
                    assertThat(committed(group, topic, 0)).isGreaterThanOrEqualTo(150);
                    assertThat(committed(group, topic, 1)).isGreaterThanOrEqualTo(150);
                }
                frozen.close();
            } finally {
                frozen.destroy();
            }
            assertThat(monotonic.violations()).isEmpty();
            assertThat(monotonic.observations()).isPositive();
        }
        List<OffsetWrites.Write> writes = OffsetWrites.of(servers.zooKeeper(), "/consumers/" + group + "/offsets/");
        assertThat(writes).as("offset writes in ZooKeeper's transaction log").hasSizeGreaterThan(2);
        assertThat(OffsetWrites.regressions(writes)).as("every offset write, in the order ZooKeeper applied them").isEmpty();
    }

    /**
     * The application stops polling with records handed out; another member joins. After the revoke timeout the
     * partition is released without a commit (committing positions of records not yet processed loses them if this
     * process dies now): the next owner starts at the last committed offset, and the stalled application's own late
     * {@code commitSync()} is refused.
     */
    @Test
    void aRevocationThatTimesOutCommitsNothingAndTheLateCommitIsRefused() {
        String group = "revoke-timeout";
        String topic = group + "-t";
        servers.broker().createTopic(topic, 1);
        produce(topic, 1, 20);
        Properties props = props(group, "z-stalled");
        props.setProperty("auto.commit.interval.ms", "3600000"); // nothing is committed by the clock
        props.setProperty("zkgroups.revoke.timeout.ms", "300");
        DeliveryLog log = new DeliveryLog();
        try (ZkGroupConsumer<String, String> stalled = new ZkGroupConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
            stalled.subscribe(List.of(topic));
            List<ConsumerRecord<String, String>> handedOut = new ArrayList<>();
            await().atMost(WAIT).until(() -> {
                stalled.poll(Duration.ofMillis(50)).forEach(handedOut::add);
                return handedOut.size() == 20;
            });
            // the application is busy now and does not poll; "a-next" sorts first, so range gives it the partition
            try (ConsumerWorker next = new ConsumerWorker("a-next", props(group, "a-next"), List.of(topic), log)) {
                await().atMost(WAIT).until(() -> log.size() >= 20);
                assertThat(log.missing(new TopicPartition(topic, 0), 20)).isEmpty();
                assertThat(firstOffsetDeliveredBy(log, "a-next")).as("the next owner starts where nothing was committed").isZero();
                assertThatThrownBy(stalled::commitSync).isInstanceOf(CommitFailedException.class);
            }
        }
    }

    /**
     * The application's {@code onPartitionsRevoked} takes longer than the revoke timeout and then commits: by then the
     * partition is released and owned by the next member, so the commit must be refused.
     */
    @Test
    void aCommitFromARevocationCallbackThatOutlivedTheTimeoutIsRefused() {
        String group = "slow-callback";
        String topic = group + "-t";
        servers.broker().createTopic(topic, 1);
        produce(topic, 1, 10);
        Properties props = props(group, "z-slow");
        props.setProperty("zkgroups.revoke.timeout.ms", "300");
        DeliveryLog log = new DeliveryLog();
        AtomicReference<Throwable> commitInCallback = new AtomicReference<>();
        try (ZkGroupConsumer<String, String> slow = new ZkGroupConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
            slow.subscribe(List.of(topic), new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                    if (partitions.isEmpty()) {
                        return;
                    }
                    await().atMost(WAIT).until(() -> ownerOf(group, topic, 0).startsWith(group + "_a-next"));
                    try {
                        slow.commitSync();
                        commitInCallback.set(new AssertionError("the commit went through"));
                    } catch (RuntimeException e) {
                        commitInCallback.set(e);
                    }
                }

                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                }
            });
            List<ConsumerRecord<String, String>> seen = new ArrayList<>();
            await().atMost(WAIT).until(() -> {
                slow.poll(Duration.ofMillis(50)).forEach(seen::add);
                return seen.size() == 10;
            });
            try (ConsumerWorker next = new ConsumerWorker("a-next", props(group, "a-next"), List.of(topic), log)) {
                await().atMost(WAIT).until(() -> {
                    slow.poll(Duration.ofMillis(50));
                    return commitInCallback.get() != null;
                });
                assertThat(commitInCallback.get()).isInstanceOf(CommitFailedException.class);
            }
        }
    }

    private static Properties props(String group, String consumerId) {
        Properties p = new Properties();
        p.setProperty("zookeeper.connect", servers.connectString());
        p.setProperty("group.id", group);
        p.setProperty("bootstrap.servers", servers.broker().bootstrapServers());
        p.setProperty("auto.offset.reset", "smallest");
        p.setProperty("consumer.id", consumerId);
        p.setProperty("zookeeper.session.timeout.ms", "6000");
        return p;
    }

    private static long firstOffsetDeliveredBy(DeliveryLog log, String member) {
        return log.deliveries().stream().filter(d -> d.member().equals(member)).mapToLong(DeliveryLog.Delivery::offset)
                .findFirst().orElse(-1);
    }

    private static long committed(String group, String topic, int partition) {
        Long offset = ZkRegistry.of(servers.client()).offsets().read(group, List.of(TopicAndPartition.of(topic, partition)))
                .offsets().get(TopicAndPartition.of(topic, partition));
        return offset == null ? -1 : offset;
    }

    private static String ownerOf(String group, String topic, int partition) throws Exception {
        String path = "/consumers/" + group + "/owners/" + topic + "/" + partition;
        if (servers.client().checkExists().forPath(path) == null) {
            return "";
        }
        try {
            return new String(servers.client().getData().forPath(path), StandardCharsets.UTF_8);
        } catch (org.apache.zookeeper.KeeperException.NoNodeException gone) {
            return "";
        }
    }

    private static void produce(String topic, int partitions, int perPartition) {
        List<EmbeddedKafka.Record> records = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            for (int i = 0; i < perPartition; i++) {
                records.add(EmbeddedKafka.Record.to(p, "k" + i, "v" + p + "-" + i));
            }
        }
        servers.broker().produce(topic, records.toArray(EmbeddedKafka.Record[]::new));
    }
}
