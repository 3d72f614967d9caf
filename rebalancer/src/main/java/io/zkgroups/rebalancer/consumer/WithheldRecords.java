package io.zkgroups.rebalancer.consumer;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Records the {@link PartitionFetcher} fetched but did not hand out because their partition reached the
 * {@link UncommittedCap}: kept in order, per partition, and handed out first once a commit moves the partition off the
 * cap. Seeking back and fetching them again would cost a fetch per partition each time the cap is met, which a
 * partition read at full speed meets every few thousand records. A partition's withheld records begin at its position
 * (the next offset the application gets); they are dropped whenever that position moves otherwise (a seek, a
 * revocation, a new start).
 * <p>
 * At most one poll's records per partition: a partition holding withheld records is not fetched until they are gone.
 * <p>
 * <b>Threading.</b> The thread inside the consumer only.
 */
final class WithheldRecords<K, V> {

    private final Map<TopicPartition, List<ConsumerRecord<K, V>>> byPartition = new HashMap<>();

    /** Keeps {@code records} of {@code tp} (a copy), in place of any kept before. Empty: keeps none. */
    void withhold(TopicPartition tp, List<ConsumerRecord<K, V>> records) {
        if (records.isEmpty()) {
            byPartition.remove(tp);
        } else {
            byPartition.put(tp, new ArrayList<>(records));
        }
    }

    /** Puts {@code records} of {@code tp} back before any kept of it: they were released but did not go out. */
    void keepFirst(TopicPartition tp, List<ConsumerRecord<K, V>> records) {
        List<ConsumerRecord<K, V>> kept = new ArrayList<>(records);
        List<ConsumerRecord<K, V>> after = byPartition.get(tp);
        if (after != null) {
            kept.addAll(after);
        }
        if (!kept.isEmpty()) {
            byPartition.put(tp, kept);
        }
    }

    /** Removes and returns the records of the partitions {@code releasable} accepts, each partition's in order. */
    Map<TopicPartition, List<ConsumerRecord<K, V>>> release(Predicate<TopicPartition> releasable) {
        Map<TopicPartition, List<ConsumerRecord<K, V>>> released = new HashMap<>();
        Iterator<Map.Entry<TopicPartition, List<ConsumerRecord<K, V>>>> it = byPartition.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<TopicPartition, List<ConsumerRecord<K, V>>> kept = it.next();
            if (releasable.test(kept.getKey())) {
                released.put(kept.getKey(), kept.getValue());
                it.remove();
            }
        }
        return released;
    }

    boolean holds(TopicPartition tp) {
        return byPartition.containsKey(tp);
    }

    boolean isEmpty() {
        return byPartition.isEmpty();
    }

    /** The partitions with records kept. */
    Set<TopicPartition> partitions() {
        Set<TopicPartition> partitions = new TreeSet<>(KafkaPartitions.ORDER);
        partitions.addAll(byPartition.keySet());
        return partitions;
    }

    /** The offset of the first record kept of {@code tp}, null if none is. */
    Long firstOffset(TopicPartition tp) {
        List<ConsumerRecord<K, V>> kept = byPartition.get(tp);
        return kept == null ? null : kept.get(0).offset();
    }

    /** How many records of {@code tp} are kept. */
    int count(TopicPartition tp) {
        List<ConsumerRecord<K, V>> kept = byPartition.get(tp);
        return kept == null ? 0 : kept.size();
    }

    /** Drops what is kept of {@code partitions}: their position moved. */
    void drop(Collection<TopicPartition> partitions) {
        byPartition.keySet().removeAll(partitions);
    }

    /** Drops what is kept of every partition not in {@code partitions}: those left. */
    void retain(Collection<TopicPartition> partitions) {
        byPartition.keySet().retainAll(partitions);
    }

    /** Each partition's {@code released} records, then what the inner client fetched of it since. */
    static <K, V> ConsumerRecords<K, V> merge(Map<TopicPartition, List<ConsumerRecord<K, V>>> released,
                                              ConsumerRecords<K, V> fetched) {
        if (released.isEmpty()) {
            return fetched;
        }
        Map<TopicPartition, List<ConsumerRecord<K, V>>> merged = new HashMap<>(released);
        for (TopicPartition tp : fetched.partitions()) {
            List<ConsumerRecord<K, V>> first = merged.get(tp);
            if (first == null) {
                merged.put(tp, fetched.records(tp));
            } else {
                List<ConsumerRecord<K, V>> both = new ArrayList<>(first);
                both.addAll(fetched.records(tp));
                merged.put(tp, both);
            }
        }
        return new ConsumerRecords<>(merged);
    }
}
