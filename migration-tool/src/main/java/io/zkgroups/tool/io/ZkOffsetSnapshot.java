package io.zkgroups.tool.io;

import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.store.Unreadable;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A group's ZooKeeper offsets with the time each znode was last written, and the znodes that cannot be read.
 *
 * @param undecodable offset znodes of partitions whose data is not an offset, by partition
 * @param strays      children of the offset directories that name no topic or partition
 */
public record ZkOffsetSnapshot(Map<TopicAndPartition, Long> offsets, Map<TopicAndPartition, java.time.Instant> mtimes,
                               Map<TopicAndPartition, Unreadable> undecodable, List<Unreadable> strays) {

    public ZkOffsetSnapshot {
        offsets = Collections.unmodifiableMap(new TreeMap<>(offsets));
        mtimes = Collections.unmodifiableMap(new TreeMap<>(mtimes));
        undecodable = Collections.unmodifiableMap(new TreeMap<>(undecodable));
        strays = List.copyOf(strays);
    }

    public static ZkOffsetSnapshot empty() {
        return new ZkOffsetSnapshot(Map.of(), Map.of(), Map.of(), List.of());
    }

    /** Every znode that cannot be read: the undecodable offsets and the strays. */
    public List<Unreadable> unreadable() {
        List<Unreadable> all = new ArrayList<>(strays);
        all.addAll(undecodable.values());
        return all;
    }
}
