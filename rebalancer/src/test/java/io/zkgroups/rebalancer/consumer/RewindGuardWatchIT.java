package io.zkgroups.rebalancer.consumer;

import io.zkgroups.rebalancer.group.OwnershipFence;
import io.zkgroups.rebalancer.metrics.ConsumerMetrics;
import io.zkgroups.rebalancer.offsets.CommitPermit;
import io.zkgroups.rebalancer.offsets.OffsetStore;
import io.zkgroups.registry.Time;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.testing.TestZooKeeper;
import org.apache.curator.drivers.AdvancedTracerDriver;
import org.apache.curator.drivers.EventTrace;
import org.apache.curator.drivers.OperationTrace;
import org.apache.curator.framework.CuratorFramework;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link RewindGuard} on a real ZooKeeper: another client writes the offset znode of a partition the consumer owns,
 * the guard running on the test thread as on the poll thread; what it writes back goes to a recording store.
 */
class RewindGuardWatchIT {

    private static final long SESSION = 0x300L;
    private static final TopicPartition T0 = new TopicPartition("t", 0);
    private static final TopicPartition T1 = new TopicPartition("t", 1);
    private static final AtomicInteger GROUPS = new AtomicInteger();
    private static TestZooKeeper zooKeeper;

    private final String group = "rewind" + GROUPS.incrementAndGet();
    private final SubscriptionState state = new SubscriptionState(group + "_m", group, Time.SYSTEM);
    private final RecordingStore store = new RecordingStore();
    private final ConsumerMetrics metrics = new ConsumerMetrics("rewind-test-" + group, group, false,
            Collections::<MetricName, Metric>emptyMap, broker -> Optional.empty());
    private final List<RewindGuard> guards = new ArrayList<>();
    /** The ZooKeeper client of the last guard made. */
    private CuratorFramework guardClient;

    @BeforeAll
    static void startZooKeeper() {
        zooKeeper = TestZooKeeper.startInProcess();
    }

    @AfterAll
    static void stopZooKeeper() {
        zooKeeper.close();
    }

    @AfterEach
    void close() {
        guards.forEach(RewindGuard::close);
        metrics.close();
    }

