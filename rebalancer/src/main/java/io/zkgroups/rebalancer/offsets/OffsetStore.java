package io.zkgroups.rebalancer.offsets;

import io.zkgroups.registry.model.TopicAndPartition;

import java.util.Collection;
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
     * Stores {@code offsets}; returns the partitions whose offset was accepted (all of them unless the store
     * rejected some). Throws {@link OffsetStoreException} when the store could not be reached at all.
     */
    Set<TopicAndPartition> commit(String group, Map<TopicAndPartition, Long> offsets);

    /** A short name for messages: {@code zookeeper}, {@code kafka} or {@code kafka+zookeeper}. */
    String name();

    @Override
    default void close() {
    }
}
