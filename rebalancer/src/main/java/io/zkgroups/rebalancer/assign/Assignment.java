package io.zkgroups.rebalancer.assign;

import io.zkgroups.registry.Immutable;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Which thread owns which partition: the value an owner znode {@code /consumers/G/owners/T/P} would hold.
 * Partitions that nobody owns (a topic nobody subscribes to) are simply absent.
 */
public final class Assignment {

    private static final Assignment EMPTY = new Assignment(Collections.emptyMap());

    private final SortedMap<TopicAndPartition, ThreadId> owners;

    /** @throws NullPointerException if the map, a partition or a thread is null */
    public Assignment(Map<TopicAndPartition, ThreadId> owners) {
        Objects.requireNonNull(owners, "owners cannot be null");
        owners.forEach((partition, thread) -> {
            if (partition == null || thread == null) {
                throw new NullPointerException(partition == null ? "partition cannot be null"
                        : "owner of " + partition + " cannot be null");
            }
        });
        // A map already in natural order is copied in linear time, without comparing keys (the assignors' case).
        SortedMap<TopicAndPartition, ThreadId> copy = owners instanceof SortedMap
                && ((SortedMap<TopicAndPartition, ThreadId>) owners).comparator() == null
                ? new TreeMap<>((SortedMap<TopicAndPartition, ThreadId>) owners) : new TreeMap<>(owners);
        this.owners = Collections.unmodifiableSortedMap(copy);
    }

    /** Partition → owning thread, copied and ordered by topic, then partition. */
    public Map<TopicAndPartition, ThreadId> owners() {
        return owners;
    }

    public static Assignment empty() {
        return EMPTY;
    }

    /** The thread that owns {@code partition}, if any. */
    public Optional<ThreadId> owner(TopicAndPartition partition) {
        return Optional.ofNullable(owners.get(partition));
    }

    /** Only the rows owned by threads of {@code consumer}: what that member computes for itself in 0.8.2.2. */
    public Assignment forConsumer(ConsumerId consumer) {
        Objects.requireNonNull(consumer, "consumer cannot be null");
        SortedMap<TopicAndPartition, ThreadId> mine = new TreeMap<>();
        owners.forEach((partition, thread) -> {
            if (thread.consumer().equals(consumer)) {
                mine.put(partition, thread);
            }
        });
        return new Assignment(mine);
    }

    /** The partitions owned by {@code thread}, ordered by topic, then partition; empty if it owns none. */
    public List<TopicAndPartition> partitionsOf(ThreadId thread) {
        Objects.requireNonNull(thread, "thread cannot be null");
        return owners.entrySet().stream()
                .filter(row -> row.getValue().equals(thread))
                .map(Map.Entry::getKey)
                .collect(Immutable.toList());
    }

    public boolean isEmpty() {
        return owners.isEmpty();
    }

    /** Number of owned partitions. */
    public int size() {
        return owners.size();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Assignment && owners.equals(((Assignment) other).owners);
    }

    @Override
    public int hashCode() {
        return owners.hashCode();
    }

    @Override
    public String toString() {
        return "Assignment[owners=" + owners + "]";
    }
}