    @Test
    void aLowerOffsetWrittenByAnotherClientIsWrittenBackAndCounted() throws Exception {
        RewindGuard guard = ownedAt(200, true);
        write(100);
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            guard.check();
            return !store.writes.isEmpty();
        });
        assertThat(store.writes).containsExactly(Map.of(TopicAndPartition.of("t", 0), 200L));
        assertThat(restored()).isEqualTo(1.0);
    }

    @Test
    void aWriteThatMovesForwardIsLeftAlone() throws Exception {
        RewindGuard guard = ownedAt(200, true, T0, T1);
        write(T0, 300);
        write(T1, 100); // after it: once the guard has seen this one, it has seen the forward write too
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            guard.check();
            return !store.writes.isEmpty();
        });
        guard.check();
        assertThat(store.writes).as("only the rewind is written back")
                .containsExactly(Map.of(TopicAndPartition.of("t", 1), 200L));
    }

    @Test
    void theConsumersOwnLowerCommitIsNotARewind() throws Exception {
        RewindGuard guard = ownedAt(200, true);
        state.committed(T0, 50); // the application sought back and committed 50
        write(50);
        write(60); // forward of its own commit: nothing to restore either
        for (int i = 0; i < 20; i++) {
            guard.check();
        }
        assertThat(store.writes).isEmpty();
        assertThat(restored()).isZero();
    }

    @Test
    void itsOwnCommitReadAfterANewerOneIsReadAgainNotWrittenBack() throws Exception {
        RewindGuard guard = ownedAt(200, true);
        AtomicInteger reads = countReads(path(T0));
        state.committed(T0, 250); // the consumer's commit, landed
        write(250);
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            guard.check();
            return reads.get() > 0; // the guard reads 250 ...
        });
        state.committed(T0, 260); // ... and the consumer commits again before the guard looks at what it read
        write(260);
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            guard.check();
            return reads.get() > 1 && !guard.confirming(path(T0));
        });
        for (int i = 0; i < 20; i++) {
            guard.check();
        }
        assertThat(store.writes).as("250, read again after the commit of 260, is 260: no rewind").isEmpty();
        assertThat(restored()).isZero();
    }

    @Test
    void theChangesOfOneIntervalAreReadOnce() throws Exception {
        RewindGuard guard = ownedAt(200, true);
        AtomicInteger reads = countReads(path(T0));
        write(210);
        await().atMost(Duration.ofSeconds(30)).until(() -> guard.changedSinceRead(path(T0)));
        assertThat(reads).as("the watch fired; nothing is read until the guard's next interval").hasValue(0);
        write(220);
        write(230);
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            guard.check();
            return reads.get() > 0 && !guard.changedSinceRead(path(T0));
        });
        for (int i = 0; i < 20; i++) {
            guard.check();
        }
        assertThat(reads).as("three writes, one read (which armed the watch again)").hasValue(1);
        write(100);
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            guard.check();
            return !store.writes.isEmpty();
        });
        assertThat(store.writes).as("a rewind after them is still written back")
                .containsExactly(Map.of(TopicAndPartition.of("t", 0), 200L));
    }

    @Test
    void turnedOffItWatchesNothing() throws Exception {
        RewindGuard guard = ownedAt(200, false);
        write(100);
        for (int i = 0; i < 20; i++) {
            guard.check();
        }
        assertThat(store.writes).isEmpty();
        assertThat(zooKeeper.newClient().getData().forPath(path(T0))).asString(StandardCharsets.UTF_8).isEqualTo("100");
    }

    /** The consumer owns t-0, fetched, committed at {@code committed}, stored as such; the guard watches it. */
    private RewindGuard ownedAt(long committed, boolean enabled) throws Exception {
        return ownedAt(committed, enabled, T0);
    }

    private RewindGuard ownedAt(long committed, boolean enabled, TopicPartition... partitions) throws Exception {
        for (TopicPartition tp : partitions) {
            write(tp, committed);
        }
        OwnershipFence fence = new OwnershipFence(new OwnershipFence.Lease() {
            @Override
            public boolean holds(long session) {
                return session == SESSION;
            }

            @Override
            public long remainingNanos() {
                return TimeUnit.MINUTES.toNanos(10);
            }
        });
        Map<TopicAndPartition, ThreadId> threads = new TreeMap<>();
        for (TopicPartition tp : partitions) {
            threads.put(KafkaPartitions.toRegistry(tp), ConsumerId.ofOverride(group, "m").thread(0));
        }
        Map<TopicAndPartition, OwnershipFence.Grant> grants = fence.grant(threads, SESSION);
        state.subscribe(null, Collections.singleton("t"), null, NoOpListener.INSTANCE, fence);
        for (TopicPartition tp : partitions) {
            state.fetch(tp, grants.get(KafkaPartitions.toRegistry(tp)).epoch(), 0, committed);
        }
        Map<String, Object> props = new HashMap<>();
        props.put("group.id", group);
        props.put("zookeeper.connect", zooKeeper.connectString());
        OffsetCommitter committer = new OffsetCommitter(ZkConsumerConfig.from(props), group + "_m", store, state,
                metrics, Time.SYSTEM);
        CuratorFramework client = zooKeeper.newClient();
        guardClient = client;
        RewindGuard guard = new RewindGuard(enabled, client, ZkRegistry.of(client).offsets(), group, group + "_m",
                state, committer, metrics, () -> null, Time.SYSTEM);
        guards.add(guard);
        guard.check(); // starts watching t-0
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            guard.check();
            return !enabled || java.util.Arrays.stream(partitions).allMatch(tp -> guard.watching(path(tp)));
        });
        return guard;
    }

    /** Another client (the 0.8.2.2 consumer, an operator) writes {@code offset} of t-0. */
    private void write(long offset) throws Exception {
        write(T0, offset);
    }

    private void write(TopicPartition tp, long offset) throws Exception {
        zooKeeper.newClient().create().orSetData().creatingParentsIfNeeded()
                .forPath(path(tp), String.valueOf(offset).getBytes(StandardCharsets.UTF_8));
    }

    /** Counts the guard's reads of {@code path} from now on (Curator traces every operation). */
    private AtomicInteger countReads(String path) {
        AtomicInteger reads = new AtomicInteger();
        guardClient.getZookeeperClient().setTracerDriver(new AdvancedTracerDriver() {
            @Override
            public void addTrace(OperationTrace trace) {
                if (trace.getName().startsWith("GetDataBuilderImpl") && path.equals(trace.getPath())) {
                    reads.incrementAndGet();
                }
            }

            @Override
            public void addEvent(EventTrace trace) {
            }
        });
        return reads;
    }

    private String path(TopicPartition tp) {
        return "/consumers/" + group + "/offsets/" + tp.topic() + "/" + tp.partition();
    }

    private double restored() {
        return metrics.metrics().entrySet().stream()
                .filter(e -> e.getKey().name().equals("rewind-restored-total"))
                .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue()).sum();
    }

    /** Records what the committer writes back. */
    private static final class RecordingStore implements OffsetStore {
        final List<Map<TopicAndPartition, Long>> writes = Collections.synchronizedList(new ArrayList<>());

        @Override
        public Map<TopicAndPartition, Long> read(String group, Collection<TopicAndPartition> partitions) {
            return Collections.emptyMap();
        }

        @Override
        public Set<TopicAndPartition> commit(String group, Map<TopicAndPartition, Long> offsets) {
            throw new AssertionError("the consumer commits under a permit only");
        }

        @Override
        public Set<TopicAndPartition> commit(String group, Map<TopicAndPartition, Long> offsets, CommitPermit permit) {
            writes.add(new TreeMap<>(offsets));
            return new TreeSet<>(offsets.keySet());
        }

        @Override
        public String name() {
            return "recording";
        }
    }
}
