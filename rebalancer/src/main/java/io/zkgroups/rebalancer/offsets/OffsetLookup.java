package io.zkgroups.rebalancer.offsets;

import io.zkgroups.registry.model.TopicAndPartition;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What a read of committed offsets found, partition by partition: the offsets stored, and the partitions whose offset
 * could not be known (an unreadable znode, an unreachable store) with the reason. A partition in neither has no
 * committed offset. One bad partition never hides the offsets of the others.
 */
public final class OffsetLookup {
    private final SortedMap<TopicAndPartition, Long> offsets;
    private final SortedMap<TopicAndPartition, String> unknown;

    public OffsetLookup(SortedMap<TopicAndPartition, Long> offsets, SortedMap<TopicAndPartition, String> unknown) {
        this.offsets = Collections.unmodifiableSortedMap(new TreeMap<>(offsets));
        this.unknown = Collections.unmodifiableSortedMap(new TreeMap<>(unknown));
    }

    public static OffsetLookup of(Map<TopicAndPartition, Long> offsets, Map<TopicAndPartition, String> unknown) {
        return new OffsetLookup(new TreeMap<>(offsets), new TreeMap<>(unknown));
    }

    public SortedMap<TopicAndPartition, Long> offsets() {
        return offsets;
    }

    public SortedMap<TopicAndPartition, String> unknown() {
        return unknown;
    }

    @Override
    public boolean equals(Object other) {
        if (this == other) {
            return true;
        }
        if (!(other instanceof OffsetLookup)) {
            return false;
        }
        OffsetLookup that = (OffsetLookup) other;
        return Objects.equals(offsets, that.offsets) && Objects.equals(unknown, that.unknown);
    }

    @Override
    public int hashCode() {
        return Objects.hash(offsets, unknown);
    }

    @Override
    public String toString() {
        return "OffsetLookup[offsets=" + offsets + ", unknown=" + unknown + "]";
    }
}
