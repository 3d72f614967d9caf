package io.zkgroups.registry.model;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import io.zkgroups.registry.Immutable;

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
@JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY) // JSON output (CLI) shows the fields
public final class TopicRegistration {
    private final int version;
    private final SortedMap<Integer, List<Integer>> replicas;
    private final Optional<String> topicId;

    public TopicRegistration(int version, SortedMap<Integer, List<Integer>> replicas, Optional<String> topicId) {
        Objects.requireNonNull(replicas, "replicas cannot be null");
        TreeMap<Integer, List<Integer>> copy = new TreeMap<>();
        copy.putAll(replicas); // linear from a map in natural order: no key is compared again
        copy.replaceAll((p, r) -> {
            if (p < 0) {
                throw new IllegalArgumentException("partition must be >= 0, got " + p);
            }
            return Immutable.list(r);
        });
        replicas = Collections.unmodifiableSortedMap(copy);
        Objects.requireNonNull(topicId, "topicId cannot be null");
        this.version = version;
        this.replicas = replicas;
        this.topicId = topicId;
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
        return Immutable.list(replicas.keySet());
    }

    public int partitionCount() {
        return replicas.size();
    }

    public Map<Integer, List<Integer>> replicaMap() {
        return replicas;
    }

    public int version() {
        return version;
    }

    public SortedMap<Integer, List<Integer>> replicas() {
        return replicas;
    }

    public Optional<String> topicId() {
        return topicId;
    }

    @Override
    public boolean equals(Object o) {
        if (o == this) {
            return true;
        }
        if (!(o instanceof TopicRegistration)) {
            return false;
        }
        TopicRegistration that = (TopicRegistration) o;
        return version == that.version
                && Objects.equals(replicas, that.replicas)
                && Objects.equals(topicId, that.topicId);
    }

    @Override
    public int hashCode() {
        int h = 0;
        h = 31 * h + Integer.hashCode(version);
        h = 31 * h + Objects.hashCode(replicas);
        h = 31 * h + Objects.hashCode(topicId);
        return h;
    }

    @Override
    public String toString() {
        return "TopicRegistration[version=" + version + ", replicas=" + replicas + ", topicId=" + topicId + "]";
    }
}
