package io.zkgroups.rebalancer.consumer;

import io.zkgroups.rebalancer.group.OwnershipFence;
import io.zkgroups.rebalancer.metrics.ConsumerMetrics;
import io.zkgroups.rebalancer.offsets.CommitPermit;
import io.zkgroups.rebalancer.offsets.FencedException;
import io.zkgroups.rebalancer.offsets.OffsetStore;
import io.zkgroups.rebalancer.offsets.OffsetStoreException;
import io.zkgroups.registry.Time;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;
import static org.awaitility.Awaitility.await;

/**
 * The commit path on its own: a real {@link OwnershipFence} on a lease the test controls, a {@link SubscriptionState}
 * filled as the coordinator would, and an in-memory store that records what it was asked to write.
 */
class OffsetCommitterTest {

    private static final long SESSION = 0x200L;
    private static final TopicPartition T0 = new TopicPartition("t", 0);
    private static final TopicPartition T1 = new TopicPartition("t", 1);
    private static final Duration LONG = Duration.ofMinutes(5);

    /** Holds {@link #SESSION} while {@code remainingNanos} is positive. */
    private static final class TestLease implements OwnershipFence.Lease {
        volatile long remainingNanos = TimeUnit.MINUTES.toNanos(10);

        @Override
        public boolean holds(long session) {
            return session == SESSION && remainingNanos > 0;
        }

        @Override
        public long remainingNanos() {
            return remainingNanos;
        }
    }

    /** What the committer asked a store to write, and under which permit; fails as told; holds writes if told. */
    private static final class RecordingStore implements OffsetStore {
        final List<Map<TopicAndPartition, Long>> writes = new CopyOnWriteArrayList<>();
        final List<CommitPermit> permits = new CopyOnWriteArrayList<>();
        volatile RuntimeException failure;
        /** When set, each write waits for it first. */
        volatile CountDownLatch held;

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
            permits.add(permit);
            CountDownLatch hold = held;
            if (hold != null) {
                try {
                    hold.await();
                } catch (InterruptedException e) {
                    throw new OffsetStoreException("interrupted", e);
                }
            }
            if (failure != null) {
                throw failure;
            }
            writes.add(new TreeMap<>(offsets));
            return new TreeSet<>(offsets.keySet());
        }

