package io.zkgroups.registry.store;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import io.zkgroups.registry.Immutable;
import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.ZkNames;
import io.zkgroups.registry.codec.DecodeException;
import io.zkgroups.registry.codec.OffsetCodec;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.TopicAndPartition;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
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
 * <p>
 * Thread-safe: it keeps no state of its own; each scan is independent.
 */
public final class GroupScan {

    /** An offset znode: the offset and when it was last written (ZooKeeper's mtime). */
    @JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY) // JSON output (CLI) shows the fields
    public static final class StoredOffset {
        private final long offset;
        private final Instant mtime;

        public StoredOffset(long offset, Instant mtime) {
            this.offset = offset;
            this.mtime = mtime;
        }

        public long offset() {
            return offset;
        }

        public Instant mtime() {
            return mtime;
        }

        @Override
        public boolean equals(Object o) {
            if (o == this) {
                return true;
            }
            if (!(o instanceof StoredOffset)) {
                return false;
            }
            StoredOffset that = (StoredOffset) o;
            return offset == that.offset
                    && Objects.equals(mtime, that.mtime);
        }

        @Override
        public int hashCode() {
            int h = 0;
            h = 31 * h + Long.hashCode(offset);
            h = 31 * h + Objects.hashCode(mtime);
            return h;
        }

        @Override
        public String toString() {
            return "StoredOffset[offset=" + offset + ", mtime=" + mtime + "]";
        }
    }

    /** One group as scanned. */
    @JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY) // JSON output (CLI) shows the fields
    public static final class ScannedGroup {
        private final String group;
        private final List<ConsumerId> members;
        private final List<PartitionOwner> owners;
        private final Map<TopicAndPartition, StoredOffset> offsets;
        private final List<Unreadable> unreadable;
        private final List<ConsumerId> alarmed;

        /** As below, no member publishing alarms. */
        public ScannedGroup(String group, List<ConsumerId> members, List<PartitionOwner> owners, Map<TopicAndPartition, StoredOffset> offsets, List<Unreadable> unreadable) {
            this(group, members, owners, offsets, unreadable, Collections.emptyList());
        }

        /**
         * Creates it from its parts.
         *
         * @param members    registered consumer ids (znode names under {@code ids})
         * @param owners     readable owner znodes
         * @param offsets    readable offset znodes
         * @param unreadable names and data that could not be read, with the reason
         * @param alarmed    registered members that publish alarms ({@link MemberAlarmRegistry}: partitions they
         *                   cannot fetch or resume)
         */
        public ScannedGroup(String group, List<ConsumerId> members, List<PartitionOwner> owners, Map<TopicAndPartition, StoredOffset> offsets, List<Unreadable> unreadable,
                            List<ConsumerId> alarmed) {
            alarmed = Immutable.list(alarmed);
            this.alarmed = alarmed;
            members = Immutable.list(members);
            owners = Immutable.list(owners);
            offsets = java.util.Collections.unmodifiableMap(new TreeMap<>(offsets));
            unreadable = Immutable.list(unreadable);
            this.group = group;
            this.members = members;
            this.owners = owners;
            this.offsets = offsets;
            this.unreadable = unreadable;
        }

        public String group() {
            return group;
        }

        public List<ConsumerId> members() {
            return members;
        }

        public List<PartitionOwner> owners() {
            return owners;
        }

        public Map<TopicAndPartition, StoredOffset> offsets() {
            return offsets;
        }

        public List<Unreadable> unreadable() {
            return unreadable;
        }

        /** Registered members that publish alarms now. */
        public List<ConsumerId> alarmed() {
            return alarmed;
        }

        @Override
        public boolean equals(Object o) {
            if (o == this) {
                return true;
            }
            if (!(o instanceof ScannedGroup)) {
                return false;
            }
            ScannedGroup that = (ScannedGroup) o;
            return Objects.equals(group, that.group)
                    && Objects.equals(members, that.members)
                    && Objects.equals(owners, that.owners)
                    && Objects.equals(offsets, that.offsets)
                    && Objects.equals(unreadable, that.unreadable)
                    && Objects.equals(alarmed, that.alarmed);
        }

        @Override
        public int hashCode() {
            int h = 0;
            h = 31 * h + Objects.hashCode(group);
            h = 31 * h + Objects.hashCode(members);
            h = 31 * h + Objects.hashCode(owners);
            h = 31 * h + Objects.hashCode(offsets);
            h = 31 * h + Objects.hashCode(unreadable);
            h = 31 * h + Objects.hashCode(alarmed);
            return h;
        }

        @Override
        public String toString() {
            return "ScannedGroup[group=" + group + ", members=" + members + ", owners=" + owners + ", offsets=" + offsets
                    + ", unreadable=" + unreadable + ", alarmed=" + alarmed + "]";
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
        return znodes.children(layout.consumers()).stream().filter(ZkNames::isValid).sorted().collect(Immutable.toList());
    }

    /** Scans {@code groups}; a group that does not exist is returned empty. */
    public Map<String, ScannedGroup> scan(Collection<String> groups) {
        Map<String, String> idsDirs = new TreeMap<>();
        Map<String, String> ownersDirs = new TreeMap<>();
        Map<String, String> offsetsDirs = new TreeMap<>();
        Map<String, String> alarmsDirs = new TreeMap<>();
        for (String group : groups) {
            alarmsDirs.put(layout.memberAlarms(group), group);
            idsDirs.put(layout.memberIds(group), group);
            ownersDirs.put(layout.owners(group), group);
            offsetsDirs.put(layout.offsets(group), group);
        }
        List<String> level1 = new ArrayList<>(idsDirs.keySet());
        level1.addAll(ownersDirs.keySet());
        level1.addAll(offsetsDirs.keySet());
        level1.addAll(alarmsDirs.keySet());
        Map<String, List<String>> listed = znodes.childrenAll(level1);

        Map<String, Builder> builders = new TreeMap<>();
        groups.forEach(g -> builders.put(g, new Builder(g)));
        idsDirs.forEach((dir, group) -> listed.getOrDefault(dir, Collections.emptyList()).forEach(id -> {
            try {
                builders.get(group).members.add(new ConsumerId(id));
            } catch (IllegalArgumentException e) {
                builders.get(group).unreadable.add(new Unreadable(dir + "/" + id, e.getMessage()));
            }
        }));
        alarmsDirs.forEach((dir, group) -> listed.getOrDefault(dir, Collections.emptyList()).forEach(id -> {
            Builder b = builders.get(group);
            if (b.members.stream().anyMatch(m -> m.value().equals(id))) { // a member gone leaves nothing of the group's
                b.alarmed.add(new ConsumerId(id));
            }
        }));
        // topic directories of owners and offsets: dir -> (group, topic, is-offsets)
        Map<String, TopicDir> topicDirs = new TreeMap<>();
        collectTopicDirs(ownersDirs, listed, false, topicDirs, builders);
        collectTopicDirs(offsetsDirs, listed, true, topicDirs, builders);
        Map<String, List<String>> partitions = znodes.childrenAll(topicDirs.keySet());

        Map<String, Leaf> leaves = new TreeMap<>();
        topicDirs.forEach((dir, topicDir) -> partitions.getOrDefault(dir, Collections.emptyList()).forEach(child -> {
            OptionalInt p = ZkLayout.parsePartition(child);
            if (!p.isPresent()) {
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
        parents.forEach((dir, group) -> listed.getOrDefault(dir, Collections.emptyList()).forEach(topic -> {
            if (ZkNames.isValid(topic)) {
                into.put(dir + "/" + topic, new TopicDir(group, topic, offsets));
            } else {
                builders.get(group).unreadable.add(new Unreadable(dir + "/" + topic, "'" + topic + "' is not a valid topic name"));
            }
        }));
    }

    private static final class TopicDir {
        private final String group;
        private final String topic;
        private final boolean offsets;

        private TopicDir(String group, String topic, boolean offsets) {
            this.group = group;
            this.topic = topic;
            this.offsets = offsets;
        }

        public String group() {
            return group;
        }

        public String topic() {
            return topic;
        }

        public boolean offsets() {
            return offsets;
        }

        @Override
        public boolean equals(Object o) {
            if (o == this) {
                return true;
            }
            if (!(o instanceof TopicDir)) {
                return false;
            }
            TopicDir that = (TopicDir) o;
            return Objects.equals(group, that.group)
                    && Objects.equals(topic, that.topic)
                    && offsets == that.offsets;
        }

        @Override
        public int hashCode() {
            int h = 0;
            h = 31 * h + Objects.hashCode(group);
            h = 31 * h + Objects.hashCode(topic);
            h = 31 * h + Boolean.hashCode(offsets);
            return h;
        }

        @Override
        public String toString() {
            return "TopicDir[group=" + group + ", topic=" + topic + ", offsets=" + offsets + "]";
        }
    }

    private static final class Leaf {
        private final TopicDir dir;
        private final TopicAndPartition partition;

        private Leaf(TopicDir dir, TopicAndPartition partition) {
            this.dir = dir;
            this.partition = partition;
        }

        public TopicDir dir() {
            return dir;
        }

        public TopicAndPartition partition() {
            return partition;
        }

        @Override
        public boolean equals(Object o) {
            if (o == this) {
                return true;
            }
            if (!(o instanceof Leaf)) {
                return false;
            }
            Leaf that = (Leaf) o;
            return Objects.equals(dir, that.dir)
                    && Objects.equals(partition, that.partition);
        }

        @Override
        public int hashCode() {
            int h = 0;
            h = 31 * h + Objects.hashCode(dir);
            h = 31 * h + Objects.hashCode(partition);
            return h;
        }

        @Override
        public String toString() {
            return "Leaf[dir=" + dir + ", partition=" + partition + "]";
        }
    }

    private static final class Builder {
        private final String group;
        private final List<ConsumerId> members = new ArrayList<>();
        private final List<PartitionOwner> owners = new ArrayList<>();
        private final Map<TopicAndPartition, StoredOffset> offsets = new TreeMap<>();
        private final List<Unreadable> unreadable = new ArrayList<>();
        private final List<ConsumerId> alarmed = new ArrayList<>();

        Builder(String group) {
            this.group = group;
        }

        ScannedGroup build() {
            members.sort(null);
            owners.sort((a, b) -> a.partition().compareTo(b.partition()));
            unreadable.sort((a, b) -> a.path().compareTo(b.path()));
            alarmed.sort(null);
            return new ScannedGroup(group, members, owners, offsets, unreadable, alarmed);
        }
    }
}
