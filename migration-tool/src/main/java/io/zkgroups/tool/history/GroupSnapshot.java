package io.zkgroups.tool.history;

import io.zkgroups.registry.model.TopicAndPartition;

import java.time.Instant;
import java.util.Map;

/**
 * A group at one moment, with the znode stats the history is built from.
 *
 * @param at       ZooKeeper's time of the read
 * @param phase    where its offsets are written (the coordinator of its offsets: zookeeper-only, dual-commit, kafka-only)
 * @param members  registered consumer ids and their registration's ctime
 * @param owners   owned partitions: the owner thread and the owner znode's ctime (the claim)
 * @param offsets  the offset the group reads, per partition
 * @param zkOffsets the ZooKeeper offsets and their mtimes
 * @param logEnds  the log end of each partition, when Kafka answered
 */
public record GroupSnapshot(String group, Instant at, String phase, Map<String, Instant> members,
                            Map<TopicAndPartition, Owned> owners, Map<TopicAndPartition, Long> offsets,
                            Map<TopicAndPartition, Committed> zkOffsets, Map<TopicAndPartition, Long> logEnds) {

    public GroupSnapshot {
        members = Map.copyOf(members);
        owners = Map.copyOf(owners);
        offsets = Map.copyOf(offsets);
        zkOffsets = Map.copyOf(zkOffsets);
        logEnds = Map.copyOf(logEnds);
    }

    /** An owner znode: the thread id it holds and when it was created. */
    public record Owned(String thread, Instant claimedAt) {
    }

    /** A ZooKeeper offset and when it was last written. */
    public record Committed(long offset, Instant mtime) {
    }

    /** Whether every owner is a thread of a registered member. */
    public boolean ownersAreMembers() {
        return owners.values().stream().allMatch(o -> members.keySet().stream().anyMatch(m -> o.thread().startsWith(m + "-")));
    }
}
