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
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * The inner {@code KafkaConsumer} (assign() mode, no Kafka group), kept in step with the {@link SubscriptionState}: it
 * fetches exactly the fetched partitions, from their committed offsets or where {@code auto.offset.reset} says, lets
 * out only the records the member's fence allows and the {@link UncommittedCap} leaves room for (pausing a partition
 * at the cap until a commit moves it on), and writes back the positions it reached, which the
 * {@link OffsetCommitter} commits. A position the fetcher must look up (an offset reset) is looked up without waiting
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
    private final UncommittedCap cap;
    /** Partitions the inner client does not fetch because they reached the cap; resumed once a commit moves them on. */
    private final Set<TopicPartition> capped = new TreeSet<>(KafkaPartitions.ORDER);
    /** Partitions the application paused: a partition leaving the cap stays paused if it is one of them. */
    private final Set<TopicPartition> pausedByApplication = new TreeSet<>(KafkaPartitions.ORDER);

    PartitionFetcher(KafkaConsumer<K, V> consumer, SubscriptionState state, ZkConsumerConfig.ResetPolicy resetPolicy,
                     Duration lookupTimeout, boolean connectEarly, UncommittedCap cap, Time time) {
        this.cap = cap;
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
        SortedSet<TopicPartition> fetched = state.fetched();
        consumer.assign(new ArrayList<>(fetched));
        capped.retainAll(fetched);
        pausedByApplication.retainAll(fetched);
    }

    /** Starts fetching {@code started} (fetched in the state now): at their committed offsets, or reset. */
    void start(Collection<TopicPartition> started) {
        if (started.isEmpty()) {
            return;
        }
        earlyRequestsLeft = 0; // the fetch connects now
        follow();
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
        SortedSet<TopicPartition> fetched = state.fetched();
        return fence != null && !fetched.isEmpty() && !fence.deliverable(state.fetchedEpochs(fetched)).isEmpty();
    }

    /**
     * Fetches for up to {@code timeout} and returns the records the fence lets out now: of partitions this consumer
     * owns under the current grant, not being revoked, with the lease of their session holding. The rest are put back
     * (the fetcher seeks to their first offset).
     */
    ConsumerRecords<K, V> poll(Duration timeout) {
        releaseCapped();
        ConsumerRecords<K, V> records = consumer.poll(timeout);
        SortedSet<TopicPartition> fetching = state.fetched();
        fetching.removeAll(capped); // not fetched while at the cap: no answer is due for them
        reachability.observe(fetching);
        ConsumerRecords<K, V> out = capped(deliverable(records));
        for (TopicPartition tp : out.partitions()) {
            learnPosition(tp);
        }
        if (!state.unknownPositions().isEmpty()) {
            resolvePositionsQuietly(state.fetched(), Deadline.after(Duration.ZERO, time));
        }
        pauseCapped();
        return out;
    }

    /**
     * The fetched partitions that handed out all {@code zkgroups.max.uncommitted.records} allow past their last
     * confirmed commit: nothing more of them goes out until a commit is confirmed.
     */
    SortedSet<TopicPartition> atCap() {
        return uncommitted(cap::reached);
    }

    /**
     * The fetched partitions past half of {@code zkgroups.max.uncommitted.records}: auto-commit commits them then, so
     * that a partition catching up is committed on before it reaches the cap and its fetching never stops.
     */
    SortedSet<TopicPartition> pastHalfCap() {
        return uncommitted(cap::pastHalf);
    }

    private SortedSet<TopicPartition> uncommitted(java.util.function.BiPredicate<Long, Long> test) {
        SortedSet<TopicPartition> matching = new TreeSet<>(KafkaPartitions.ORDER);
        if (cap.enabled()) {
            state.positions().forEach((tp, position) -> {
                if (test.test(state.uncommittedFrom(tp), position)) {
                    matching.add(tp);
                }
            });
        }
        return matching;
    }

    /** Of each partition's records, those the cap lets out; the fetcher seeks back to the first one it withheld. */
    private ConsumerRecords<K, V> capped(ConsumerRecords<K, V> records) {
        if (records.isEmpty()) {
            return records;
        }
        Map<TopicPartition, List<ConsumerRecord<K, V>>> out = new HashMap<>();
        boolean withheld = false;
        for (TopicPartition tp : records.partitions()) {
            List<ConsumerRecord<K, V>> list = records.records(tp);
            state.handingOut(tp, list.get(0).offset());
            int allowed = cap.allowed(state.uncommittedFrom(tp), list.get(0).offset(), list.size());
            if (allowed < list.size()) {
                withheld = true;
                seek(tp, list.get(allowed).offset());
            }
            if (allowed > 0) {
                out.put(tp, allowed < list.size() ? list.subList(0, allowed) : list);
            }
        }
        if (!withheld) {
            return records;
        }
        return out.isEmpty() ? ConsumerRecords.<K, V>empty() : new ConsumerRecords<>(out);
    }

    /** The inner client stops fetching partitions at the cap: their records would only be withheld. */
    private void pauseCapped() {
        SortedSet<TopicPartition> at = atCap();
        at.removeAll(capped);
        if (!at.isEmpty()) {
            consumer.pause(at);
            capped.addAll(at);
        }
    }

    /** Partitions a commit moved off the cap (or that left) are fetched again, unless the application paused them. */
    private void releaseCapped() {
        if (capped.isEmpty()) {
            return;
        }
        SortedSet<TopicPartition> at = atCap();
        List<TopicPartition> released = new ArrayList<>();
        for (TopicPartition tp : capped) {
            if (!at.contains(tp)) {
                released.add(tp);
            }
        }
        capped.removeAll(released);
        released.removeAll(pausedByApplication);
        released.retainAll(consumer.assignment());
        if (!released.isEmpty()) {
            consumer.resume(released);
        }
    }

    // --- the application's pauses, kept apart from the cap's ------------------------------------------------------

    /** The partitions the application paused (those paused at the cap only are not). */
    Set<TopicPartition> paused() {
        Set<TopicPartition> paused = new TreeSet<>(KafkaPartitions.ORDER);
        for (TopicPartition tp : consumer.paused()) {
            if (!capped.contains(tp) || pausedByApplication.contains(tp)) {
                paused.add(tp);
            }
        }
        return paused;
    }

    void pause(Collection<TopicPartition> partitions) {
        consumer.pause(partitions);
        pausedByApplication.addAll(partitions);
    }

    void resume(Collection<TopicPartition> partitions) {
        pausedByApplication.removeAll(partitions);
        List<TopicPartition> resumed = new ArrayList<>(partitions);
        resumed.removeAll(capped);
        consumer.resume(resumed);
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

    /** After records of {@code tp} went out the fetcher's position is known: it is the next offset to commit. */
    private void learnPosition(TopicPartition tp) {
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
        consumer.seek(tp, offset);
        state.position(tp, offset);
    }

    void seek(TopicPartition tp, OffsetAndMetadata offset) {
        consumer.seek(tp, offset);
        state.position(tp, offset.offset());
    }

    void seekToBeginning(Collection<TopicPartition> partitions) {
        consumer.seekToBeginning(partitions);
        state.positionUnknown(partitions);
    }

    void seekToEnd(Collection<TopicPartition> partitions) {
        consumer.seekToEnd(partitions);
        state.positionUnknown(partitions);
    }

    /** The fetcher's position of {@code tp}, waiting up to {@code default.api.timeout.ms} for it to be looked up. */
    long position(TopicPartition tp) {
        long position = consumer.position(tp);
        state.position(tp, position);
        return position;
    }

    /** The fetcher's position of {@code tp}, waiting up to {@code timeout} for it to be looked up. */
    long position(TopicPartition tp, Duration timeout) {
        long position = consumer.position(tp, timeout);
        state.position(tp, position);
        return position;
    }
}
