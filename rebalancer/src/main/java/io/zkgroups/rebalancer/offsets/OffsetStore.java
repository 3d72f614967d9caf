package io.zkgroups.rebalancer.offsets;

import io.zkgroups.registry.model.TopicAndPartition;

import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.Set;

/**
 * Where a group's offsets live: ZooKeeper ({@link ZkOffsets}), Kafka ({@link KafkaOffsets}) or both
 * ({@link DualOffsets}, 0.8.2.2's dual commit). An offset is always the next offset to consume.
 */
public interface OffsetStore extends AutoCloseable {

    /** Stored offsets of {@code partitions}; a partition without one is absent. */
    Map<TopicAndPartition, Long> read(String group, Collection<TopicAndPartition> partitions);

    /**
     * Offsets of {@code partitions}, partition by partition: one that cannot be read is reported with its reason
     * instead of failing the others. The default reads all at once and reports all as unknown if that fails.
     */
    default OffsetLookup lookup(String group, Collection<TopicAndPartition> partitions) {
        try {
            return OffsetLookup.of(read(group, partitions), Collections.emptyMap());
        } catch (OffsetStoreException e) {
            Map<TopicAndPartition, String> unknown = new java.util.TreeMap<>();
            partitions.forEach(tp -> unknown.put(tp, e.getMessage()));
            return OffsetLookup.of(Collections.emptyMap(), unknown);
        }
    }

    /**
     * As {@link #lookup(String, Collection)}, waiting at most {@code timeout} for a store that is reached over the
     * network (Kafka): the rebalance path uses it, and must never wait long on Kafka (docs/kafka-outage.md). A store
     * that does not answer in time reports the partitions unknown. The default ignores the bound (ZooKeeper is the
     * group's own path).
     */
    default OffsetLookup lookup(String group, Collection<TopicAndPartition> partitions, java.time.Duration timeout) {
        return lookup(group, partitions);
    }

    /**
     * Stores {@code offsets}; returns the partitions whose offset was accepted (all of them unless the store
     * rejected some). Throws {@link OffsetStoreException} when the store could not be reached at all.
     */
    Set<TopicAndPartition> commit(String group, Map<TopicAndPartition, Long> offsets);

    /**
     * Stores offsets of partitions this member owns, under {@code permit} from its ownership fence: on the ZooKeeper
     * session that owns them and never on another, and (for stores that cannot be bound to the session) by the
     * permit's deadline. An unfenced permit makes it {@link #commit(String, Map)}.
     *
     * @throws FencedException if the store found the ownership gone; nothing was written
     */
    Set<TopicAndPartition> commit(String group, Map<TopicAndPartition, Long> offsets, CommitPermit permit);

    /** A short name for messages: {@code zookeeper}, {@code kafka} or {@code kafka+zookeeper}. */
    String name();

    @Override
    default void close() {
    }
}
