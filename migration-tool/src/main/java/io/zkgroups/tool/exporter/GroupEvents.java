package io.zkgroups.tool.exporter;

import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.tool.history.GroupSnapshot;
import io.zkgroups.tool.history.HistoryEvent;
import io.zkgroups.tool.history.HistoryTracker;
import io.zkgroups.tool.lag.GroupSample;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What the exporter counts of each group's history between its reads: joins and leaves, rebalances and the last one's
 * duration, offsets moved back, commit stalls ({@link HistoryTracker} over the samples, so at the resolution of the
 * reads), and the entries its audit journal gained. Counters start when the exporter does. Not thread-safe.
 */
final class GroupEvents {

    /** One group's counts. */
    static final class Counts {
        long joined;
        long left;
        long rebalances;
        double lastRebalanceSeconds = Double.NaN;
        long rewinds;
        long stalls;
        long auditEntries;
        String lastAuditEntry;
        boolean auditSeen;
    }

    private final Duration stallAfter;
    private final Map<String, HistoryTracker> trackers = new HashMap<>();
    private final Map<String, Map<TopicAndPartition, GroupSnapshot.Owned>> owners = new HashMap<>();
    private final Map<String, Map<String, Instant>> members = new HashMap<>();
    private final Map<String, Counts> counts = new TreeMap<>();

    GroupEvents(Duration stallAfter) {
        this.stallAfter = stallAfter;
    }

    /** Counts what changed in {@code sample} since the last one of its group. */
    void add(GroupSample sample) {
        String group = sample.group();
        Counts c = counts.computeIfAbsent(group, g -> new Counts());
        GroupSnapshot snapshot = snapshot(sample);
        List<HistoryEvent> events = trackers.computeIfAbsent(group, g -> new HistoryTracker(stallAfter))
                .next(snapshot, List::of);
        for (HistoryEvent e : events) {
            switch (e.type()) {
                case "member-joined" -> c.joined++;
                case "member-left" -> c.left++;
                case "rebalance-ended" -> {
                    c.rebalances++;
                    c.lastRebalanceSeconds = e.durationMs() / 1000.0;
                }
                case "offset-rewound" -> c.rewinds++;
                case "commit-stalled" -> c.stalls++;
                default -> {
                }
            }
        }
    }

    /** Counts the entries of {@code group}'s audit journal ({@code names}: its children) not seen before. */
    void audit(String group, List<String> names) {
        Counts c = counts.computeIfAbsent(group, g -> new Counts());
        String newest = names.stream().max(String::compareTo).orElse(null);
        if (!c.auditSeen) {
            c.auditEntries = names.size();
        } else if (c.lastAuditEntry == null) {
            c.auditEntries += names.size();
        } else {
            c.auditEntries += names.stream().filter(n -> n.compareTo(c.lastAuditEntry) > 0).count();
        }
        c.auditSeen = true;
        if (newest != null) {
            c.lastAuditEntry = newest;
        }
    }

    /** Forgets every group not in {@code groups}. */
    void retain(Set<String> groups) {
        trackers.keySet().retainAll(groups);
        owners.keySet().retainAll(groups);
        members.keySet().retainAll(groups);
        counts.keySet().retainAll(groups);
    }

    Map<String, Counts> counts() {
        return counts;
    }

    /** The sample as a snapshot; a member's join and a partition's claim are dated by the read that first saw them. */
    private GroupSnapshot snapshot(GroupSample s) {
        Map<String, Instant> seenMembers = members.computeIfAbsent(s.group(), g -> new HashMap<>());
        Map<String, Instant> m = new HashMap<>();
        for (String id : s.memberIds()) {
            m.put(id, seenMembers.getOrDefault(id, s.at()));
        }
        seenMembers.clear();
        seenMembers.putAll(m);
        Map<TopicAndPartition, GroupSnapshot.Owned> seenOwners = owners.computeIfAbsent(s.group(), g -> new HashMap<>());
        Map<TopicAndPartition, GroupSnapshot.Owned> o = new HashMap<>();
        Map<TopicAndPartition, Long> offsets = new HashMap<>();
        Map<TopicAndPartition, GroupSnapshot.Committed> zk = new HashMap<>();
        Map<TopicAndPartition, Long> ends = new HashMap<>();
        for (GroupSample.PartitionRead r : s.partitions()) {
            if (r.owner() != null) {
                GroupSnapshot.Owned before = seenOwners.get(r.partition());
                o.put(r.partition(), before != null && before.thread().equals(r.owner()) ? before
                        : new GroupSnapshot.Owned(r.owner(), s.at()));
            }
            Long offset = r.offset(s.phase().phase());
            if (offset != null) {
                offsets.put(r.partition(), offset);
            }
            if (r.zookeeperOffset() != null && r.zookeeperMtime() != null) {
                zk.put(r.partition(), new GroupSnapshot.Committed(r.zookeeperOffset(), r.zookeeperMtime()));
            }
            if (r.logEnd() != null) {
                ends.put(r.partition(), r.logEnd());
            }
        }
        seenOwners.clear();
        seenOwners.putAll(o);
        return new GroupSnapshot(s.group(), s.at(), s.phase().phase().label(), m, o, offsets, zk, ends);
    }
}
