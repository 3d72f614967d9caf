package io.zkgroups.registry.store;

import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.ZkNames;
import io.zkgroups.registry.codec.DecodeException;
import io.zkgroups.registry.codec.OffsetCodec;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.TopicAndPartition;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * Reads the members, owners and offsets of many groups at once, for monitoring: four pipelined rounds whatever the
 * number of groups (list the groups' {@code ids}, {@code owners} and {@code offsets} directories; list the topic
 * directories; read every owner and offset znode), so a scan of a thousand groups costs about four round trips plus the
 * transfer. Registrations are listed, not read: monitoring needs who is registered, not what they subscribe to.
 * Nothing is watched; malformed names and data are reported per group, never thrown.
 */
public final class GroupScan {

    /** An offset znode: the offset and when it was last written (ZooKeeper's mtime). */
    public record StoredOffset(long offset, Instant mtime) {
    }

    /**
     * One group as scanned.
     *
     * @param members    registered consumer ids (znode names under {@code ids})
     * @param owners     readable owner znodes
     * @param offsets    readable offset znodes
     * @param unreadable names and data that could not be read, with the reason
     */
    public record ScannedGroup(String group, List<ConsumerId> members, List<PartitionOwner> owners,
                               Map<TopicAndPartition, StoredOffset> offsets, List<Unreadable> unreadable) {
        public ScannedGroup {
            members = List.copyOf(members);
            owners = List.copyOf(owners);
            offsets = java.util.Collections.unmodifiableMap(new TreeMap<>(offsets));
            unreadable = List.copyOf(unreadable);
        }
    }

    private final Znodes znodes;
    private final ZkLayout layout;

    public GroupScan(Znodes znodes, ZkLayout layout) {
        this.znodes = Objects.requireNonNull(znodes, "znodes cannot be null");
        this.layout = Objects.requireNonNull(layout, "layout cannot be null");
    }

    /** Every group under {@code /consumers} with a legal name, sorted. */
    public List<String> groups() {
        return znodes.children(layout.consumers()).stream().filter(ZkNames::isValid).sorted().toList();
    }

    /** Scans {@code groups}; a group that does not exist is returned empty. */
    public Map<String, ScannedGroup> scan(Collection<String> groups) {
        Map<String, String> idsDirs = new TreeMap<>();
        Map<String, String> ownersDirs = new TreeMap<>();
        Map<String, String> offsetsDirs = new TreeMap<>();
        for (String group : groups) {
            idsDirs.put(layout.memberIds(group), group);
            ownersDirs.put(layout.owners(group), group);
            offsetsDirs.put(layout.offsets(group), group);
        }
        List<String> level1 = new ArrayList<>(idsDirs.keySet());
        level1.addAll(ownersDirs.keySet());
        level1.addAll(offsetsDirs.keySet());
        Map<String, List<String>> listed = znodes.childrenAll(level1);

        Map<String, Builder> builders = new TreeMap<>();
        groups.forEach(g -> builders.put(g, new Builder(g)));
        idsDirs.forEach((dir, group) -> listed.getOrDefault(dir, List.of()).forEach(id -> {
            try {
                builders.get(group).members.add(new ConsumerId(id));
            } catch (IllegalArgumentException e) {
                builders.get(group).unreadable.add(new Unreadable(dir + "/" + id, e.getMessage()));
            }
        }));
        // topic directories of owners and offsets: dir -> (group, topic, is-offsets)
        Map<String, TopicDir> topicDirs = new TreeMap<>();
        collectTopicDirs(ownersDirs, listed, false, topicDirs, builders);
        collectTopicDirs(offsetsDirs, listed, true, topicDirs, builders);
        Map<String, List<String>> partitions = znodes.childrenAll(topicDirs.keySet());

        Map<String, Leaf> leaves = new TreeMap<>();
        topicDirs.forEach((dir, topicDir) -> partitions.getOrDefault(dir, List.of()).forEach(child -> {
            OptionalInt p = ZkLayout.parsePartition(child);
            if (p.isEmpty()) {
                builders.get(topicDir.group).unreadable.add(new Unreadable(dir + "/" + child, "'" + child + "' is not a partition number"));
            } else {
                leaves.put(dir + "/" + child, new Leaf(topicDir, new TopicAndPartition(topicDir.topic, p.getAsInt())));
            }
        }));
        znodes.readAll(leaves.keySet(), null).forEach((path, data) -> {
            Leaf leaf = leaves.get(path);
            Builder b = builders.get(leaf.dir.group);
            if (!leaf.dir.offsets) {
                PartitionOwner owner = PartitionOwner.of(leaf.partition, data);
                if (owner.value().isEmpty()) {
                    b.unreadable.add(new Unreadable(path, "owner znode has no data (expected a thread id)"));
                } else {
                    b.owners.add(owner);
                }
                return;
            }
            try {
                b.offsets.put(leaf.partition, new StoredOffset(OffsetCodec.decode(data.bytes()),
                        Instant.ofEpochMilli(data.stat().getMtime())));
            } catch (DecodeException e) {
                b.unreadable.add(new Unreadable(path, e.getMessage()));
            }
        });
        Map<String, ScannedGroup> result = new TreeMap<>();
        builders.forEach((g, b) -> result.put(g, b.build()));
        return result;
    }

    private static void collectTopicDirs(Map<String, String> parents, Map<String, List<String>> listed, boolean offsets,
                                         Map<String, TopicDir> into, Map<String, Builder> builders) {
        parents.forEach((dir, group) -> listed.getOrDefault(dir, List.of()).forEach(topic -> {
            if (ZkNames.isValid(topic)) {
                into.put(dir + "/" + topic, new TopicDir(group, topic, offsets));
            } else {
                builders.get(group).unreadable.add(new Unreadable(dir + "/" + topic, "'" + topic + "' is not a valid topic name"));
            }
        }));
    }

    private record TopicDir(String group, String topic, boolean offsets) {
    }

    private record Leaf(TopicDir dir, TopicAndPartition partition) {
    }

    private static final class Builder {
        private final String group;
        private final List<ConsumerId> members = new ArrayList<>();
        private final List<PartitionOwner> owners = new ArrayList<>();
        private final Map<TopicAndPartition, StoredOffset> offsets = new TreeMap<>();
        private final List<Unreadable> unreadable = new ArrayList<>();

        Builder(String group) {
            this.group = group;
        }

        ScannedGroup build() {
            members.sort(null);
            owners.sort((a, b) -> a.partition().compareTo(b.partition()));
            unreadable.sort((a, b) -> a.path().compareTo(b.path()));
            return new ScannedGroup(group, members, owners, offsets, unreadable);
        }
    }
}
