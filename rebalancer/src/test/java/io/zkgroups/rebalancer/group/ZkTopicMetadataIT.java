package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.codec.TopicRegistrationCodec;
import io.zkgroups.registry.model.TopicRegistration;
import io.zkgroups.testing.TestZooKeeper;
import io.zkgroups.testing.ZooKeeperExtension;
import org.apache.curator.drivers.AdvancedTracerDriver;
import org.apache.curator.drivers.EventTrace;
import org.apache.curator.drivers.OperationTrace;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Partition counts are served from memory while their watch is armed, and never once it may have fired. */
@Timeout(60)
class ZkTopicMetadataIT {

    private static final AtomicInteger TOPICS = new AtomicInteger();
    @RegisterExtension
    static final ZooKeeperExtension zk = new ZooKeeperExtension();

    /** Counts the data reads a client sends (Curator traces every operation). */
    /**
     * Counts the client's reads of topic registrations. By path: Curator's ensemble tracker reads
     * {@code /zookeeper/config} in the background after connecting, under the same trace name as a getData.
     */
    private static AtomicInteger countDataReads(CuratorFramework client) {
        AtomicInteger reads = new AtomicInteger();
        client.getZookeeperClient().setTracerDriver(new AdvancedTracerDriver() {
            @Override
            public void addTrace(OperationTrace trace) {
                if (trace.getName().startsWith("GetDataBuilderImpl") && trace.getPath() != null
                        && trace.getPath().startsWith("/brokers/topics/")) {
                    reads.incrementAndGet();
                }
            }

            @Override
            public void addEvent(EventTrace trace) {
            }
        });
        return reads;
    }

    private static String newTopic(ZkRegistry admin, int partitions) {
        String topic = "zm" + TOPICS.incrementAndGet();
        admin.topics().create(topic, TopicRegistration.v1(partitions, List.of(0)));
        return topic;
    }

    @Test
    void aCountIsReadOnceAndServedUntilPartitionsAreAdded() throws Exception {
        ZkRegistry admin = ZkRegistry.of(zk.newClient());
        String topic = newTopic(admin, 4);
        CuratorFramework client = zk.newClient();
        AtomicInteger reads = countDataReads(client);
        ZkTopicMetadata metadata = new ZkTopicMetadata(ZkRegistry.of(client).topics());
        CountDownLatch changed = new CountDownLatch(1);
        Runnable onChange = changed::countDown;

        assertThat(metadata.partitionCounts(List.of(topic), onChange)).isEqualTo(Map.of(topic, 4));
        int afterFirst = reads.get();
        assertThat(metadata.partitionCounts(List.of(topic), onChange)).isEqualTo(Map.of(topic, 4));
        assertThat(reads.get()).as("second call read ZooKeeper").isEqualTo(afterFirst);

        admin.topics().addPartitions(topic, 6, List.of(0));
        assertThat(changed.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(metadata.partitionCounts(List.of(topic), onChange)).isEqualTo(Map.of(topic, 6));
        assertThat(reads.get()).isGreaterThan(afterFirst);
    }

    @Test
    void aMissingTopicIsWatchedAndSeenOnceCreated() throws Exception {
        ZkRegistry admin = ZkRegistry.of(zk.newClient());
        String topic = "zm-later" + TOPICS.incrementAndGet();
        ZkTopicMetadata metadata = new ZkTopicMetadata(ZkRegistry.of(zk.newClient()).topics());
        CountDownLatch created = new CountDownLatch(1);
        Runnable onChange = created::countDown;

        assertThat(metadata.partitionCounts(List.of(topic), onChange)).isEmpty();
        assertThat(metadata.partitionCounts(List.of(topic), onChange)).isEmpty();
        admin.topics().create(topic, TopicRegistration.v1(3, List.of(0)));
        assertThat(created.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(metadata.partitionCounts(List.of(topic), onChange)).isEqualTo(Map.of(topic, 3));
    }

    @Test
    void aNewSessionReadsAgainAndSeesChangesItWasNotToldAbout() {
        ZkRegistry admin = ZkRegistry.of(zk.newClient());
        String topic = newTopic(admin, 2);
        CuratorFramework client = zk.newClient();
        ZkTopicMetadata metadata = new ZkTopicMetadata(ZkRegistry.of(client).topics());
        Runnable onChange = () -> { };
        assertThat(metadata.partitionCounts(List.of(topic), onChange)).isEqualTo(Map.of(topic, 2));
        long session = client.getZookeeperClient().getInstanceIndex();

        TestZooKeeper.expireSession(client);
        admin.topics().addPartitions(topic, 5, List.of(0));

        await().atMost(Duration.ofSeconds(10)).ignoreExceptions()
                .until(() -> client.getZookeeperClient().getInstanceIndex() != session
                        && metadata.partitionCounts(List.of(topic), onChange).equals(Map.of(topic, 5)));
    }

    @Test
    void anUnreadableRegistrationIsReportedAloneAndKeptUntilItsWatchFires() throws Exception {
        ZkRegistry admin = ZkRegistry.of(zk.newClient());
        String good = newTopic(admin, 3);
        String bad = "zm-bad" + TOPICS.incrementAndGet();
        admin.znodes().client().create().forPath("/brokers/topics/" + bad, "garbage".getBytes(StandardCharsets.UTF_8));
        CuratorFramework client = zk.newClient();
        AtomicInteger reads = countDataReads(client);
        ZkTopicMetadata metadata = new ZkTopicMetadata(ZkRegistry.of(client).topics());
        CountDownLatch repaired = new CountDownLatch(1);
        Runnable onChange = repaired::countDown;

        TopicMetadata.TopicCounts first = metadata.counts(List.of(good, bad), onChange);
        assertThat(first.partitionCounts()).isEqualTo(Map.of(good, 3));
        assertThat(first.unreadable()).containsOnlyKeys(bad);
        assertThat(first.unreadable().get(bad).path()).isEqualTo("/brokers/topics/" + bad);
        assertThat(first.unreadable().get(bad).reason()).contains("topic registration").contains("not valid JSON");
        int afterFirst = reads.get();
        assertThat(metadata.counts(List.of(good, bad), onChange)).isEqualTo(first);
        assertThat(reads.get()).as("the unreadable registration was read again while its watch was armed").isEqualTo(afterFirst);

        admin.znodes().client().setData().forPath("/brokers/topics/" + bad,
                TopicRegistrationCodec.encode(TopicRegistration.v1(2, List.of(0))));
        assertThat(repaired.await(5, TimeUnit.SECONDS)).isTrue();
        TopicMetadata.TopicCounts after = metadata.counts(List.of(good, bad), onChange);
        assertThat(after.partitionCounts()).isEqualTo(Map.of(good, 3, bad, 2));
        assertThat(after.unreadable()).isEmpty();
    }

    @Test
    void withoutACallbackNothingIsCached() {
        ZkRegistry admin = ZkRegistry.of(zk.newClient());
        String topic = newTopic(admin, 2);
        CuratorFramework client = zk.newClient();
        AtomicInteger reads = countDataReads(client);
        ZkTopicMetadata metadata = new ZkTopicMetadata(ZkRegistry.of(client).topics());

        metadata.partitionCounts(List.of(topic), null);
        int afterFirst = reads.get();
        metadata.partitionCounts(List.of(topic), null);
        assertThat(reads.get()).isGreaterThan(afterFirst);
    }
}
