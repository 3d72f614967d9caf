package io.zkgroups.tool.io;

import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.store.Unreadable;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** A group's ZooKeeper offsets with the time each znode was last written, and the znodes that cannot be read. */
public record ZkOffsetSnapshot(Map<TopicAndPartition, Long> offsets, Map<TopicAndPartition, Instant> mtimes,
                               List<Unreadable> unreadable) {

    public ZkOffsetSnapshot {
        offsets = java.util.Collections.unmodifiableMap(new TreeMap<>(offsets));
        mtimes = java.util.Collections.unmodifiableMap(new TreeMap<>(mtimes));
        unreadable = List.copyOf(unreadable);
    }

    public static ZkOffsetSnapshot empty() {
        return new ZkOffsetSnapshot(Map.of(), Map.of(), List.of());
    }
}
