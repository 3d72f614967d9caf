package io.zkgroups.rebalancer.offsets;

import io.zkgroups.registry.model.TopicAndPartition;

import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What a read of committed offsets found, partition by partition: the offsets stored, and the partitions whose offset
 * could not be known (an unreadable znode, an unreachable store) with the reason. A partition in neither has no
 * committed offset. One bad partition never hides the offsets of the others.
 */
public record OffsetLookup(SortedMap<TopicAndPartition, Long> offsets, SortedMap<TopicAndPartition, String> unknown) {

    public OffsetLookup {
        offsets = Collections.unmodifiableSortedMap(new TreeMap<>(offsets));
        unknown = Collections.unmodifiableSortedMap(new TreeMap<>(unknown));
    }

    public static OffsetLookup of(Map<TopicAndPartition, Long> offsets, Map<TopicAndPartition, String> unknown) {
        return new OffsetLookup(new TreeMap<>(offsets), new TreeMap<>(unknown));
    }
}
