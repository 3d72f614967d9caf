package io.zkgroups.rebalancer.consumer;

import io.zkgroups.rebalancer.group.OwnershipFence;
import io.zkgroups.registry.Time;
import io.zkgroups.registry.model.TopicAndPartition;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.WakeupException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * The inner {@code KafkaConsumer} (assign() mode, no Kafka group), kept in step with the {@link SubscriptionState}: it
 * fetches exactly the fetched partitions, from their committed offsets or where {@code auto.offset.reset} says, lets
 * out only the records the member's fence allows and the {@link CapGate} lets past the uncommitted cap, and writes
 * back the positions it reached, which the {@link OffsetCommitter} commits. A position the fetcher must look up (an offset reset) is looked up without waiting
 * after each fetch, and within a deadline when a commit needs it ({@link #resolvePositions}).
 * <p>
 * <b>Threading.</b> The thread inside the consumer only, like {@code KafkaConsumer} itself.
 */
final class PartitionFetcher<K, V> {

    /**
     * The early connect asks at most this often: a request that has not been answered yet stays queued in the client
     * (it is sent once connected), so asking on every idle slice would send a pile of them.
     */
    private static final long EARLY_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /** Bounds the early connect: a broker that does not answer within this many requests is left to the fetch. */
    private static final int EARLY_REQUESTS = 20;

    private final KafkaConsumer<K, V> consumer;
    private final SubscriptionState state;
    private final ZkConsumerConfig.ResetPolicy resetPolicy;
    /** The fetcher's default.api.timeout.ms: no lookup waits longer, as with KafkaConsumer's own position(). */
    private final Duration lookupTimeout;
    /** Metadata requests the poll thread may still make to connect early; 0 once connected, or when it is not to. */
    private int earlyRequestsLeft;
    private final Time time;
    private long nextEarlyRequestAt;
    private final KafkaReachability reachability;
    private final CapGate<K, V> gate;
    private final FetchWait fetchWait = new FetchWait();

    PartitionFetcher(KafkaConsumer<K, V> consumer, SubscriptionState state, ZkConsumerConfig.ResetPolicy resetPolicy,
                     Duration lookupTimeout, boolean connectEarly, UncommittedCap cap, Time time) {
        this.gate = new CapGate<>(consumer, state, cap);
        this.time = time;
        this.nextEarlyRequestAt = time.nanoseconds();
        this.consumer = consumer;
        this.state = state;
        this.resetPolicy = resetPolicy;
        this.lookupTimeout = lookupTimeout;
        this.earlyRequestsLeft = connectEarly ? EARLY_REQUESTS : 0;
        this.reachability = new KafkaReachability(state.memberName(), consumer::metrics, time);
    }

    /** Whether Kafka answers this fetcher, as seen after its last poll. */
    KafkaReachability reachability() {
        return reachability;
    }

    /**
     * While nothing may be fetched yet (the member is joining), spends up to {@code slice} of the poll thread's idle
     * time on a metadata request for the cluster's topics (not for a topic: that could create it). A fresh client
     * connects to the broker and loads its network code on its first request; done here, that overlaps the group's
     * rebalance instead of following the claim while the new partitions wait. Returns false when it asked nothing:
     * the caller then waits for the group's events.
     *
     * @throws WakeupException as from {@link #poll}
     */
    boolean connectEarly(Duration slice) {
        if (earlyRequestsLeft == 0 || time.nanoseconds() - nextEarlyRequestAt < 0) {
            return false;
        }
        earlyRequestsLeft--;
        nextEarlyRequestAt = time.nanoseconds() + EARLY_INTERVAL_NANOS;
        try {
            consumer.listTopics(slice);
            earlyRequestsLeft = 0;
        } catch (TimeoutException e) {
            // not answered yet: the request stays queued, a later idle slice looks again
        } catch (WakeupException | InterruptException e) {
            throw e;
        } catch (KafkaException e) {
            earlyRequestsLeft = 0; // the fetch meets and reports whatever this is
        }
        return true;
    }

    /** Fetches what the state says is fetched, no more: after partitions left it. */
    void follow() {
        SortedSet<TopicPartition> fetched = state.fetchedView();
        consumer.assign(new ArrayList<>(fetched));
        gate.retain(fetched);
    }

    /** Starts fetching {@code started} (fetched in the state now): at their committed offsets, or reset. */
    void start(Collection<TopicPartition> started) {
        if (started.isEmpty()) {
            return;
        }
        earlyRequestsLeft = 0; // the fetch connects now
        follow();
        gate.moved(started);
        Map<TopicPartition, Long> committed = state.positions(started);
        List<TopicPartition> withoutOffset = new ArrayList<>();
        for (TopicPartition tp : started) {
            Long offset = committed.get(tp);
            if (offset != null && offset >= 0) {
                consumer.seek(tp, offset);
            } else {
                withoutOffset.add(tp);
            }
        }
        if (!withoutOffset.isEmpty()) {
            state.positionUnknown(withoutOffset);
            switch (resetPolicy) {
                case EARLIEST:
                    consumer.seekToBeginning(withoutOffset);
                    break;
                case LATEST:
                    consumer.seekToEnd(withoutOffset);
                    break;
                default:
                    // NONE: the inner consumer has auto.offset.reset=none, its poll throws NoOffsetForPartitionException
                    break;
            }
        }
    }

    /** Whether some fetched partition may hand out records now. */
    boolean canFetch() {
        OwnershipFence fence = state.fence();
        return fence != null && state.anyDeliverable(fence);
    }

    /**
     * Fetches for up to {@code timeout} and returns the records the fence lets out now: of partitions this consumer
     * owns under the current grant, not being revoked, with the lease of their session holding. The rest are put back
     * (the fetcher seeks to their first offset). Withheld records a commit made room for come first, without waiting.
     */
    ConsumerRecords<K, V> poll(Duration timeout) {
        Map<TopicPartition, List<ConsumerRecord<K, V>>> released = gate.released();
        ConsumerRecords<K, V> records;
        try {
            records = pollUntilNews(released.isEmpty() ? timeout : Duration.ZERO);
        } catch (RuntimeException e) {
            // a wakeup from another thread, most often: nothing went out, so what was released is kept again (the
            // inner client's position is past it: it would never be fetched again)
            gate.keepAgain(released);
            throw e;
        }
        SortedSet<TopicPartition> fetching = state.fetchedView();
        if (!gate.stopped().isEmpty()) {
            fetching = new TreeSet<>(fetching);
            fetching.removeAll(gate.stopped()); // not fetched while at the cap: no answer is due for them
        }
        reachability.observe(fetching);
        ConsumerRecords<K, V> out = gate.cut(deliverable(WithheldRecords.merge(released, records)));
        for (TopicPartition tp : out.partitions()) {
            learnPosition(tp);
        }
        if (state.anyUnknownPosition()) {
            resolvePositionsQuietly(state.fetchedView(), Deadline.after(Duration.ZERO, time));
        }
        gate.stopAtCap();
        return out;
    }

    /**
     * Any thread: the group has news for the poll thread (a rebalance event). If the poll thread waits in the fetch
     * client's poll, that poll returns now: a revocation, which the member's release waits for, or the fetch of
     * partitions just assigned, need not wait for the end of the poll slice.
     */
    void news() {
        fetchWait.interrupt(consumer::wakeup);
    }

    /**
     * The fetch client's poll, which {@link #news} may cut short: then it returns what it has, none if it threw the
     * wakeup. The wakeup sent may still be pending in the client (the poll was past its last look at it) and would
     * make its next call throw: a poll that may not wait takes it, or, if nothing was pending, fetches what it can
     * without waiting; records it returns are handed out with the rest, or kept if the poll failed.
     *
     * @throws WakeupException if the application's wakeup met the poll first
     */
    private ConsumerRecords<K, V> pollUntilNews(Duration timeout) {
        fetchWait.enter();
        ConsumerRecords<K, V> records = ConsumerRecords.empty();
        RuntimeException failure = null;
        try {
            records = consumer.poll(timeout);
        } catch (RuntimeException e) {
            failure = e;
        }
        if (fetchWait.leave()) {
            if (failure instanceof WakeupException) {
                failure = null; // ours; had the application's come too, the poll loop's own flag still says so
            }
            try {
                records = WithheldRecords.merge(byPartition(records), consumer.poll(Duration.ZERO));
            } catch (WakeupException taken) {
                // what was pending
            } catch (RuntimeException e) {
                failure = failure == null ? e : failure;
            }
        }
        if (failure != null) {
            gate.keepAgain(byPartition(records));
            throw failure;
        }
        return records;
    }

    private static <K, V> Map<TopicPartition, List<ConsumerRecord<K, V>>> byPartition(ConsumerRecords<K, V> records) {
        Map<TopicPartition, List<ConsumerRecord<K, V>>> map = new HashMap<>();
        for (TopicPartition tp : records.partitions()) {
            map.put(tp, records.records(tp));
        }
        return map;
    }

    /** The fetched partitions at {@code zkgroups.max.uncommitted.records}: see {@link CapGate#atCap}. */
    SortedSet<TopicPartition> atCap() {
        return gate.atCap();
    }

    /** The fetched partitions past half of {@code zkgroups.max.uncommitted.records}: auto-commit commits them then. */
    SortedSet<TopicPartition> pastHalfCap() {
        return gate.pastHalfCap();
    }

    /** The partitions the application paused (those paused at the cap only are not). */
    Set<TopicPartition> paused() {
        return gate.paused();
    }

    void pause(Collection<TopicPartition> partitions) {
        gate.pause(partitions);
    }

    void resume(Collection<TopicPartition> partitions) {
        gate.resume(partitions);
    }

    private ConsumerRecords<K, V> deliverable(ConsumerRecords<K, V> records) {
        if (records.isEmpty()) {
            return records;
        }
        OwnershipFence fence = state.fence();
        Set<TopicAndPartition> allowed = fence == null ? new TreeSet<TopicAndPartition>()
                : fence.deliverable(state.fetchedEpochs(records.partitions()));
        if (allowed.size() == records.partitions().size()) {
            return records;
        }
        Map<TopicPartition, List<ConsumerRecord<K, V>>> out = new HashMap<>();
        for (TopicPartition tp : records.partitions()) {
            List<ConsumerRecord<K, V>> list = records.records(tp);
            if (allowed.contains(KafkaPartitions.toRegistry(tp))) {
                out.put(tp, list);
            } else if (state.isFetched(tp)) {
                seek(tp, list.get(0).offset());
            }
        }
        return out.isEmpty() ? ConsumerRecords.<K, V>empty() : new ConsumerRecords<>(out);
    }

    /**
     * After records of {@code tp} went out the fetcher's position is known: it is the next offset to commit, the first
     * withheld one if any.
     */
    private void learnPosition(TopicPartition tp) {
        Long firstWithheld = gate.firstWithheld(tp);
        if (firstWithheld != null) {
            state.position(tp, firstWithheld);
            return;
        }
        try {
            state.position(tp, consumer.position(tp, Duration.ZERO));
        } catch (KafkaException e) {
            state.positionUnknown(Collections.singleton(tp));
        }
    }

    /**
     * Looks up the positions the state does not know (offset resets) until {@code deadline}; a lookup that cannot
     * answer then is left unknown. Returns the fetched partitions whose position is still unknown.
     */
    SortedSet<TopicPartition> resolvePositions(Deadline deadline) {
        SortedSet<TopicPartition> unresolved = new TreeSet<>(KafkaPartitions.ORDER);
        for (TopicPartition tp : state.unknownPositions()) {
            try {
                state.position(tp, consumer.position(tp, deadline.remaining()));
            } catch (TimeoutException e) {
                unresolved.add(tp);
            }
        }
        return unresolved;
    }

    /**
     * As {@link #resolvePositions}, for {@code partitions} only and for no longer than the fetcher's
     * default.api.timeout.ms, where nothing may interrupt the caller (records already fetched, a revocation under way):
     * any failure of a lookup (a wakeup, an interrupt, no offset to reset to) leaves that position unknown; a wakeup
     * stays pending in the facade's flag, an interrupt in the thread's flag.
     */
    SortedSet<TopicPartition> resolvePositionsQuietly(Collection<TopicPartition> partitions, Deadline deadline) {
        Deadline bound = deadline.within(lookupTimeout);
        SortedSet<TopicPartition> unresolved = new TreeSet<>(KafkaPartitions.ORDER);
        SortedSet<TopicPartition> unknown = state.unknownPositions();
        unknown.retainAll(partitions);
        for (TopicPartition tp : unknown) {
            try {
                state.position(tp, consumer.position(tp, bound.remaining()));
            } catch (KafkaException | IllegalStateException e) {
                unresolved.add(tp);
            }
        }
        return unresolved;
    }

    // --- the application's own moves ----------------------------------------------------------------------------

    void seek(TopicPartition tp, long offset) {
        gate.moved(Collections.singleton(tp));
        consumer.seek(tp, offset);
        state.position(tp, offset);
    }

    void seek(TopicPartition tp, OffsetAndMetadata offset) {
        gate.moved(Collections.singleton(tp));
        consumer.seek(tp, offset);
        state.position(tp, offset.offset());
    }

    void seekToBeginning(Collection<TopicPartition> partitions) {
        gate.moved(partitions);
        consumer.seekToBeginning(partitions);
        state.positionUnknown(partitions);
    }

    void seekToEnd(Collection<TopicPartition> partitions) {
        gate.moved(partitions);
        consumer.seekToEnd(partitions);
        state.positionUnknown(partitions);
    }

    /** The fetcher's position of {@code tp}, waiting up to {@code default.api.timeout.ms} for it to be looked up. */
    long position(TopicPartition tp) {
        Long firstWithheld = gate.firstWithheld(tp);
        if (firstWithheld != null) {
            return firstWithheld;
        }
        long position = consumer.position(tp);
        state.position(tp, position);
        return position;
    }

    /** The fetcher's position of {@code tp}, waiting up to {@code timeout} for it to be looked up. */
    long position(TopicPartition tp, Duration timeout) {
        Long firstWithheld = gate.firstWithheld(tp);
        if (firstWithheld != null) {
            return firstWithheld;
        }
        long position = consumer.position(tp, timeout);
        state.position(tp, position);
        return position;
    }

    /** The inner client's lag of {@code tp}, plus the records withheld: they are not consumed yet. */
    OptionalLong currentLag(TopicPartition tp) {
        OptionalLong lag = consumer.currentLag(tp);
        return lag.isPresent() ? OptionalLong.of(lag.getAsLong() + gate.withheldCount(tp)) : lag;
    }
}
