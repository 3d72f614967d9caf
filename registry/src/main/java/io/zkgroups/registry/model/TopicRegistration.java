package io.zkgroups.registry.model;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A topic registration ({@code /brokers/topics/T}): partition → replica broker ids, JSON v1 or v2
 * (v2 adds {@code adding_replicas}/{@code removing_replicas} and, from 2.8, {@code topic_id}).
 */
public record TopicRegistration(int version, SortedMap<Integer, List<Integer>> replicas,
                                Optional<String> topicId) {

    public TopicRegistration {
        Objects.requireNonNull(replicas, "replicas cannot be null");
        TreeMap<Integer, List<Integer>> copy = new TreeMap<>();
        replicas.forEach((p, r) -> {
            if (p < 0) {
                throw new IllegalArgumentException("partition must be >= 0, got " + p);
            }
            copy.put(p, List.copyOf(r));
        });
        replicas = Collections.unmodifiableSortedMap(copy);
        Objects.requireNonNull(topicId, "topicId cannot be null");
    }

    /** A v1 registration with partitions {@code 0..count-1}, each on the given replicas. */
    public static TopicRegistration v1(int partitionCount, List<Integer> replicasOfEach) {
        if (partitionCount < 0) {
            throw new IllegalArgumentException("partition count must be >= 0, got " + partitionCount);
        }
        TreeMap<Integer, List<Integer>> map = new TreeMap<>();
        for (int p = 0; p < partitionCount; p++) {
            map.put(p, replicasOfEach);
        }
        return new TopicRegistration(1, map, Optional.empty());
    }

    /** A copy with partitions {@code 0..newCount-1}; new partitions get {@code replicasOfNew}. */
    public TopicRegistration withPartitionCount(int newCount, List<Integer> replicasOfNew) {
        if (newCount < replicas.size()) {
            throw new IllegalArgumentException("partitions can only be added: has " + replicas.size()
                    + ", asked for " + newCount);
        }
        TreeMap<Integer, List<Integer>> map = new TreeMap<>(replicas);
        for (int p = 0; p < newCount; p++) {
            map.putIfAbsent(p, replicasOfNew);
        }
        return new TopicRegistration(version, map, topicId);
    }

    /** Partition ids, ascending (what 0.8.2.2's {@code getPartitionsForTopics} returns). */
    public List<Integer> partitions() {
        return List.copyOf(replicas.keySet());
    }

    public int partitionCount() {
        return replicas.size();
    }

    public Map<Integer, List<Integer>> replicaMap() {
        return replicas;
    }
}