        @Override
        public String name() {
            return "recording";
        }
    }

    private final TestLease lease = new TestLease();
    private final OwnershipFence fence = new OwnershipFence(lease);
    private final SubscriptionState state = new SubscriptionState("g_m", "g", Time.SYSTEM);
    private final RecordingStore store = new RecordingStore();
    private final ConsumerMetrics metrics = new ConsumerMetrics("committer-test", "g", false,
            Collections::<MetricName, Metric>emptyMap, broker -> Optional.empty());

    @AfterEach
    void closeMetrics() {
        metrics.close();
    }

    private OffsetCommitter committer(boolean autoCommit) {
        Map<String, Object> props = new HashMap<>();
        props.put("group.id", "g");
        props.put("zookeeper.connect", "127.0.0.1:2181");
        props.put("auto.commit.enable", String.valueOf(autoCommit));
        props.put("auto.commit.interval.ms", "1"); // due a millisecond after it started
        return new OffsetCommitter(ZkConsumerConfig.from(props), "g_m", store, state, metrics, Time.SYSTEM);
    }

    /** Grants {@code partitions} in the fence and tells the state, fetched from {@code committed}. */
    private void own(Long committed, TopicPartition... partitions) {
        Map<TopicAndPartition, ThreadId> threads = new TreeMap<>();
        for (TopicPartition tp : partitions) {
            threads.put(KafkaPartitions.toRegistry(tp), ConsumerId.ofOverride("g", "m").thread(0));
        }
        Map<TopicAndPartition, OwnershipFence.Grant> grants = fence.grant(threads, SESSION);
        for (TopicPartition tp : partitions) {
            state.fetch(tp, grants.get(KafkaPartitions.toRegistry(tp)).epoch(), 0, committed);
        }
    }

    private void subscribe() {
        state.subscribe(null, Collections.singleton("t"), null, NoOpListener.INSTANCE, fence);
    }

    private double fencedCommits() {
        return metric("commit-fenced-total");
    }

    private double metric(String name) {
        for (Map.Entry<MetricName, ? extends Metric> m : metrics.metrics().entrySet()) {
            if (m.getKey().name().equals(name)) {
                return ((Number) m.getValue().metricValue()).doubleValue();
            }
        }
        throw new AssertionError("no " + name + " metric");
    }

    @Test
    void aReleaseWhoseCommitFailsGoesOnUncommittedAndIsCounted() {
        subscribe();
        own(0L, T0, T1);
        state.position(T0, 7);
        state.position(T1, 9);
        store.failure = new OffsetStoreException("committing Kafka offsets of group g timed out after 2000 ms", null);

        committer(true).beforeRevoke(new java.util.HashSet<>(java.util.Arrays.asList(T0, T1)), Deadline.after(LONG, Time.SYSTEM));

        assertThat(store.writes).isEmpty();
        assertThat(metric("release-uncommitted-total")).isEqualTo(2.0);
    }

    @Test
    void aReleasesCommitToKafkaHasTheRebalancesKafkaTimeoutNotTheRevokeDeadline() {
        subscribe();
        own(0L, T0);
        state.position(T0, 7);
        Map<String, Object> props = new HashMap<>();
        props.put("group.id", "g");
        props.put("zookeeper.connect", "127.0.0.1:2181");
        props.put("offsets.storage", "kafka");
        props.put("zkgroups.rebalance.kafka.timeout.ms", "500");
        OffsetCommitter committer = new OffsetCommitter(ZkConsumerConfig.from(props), "g_m", store, state, metrics, Time.SYSTEM);
        long before = System.nanoTime();

        committer.beforeRevoke(Collections.singleton(T0), Deadline.after(LONG, Time.SYSTEM));

        assertThat(store.permits).hasSize(1);
        assertThat(store.permits.get(0).deadlineNanos() - before).as("the permit's deadline, from the call")
                .isLessThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(500) + (System.nanoTime() - before));
    }

    @Test
    void commitsThePositionsOfFetchedPartitionsOnceEach() {
        subscribe();
        own(0L, T0, T1);
        state.position(T0, 10);
        OffsetCommitter committer = committer(false);

        committer.commitPositions(Deadline.after(LONG, Time.SYSTEM));
        committer.commitPositions(Deadline.after(LONG, Time.SYSTEM)); // nothing moved: nothing written

        assertThat(store.writes).containsExactly(Collections.singletonMap(new TopicAndPartition("t", 0), 10L));
        assertThat(state.committed(T0)).isEqualTo(10L);
        assertThat(store.permits.get(0).session()).isEqualTo(SESSION);
    }

    @Test
    void aPartitionNotAssignedIsRefusedAsKafkaUsersExpectWithTheFencesReasonAsCause() {
        subscribe();
        own(0L, T0);
        TopicPartition elsewhere = new TopicPartition("elsewhere", 0);
        Map<TopicPartition, Long> offsets = new HashMap<>();
        offsets.put(T0, 5L);
        offsets.put(elsewhere, 5L);

        assertThatThrownBy(() -> committer(false).commit(offsets, Deadline.after(LONG, Time.SYSTEM)))
                .isInstanceOf(CommitFailedException.class)
                .hasMessageContaining("elsewhere-0")
                .hasCauseInstanceOf(FencedException.class);
        assertThat(store.permits).as("nothing reached the store").isEmpty();
        assertThat(fencedCommits()).isEqualTo(1.0);
    }

    @Test
    void aCommitUnderAGrantThatWasReplacedIsRefused() {
        subscribe();
        own(0L, T0);
        state.position(T0, 8);
        fence.withdraw(Collections.singleton(new TopicAndPartition("t", 0)));
        fence.grant(Collections.singletonMap(new TopicAndPartition("t", 0), ConsumerId.ofOverride("g", "m").thread(0)),
                SESSION); // granted again: a new epoch this consumer was not told of

        assertThatThrownBy(() -> committer(false).commitPositions(Deadline.after(LONG, Time.SYSTEM)))
                .isInstanceOf(CommitFailedException.class)
                .hasMessageContaining("no longer owned")
                .hasCauseInstanceOf(FencedException.class);
        assertThat(store.writes).isEmpty();
    }

    @Test
    void aCommitWhoseLeaseRanOutIsRefused() {
        subscribe();
        own(0L, T0);
        state.position(T0, 8);
        lease.remainingNanos = -1;

        assertThatThrownBy(() -> committer(false).commitPositions(Deadline.after(LONG, Time.SYSTEM)))
                .isInstanceOf(CommitFailedException.class)
                .hasMessageContaining("may have expired");
        assertThat(store.writes).isEmpty();
    }

    @Test
    void aStoreThatFindsTheOwnershipGoneFailsTheCommitTheSameWay() {
        subscribe();
        own(0L, T0);
        state.position(T0, 3);
        store.failure = new FencedException("the owner znode /consumers/g/owners/t/0 is another session's");

        assertThatThrownBy(() -> committer(false).commitPositions(Deadline.after(LONG, Time.SYSTEM)))
                .isInstanceOf(CommitFailedException.class)
                .hasRootCauseMessage("the owner znode /consumers/g/owners/t/0 is another session's");
        assertThat(state.committed(T0)).as("not written: not remembered").isZero();
    }

    @Test
    void aStoreFailureIsAKafkaExceptionNotACommitFailure() {
        subscribe();
        own(0L, T0);
        state.position(T0, 3);
        OffsetStoreException unreachable = new OffsetStoreException("ZooKeeper is unreachable", null);
        store.failure = unreachable;

        assertThatThrownBy(() -> committer(false).commitPositions(Deadline.after(LONG, Time.SYSTEM)))
                .isInstanceOf(KafkaException.class)
                .isNotInstanceOf(CommitFailedException.class)
                .hasCause(unreachable);
    }

    @Test
    void aStoreFailureAfterTheDeadlinePassedIsATimeout() {
        subscribe();
        own(0L, T0);
        state.position(T0, 3);
        store.failure = new OffsetStoreException("committing Kafka offsets timed out", null);

        assertThatThrownBy(() -> committer(false).commit(Collections.singletonMap(T0, 3L), Deadline.after(Duration.ZERO, Time.SYSTEM)))
                .isInstanceOf(TimeoutException.class);
        assertThat(store.permits).as("a passed deadline starts no write").isEmpty();
    }

    @Test
    void thePermitTheStoreGetsEndsNoLaterThanTheCommitsDeadlineAndIsReleasedAfterwards() throws Exception {
        subscribe();
        own(0L, T0);
        state.position(T0, 4);
        Deadline deadline = Deadline.after(Duration.ofSeconds(30), Time.SYSTEM); // well inside the 10-minute lease

        committer(false).commitPositions(deadline);

        CommitPermit permit = store.permits.get(0);
        assertThat(permit.deadlineNanos()).isEqualTo(deadline.atNanos());
        assertThat(permit.partitions()).containsExactly(new TopicAndPartition("t", 0));
        // the fence counts no commit in flight any more: a release of the partition would not wait
        fence.awaitCommits(Collections.singleton(new TopicAndPartition("t", 0)));
    }

    @Test
    void aCommitOfPositionsNotKnownYetTimesOutAndWritesNothing() {
        subscribe();
        own(null, T0, T1); // offset reset pending: the fetcher has not found where they start
        state.position(T1, 6);

        assertThatThrownBy(() -> committer(false).commitPositions(Deadline.after(Duration.ofSeconds(2), Time.SYSTEM)))
                .isInstanceOf(TimeoutException.class)
                .hasMessageContaining("t-0");
        assertThat(store.permits).isEmpty();
    }

    @Test
    void aConsumerThatLeftOwnsNothingToCommit() {
        own(0L, T0); // granted, but the member is gone: no fence
        state.position(T0, 2);

        assertThatThrownBy(() -> committer(false).commitPositions(Deadline.after(LONG, Time.SYSTEM)))
                .isInstanceOf(CommitFailedException.class)
                .hasMessageContaining("not subscribed");
    }

    @Test
    void theCommitBeforeARevocationWritesTheRevokedPartitionsKnownPositionsOnlyWithAutoCommit() {
        subscribe();
        own(0L, T0, T1);
        state.position(T0, 7);
        state.position(T1, 9);

        committer(false).beforeRevoke(Collections.singleton(T0), Deadline.after(LONG, Time.SYSTEM));
        assertThat(store.writes).as("without auto-commit the application commits").isEmpty();

        committer(true).beforeRevoke(Collections.singleton(T0), Deadline.after(LONG, Time.SYSTEM));
        assertThat(store.writes).containsExactly(Collections.singletonMap(new TopicAndPartition("t", 0), 7L));
    }

    @Test
    void aRevocationsCommitThatIsRefusedDoesNotStopTheRevocation() {
        subscribe();
        own(0L, T0);
        state.position(T0, 7);
        lease.remainingNanos = -1;

        committer(true).beforeRevoke(Collections.singleton(T0), Deadline.after(LONG, Time.SYSTEM)); // logged, not thrown

        assertThat(store.writes).isEmpty();
        assertThat(fencedCommits()).isEqualTo(1.0);
    }

    @Test
    void autoCommitWritesWhatIsKnownAndNeverWaitsForAPosition() {
        subscribe();
        own(null, T0, T1);
        state.position(T1, 12);

        OffsetCommitter committer = committer(true);
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            committer.maybeAutoCommit();
            return !store.writes.isEmpty();
        });

        assertThat(store.writes).containsExactly(Collections.singletonMap(new TopicAndPartition("t", 1), 12L));
    }

    @Test
    void heldPartitionsAreNotCommittedByPosition() {
        subscribe();
        own(0L, T0);
        state.hold(T1, 99, 0, "unreachable");

        committer(false).commitPositions(Deadline.after(LONG, Time.SYSTEM));

        assertThat(store.writes).as("the position of T0 is the offset read at its start: nothing to write").isEmpty();
        assertThat(state.positions()).containsExactly(entry(T0, 0L));
    }

    @Test
    void withAutoCommitAPartitionAtTheCapIsCommittedBeforeTheInterval() {
        subscribe();
        own(0L, T0, T1);
        state.position(T0, 100);
        state.position(T1, 3);
        OffsetCommitter committer = autoCommitEveryHour();

        committer.maybeAutoCommit();
        assertThat(store.writes).as("the interval is not due").isEmpty();
        committer.commitNearCap(Collections.singleton(T0));

        await().atMost(LONG).until(() -> !store.writes.isEmpty());
        assertThat(store.writes).as("every known position, as auto-commit writes them")
                .containsExactly(Map.of(new TopicAndPartition("t", 0), 100L, new TopicAndPartition("t", 1), 3L));
        await("the outcome taken by a later call").atMost(LONG).untilAsserted(() -> {
            committer.commitNearCap(Collections.emptySet());
            assertThat(state.committed(T0)).isEqualTo(100L);
        });
        committer.close();
    }

    @Test
    void theCommitNearTheCapIsWrittenWhileThePollGoesOnAndTheNextCommitLandsAfterIt() throws Exception {
        subscribe();
        own(0L, T0);
        state.position(T0, 100);
        OffsetCommitter committer = autoCommitEveryHour();
        CountDownLatch hold = new CountDownLatch(1);
        store.held = hold;

        committer.commitNearCap(Collections.singleton(T0));
        await("the near-cap write has reached the store").atMost(LONG).until(() -> store.permits.size() == 1);
        assertThat(store.writes).as("held in the store while the poll went on").isEmpty();

        state.position(T0, 150);
        Thread next = new Thread(() -> committer.commitPositions(Deadline.after(LONG, Time.SYSTEM)), "next-commit");
        next.start();
        await("the next commit waits for the one in flight").atMost(LONG)
                .until(() -> next.getState() == Thread.State.WAITING || next.getState() == Thread.State.TIMED_WAITING);
        assertThat(store.permits).as("the next commit has not reached the store").hasSize(1);

        hold.countDown();
        next.join(LONG.toMillis());

        assertThat(store.writes).as("in the order they were made")
                .containsExactly(Map.of(new TopicAndPartition("t", 0), 100L), Map.of(new TopicAndPartition("t", 0), 150L));
        assertThat(state.committed(T0)).isEqualTo(150L);
        committer.close();
    }

    @Test
    void commitAsyncReturnsBeforeTheWriteAndTellsItsOutcomeFromALaterCall() {
        subscribe();
        own(0L, T0);
        OffsetCommitter committer = committer(false);
        CountDownLatch hold = new CountDownLatch(1);
        store.held = hold;
        List<RuntimeException> told = new CopyOnWriteArrayList<>();

        committer.commitAsync(Map.of(T0, 40L), told::add);
        await("the write has reached the store").atMost(LONG).until(() -> store.permits.size() == 1);
        assertThat(told).as("returned while the store holds the write").isEmpty();

        hold.countDown();
        await("the outcome, taken by a later call").atMost(LONG).until(() -> {
            committer.commitNearCap(Collections.emptySet()); // what every poll calls
            return !told.isEmpty();
        });
        assertThat(told).containsExactly((RuntimeException) null);
        assertThat(state.committed(T0)).isEqualTo(40L);
        committer.close();
    }

    @Test
    void aRevocationWaitsForTheCommitInFlightToLandBeforeThePartitionsGo() throws Exception {
        subscribe();
        own(0L, T0);
        OffsetCommitter committer = committer(false);
        CountDownLatch hold = new CountDownLatch(1);
        store.held = hold;
        List<RuntimeException> told = new CopyOnWriteArrayList<>();
        Thread revoking = Thread.currentThread();
        // lets the write go only once the revocation waits for it: a revocation that does not wait sees nothing written
        Thread releaser = new Thread(() -> {
            await().atMost(LONG).until(() -> store.permits.size() == 1
                    && (revoking.getState() == Thread.State.WAITING || revoking.getState() == Thread.State.TIMED_WAITING));
            hold.countDown();
        });
        releaser.setDaemon(true);
        try {
            committer.commitAsync(Map.of(T0, 8L), told::add);
            releaser.start();
            committer.beforeRevoke(Collections.singleton(T0), Deadline.after(LONG, Time.SYSTEM));

            assertThat(store.writes).as("written before the revocation went on")
                    .containsExactly(Collections.singletonMap(new TopicAndPartition("t", 0), 8L));
            assertThat(told).as("its outcome told on the revoking thread").containsExactly((RuntimeException) null);
        } finally {
            hold.countDown();
            releaser.join(LONG.toMillis());
            committer.close();
        }
    }

    @Test
    void commitAsyncOfAPartitionNotOwnedTellsACommitFailedExceptionAsCommitSyncWouldThrow() {
        subscribe();
        own(0L, T0);
        OffsetCommitter committer = committer(false);
        List<RuntimeException> told = new CopyOnWriteArrayList<>();

        committer.commitAsync(Map.of(new TopicPartition("t", 9), 5L), told::add);
        committer.close(); // close takes the outcome of the write in flight at the latest

        assertThat(told).singleElement().isInstanceOf(CommitFailedException.class);
        assertThat(store.writes).isEmpty();
    }

    @Test
    void aFailedCommitAtTheCapIsRetriedNoSoonerThanASecondLater() {
        subscribe();
        own(0L, T0);
        state.position(T0, 100);
        OffsetCommitter committer = autoCommitEveryHour();
        store.failure = new OffsetStoreException("ZooKeeper unreachable", null);

        committer.commitNearCap(Collections.singleton(T0));
        await("the failure taken").atMost(LONG).until(() -> {
            committer.commitNearCap(Collections.singleton(T0));
            return !committer.commitInFlight();
        });
        committer.commitNearCap(Collections.singleton(T0));

        assertThat(store.permits).as("one attempt; the next ones wait for the retry").hasSize(1);
        assertThat(state.committed(T0)).isEqualTo(0L);
        committer.close();
    }

    @Test
    void withoutAutoCommitTheCapWaitsForTheApplicationsCommit() {
        subscribe();
        own(0L, T0);
        state.position(T0, 100);

        committer(false).commitNearCap(Collections.singleton(T0));

        assertThat(store.permits).isEmpty();
    }

    private OffsetCommitter autoCommitEveryHour() {
        Map<String, Object> props = new HashMap<>();
        props.put("group.id", "g");
        props.put("zookeeper.connect", "127.0.0.1:2181");
        props.put("auto.commit.interval.ms", "3600000");
        return new OffsetCommitter(ZkConsumerConfig.from(props), "g_m", store, state, metrics, Time.SYSTEM);
    }
}
