package io.zkgroups.rebalancer.consumer;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.BiPredicate;

/**
 * The {@link UncommittedCap} applied to the fetcher's batches: of each partition it lets out only what the cap leaves
 * room for past the last confirmed commit, keeps the rest as {@link WithheldRecords}, and stops the inner client
 * fetching a partition at the cap (or with records withheld) until a commit moves it on. It keeps the application's
 * pauses apart from its own, so that a partition leaving the cap stays paused if the application paused it.
 * <p>
 * Example, a cap of 100, committed 500: a batch of 150 from 560 → 560–599 go out, 600–709 are withheld and the
 * partition is paused; a commit of 600 confirmed → 600–699 go out first, 700–709 stay withheld.
 * <p>
 * <b>Threading.</b> The thread inside the consumer only.
 */
final class CapGate<K, V> {

    private final KafkaConsumer<K, V> consumer;
    private final SubscriptionState state;
    private final UncommittedCap cap;
    private final WithheldRecords<K, V> withheld = new WithheldRecords<>();
    /** Partitions the inner client does not fetch because of the cap; resumed once a commit moves them on. */
    private final Set<TopicPartition> stopped = new TreeSet<>(KafkaPartitions.ORDER);
    /** Partitions the application paused. */
    private final Set<TopicPartition> pausedByApplication = new TreeSet<>(KafkaPartitions.ORDER);

    CapGate(KafkaConsumer<K, V> consumer, SubscriptionState state, UncommittedCap cap) {
        this.consumer = consumer;
        this.state = state;
        this.cap = cap;
    }

    /**
     * Before a fetch: the withheld records a commit made room for (removed from those kept), and partitions off the cap
     * with nothing withheld fetched again.
     */
    Map<TopicPartition, List<ConsumerRecord<K, V>>> released() {
        Map<TopicPartition, List<ConsumerRecord<K, V>>> released = withheld.release(this::mayHandOut);
        resumeOffCap();
        return released;
    }

    /**
     * What {@link #released} returned did not go out after all (the fetch that followed threw): kept again, and their
     * partitions not fetched until they are gone, as before the release.
     */
    void keepAgain(Map<TopicPartition, List<ConsumerRecord<K, V>>> released) {
        if (released.isEmpty()) {
            return;
        }
        released.forEach(withheld::keepFirst);
        stopAtCap();
    }

    /** Of each partition's records, those the cap lets out; the rest are withheld. */
    ConsumerRecords<K, V> cut(ConsumerRecords<K, V> records) {
        if (records.isEmpty()) {
            return records;
        }
        Map<TopicPartition, List<ConsumerRecord<K, V>>> out = new HashMap<>();
        boolean anyWithheld = false;
        for (TopicPartition tp : records.partitions()) {
            List<ConsumerRecord<K, V>> list = records.records(tp);
            state.handingOut(tp, list.get(0).offset());
            int allowed = cap.allowed(state.uncommittedFrom(tp), list.get(0).offset(), list.size());
            if (allowed < list.size()) {
                anyWithheld = true;
                withheld.withhold(tp, list.subList(allowed, list.size()));
            }
            if (allowed > 0) {
                out.put(tp, allowed < list.size() ? list.subList(0, allowed) : list);
            }
        }
        if (!anyWithheld) {
            return records;
        }
        return out.isEmpty() ? ConsumerRecords.<K, V>empty() : new ConsumerRecords<>(out);
    }

    /** After a fetch: the inner client stops fetching partitions at the cap or with records withheld. */
    void stopAtCap() {
        SortedSet<TopicPartition> stopping = atCap();
        if (!withheld.isEmpty()) {
            stopping.addAll(withheld.partitions());
        }
        stopping.removeAll(stopped);
        if (!stopping.isEmpty()) {
            consumer.pause(stopping);
            stopped.addAll(stopping);
        }
    }

    /** The partitions the inner client does not fetch because of the cap. */
    Set<TopicPartition> stopped() {
        return stopped;
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

    /** The offset of the first withheld record of {@code tp} (its position), null if none is withheld. */
    Long firstWithheld(TopicPartition tp) {
        return withheld.firstOffset(tp);
    }

    int withheldCount(TopicPartition tp) {
        return withheld.count(tp);
    }

    /** The position of {@code partitions} moved (a seek, a new start): what was withheld of them is dropped. */
    void moved(Collection<TopicPartition> partitions) {
        withheld.drop(partitions);
    }

    /** Only {@code fetched} are fetched now: the rest are forgotten. */
    void retain(Collection<TopicPartition> fetched) {
        withheld.retain(fetched);
        stopped.retainAll(fetched);
        pausedByApplication.retainAll(fetched);
    }

    // --- the application's pauses, kept apart from the cap's ------------------------------------------------------

    /** The partitions the application paused (those stopped at the cap only are not). */
    Set<TopicPartition> paused() {
        Set<TopicPartition> paused = new TreeSet<>(KafkaPartitions.ORDER);
        for (TopicPartition tp : consumer.paused()) {
            if (!stopped.contains(tp) || pausedByApplication.contains(tp)) {
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
        resumed.removeAll(stopped);
        consumer.resume(resumed);
    }

    // ---------------------------------------------------------------------------------------------------------------

    /** Whether withheld records of {@code tp} may go out now: off the cap, not paused by the application. */
    private boolean mayHandOut(TopicPartition tp) {
        return state.isFetched(tp) && !pausedByApplication.contains(tp)
                && !cap.reached(state.uncommittedFrom(tp), withheld.firstOffset(tp));
    }

    /** Partitions a commit moved off the cap (or that left) are fetched again, unless the application paused them. */
    private void resumeOffCap() {
        if (stopped.isEmpty()) {
            return;
        }
        SortedSet<TopicPartition> at = atCap();
        List<TopicPartition> resumed = new ArrayList<>();
        for (TopicPartition tp : stopped) {
            if (!at.contains(tp) && !withheld.holds(tp)) {
                resumed.add(tp);
            }
        }
        stopped.removeAll(resumed);
        resumed.removeAll(pausedByApplication);
        resumed.retainAll(consumer.assignment());
        if (!resumed.isEmpty()) {
            consumer.resume(resumed);
        }
    }

    private SortedSet<TopicPartition> uncommitted(BiPredicate<Long, Long> test) {
        return cap.enabled() ? state.fetchedWhere(test) : new TreeSet<>(KafkaPartitions.ORDER);
    }
}
