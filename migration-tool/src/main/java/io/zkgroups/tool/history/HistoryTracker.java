package io.zkgroups.tool.history;

import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.tool.audit.AuditEntry;
import io.zkgroups.tool.group.MemberHost;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * Turns successive {@link GroupSnapshot}s of one group into {@link HistoryEvent}s: members that joined (at their
 * registration's ctime) and left (seen gone), rebalances (from the first change to the last claim of a settled
 * assignment, with what started them), ownership moves, commit stalls, offsets moved backwards (attributed to the tool
 * whose audit entry wrote that value — looked up again at the next look when none has yet —, else to the partition's
 * owner, else {@code unattributed}) and coordinator
 * changes (the phase of the group's offsets). The first snapshot is the baseline and yields nothing. Pure apart from
 * its memory of the previous snapshot; not thread-safe.
 */
public final class HistoryTracker {

    private static final String SOURCE = "watcher";

    private record Open(Instant start, String cause) {
    }

    /**
     * An offset seen moving back. A tool writes its audit entry right after the offsets, so a rewind with no entry yet
     * is looked up once more at the next look before it is attributed to the owner or to nobody.
     */
    private record Rewind(HistoryEvent event, TopicAndPartition partition, long after, String otherwise, boolean retried) {
    }

    private final List<Rewind> pending = new ArrayList<>();

    private final Duration stallAfter;
    private GroupSnapshot previous;
    private Open rebalance;
    private Set<TopicAndPartition> settledOwners = Set.of();
    private final Map<TopicAndPartition, String> lastOwner = new HashMap<>();
    private final Set<TopicAndPartition> stalled = new HashSet<>();

    /** @param stallAfter how long an owned partition with backlog may go without a commit before it counts as stalled */
    public HistoryTracker(Duration stallAfter) {
        this.stallAfter = stallAfter;
    }

    /**
     * The events between the previous snapshot and {@code current}, in time order.
     *
     * @param audit the group's audit entries, asked for only when an offset moved backwards
     */
    public List<HistoryEvent> next(GroupSnapshot current, Supplier<List<AuditEntry>> audit) {
        GroupSnapshot prev = previous;
        previous = current;
        if (prev == null) {
            current.owners().forEach((tp, o) -> lastOwner.put(tp, o.thread()));
            settledOwners = current.ownersAreMembers() ? current.owners().keySet() : Set.of();
            return List.of();
        }
        String at = current.at().toString();
        List<HistoryEvent> events = new ArrayList<>();
        String cause = null;
        Instant start = null;

        for (String m : new TreeSet<>(current.members().keySet())) {
            if (!prev.members().containsKey(m)) {
                Instant joined = current.members().get(m);
                events.add(HistoryEvent.of(joined.toString(), HistoryEvent.Type.MEMBER_JOINED, SOURCE).member(m, host(current, m)));
                cause = cause == null ? "member " + m + " joined" : cause;
                start = start == null || joined.isBefore(start) ? joined : start;
            }
        }
        for (String m : new TreeSet<>(prev.members().keySet())) {
            if (!current.members().containsKey(m)) {
                events.add(HistoryEvent.of(at, HistoryEvent.Type.MEMBER_LEFT, SOURCE).member(m, host(current, m))
                        .detail("gone between " + prev.at() + " and " + current.at()));
                cause = cause == null ? "member " + m + " left" : cause;
                start = start == null || current.at().isBefore(start) ? current.at() : start;
            }
        }
        boolean ownersChanged = !prev.owners().equals(current.owners());
        Set<TopicAndPartition> partitions = new TreeSet<>(prev.owners().keySet());
        partitions.addAll(current.owners().keySet());
        for (TopicAndPartition tp : partitions) {
            GroupSnapshot.Owned now = current.owners().get(tp);
            GroupSnapshot.Owned before = prev.owners().get(tp);
            if (now == null || now.equals(before)) {
                continue;
            }
            String last = lastOwner.put(tp, now.thread());
            if (last == null) {
                events.add(HistoryEvent.of(now.claimedAt().toString(), HistoryEvent.Type.PARTITION_CLAIMED, SOURCE)
                        .member(now.thread(), null).partition(tp.topic(), tp.partition()));
            } else if (!last.equals(now.thread())) {
                events.add(HistoryEvent.of(now.claimedAt().toString(), HistoryEvent.Type.OWNERSHIP_MOVED, SOURCE)
                        .member(now.thread(), null).partition(tp.topic(), tp.partition()).moved(last));
            }
        }
        if (rebalance == null && (cause != null || ownersChanged)) {
            rebalance = new Open(start == null ? current.at() : start, cause == null ? "owners changed" : cause);
            events.add(HistoryEvent.of(rebalance.start().toString(), HistoryEvent.Type.REBALANCE_STARTED, SOURCE)
                    .detail(rebalance.cause()));
        }
        if (rebalance != null && !ownersChanged && cause == null && settled(current)) {
            Instant end = current.owners().values().stream().map(GroupSnapshot.Owned::claimedAt)
                    .max(Comparator.naturalOrder()).filter(t -> t.isAfter(rebalance.start())).orElse(rebalance.start());
            events.add(HistoryEvent.of(end.toString(), HistoryEvent.Type.REBALANCE_ENDED, SOURCE)
                    .duration(Duration.between(rebalance.start(), end).toMillis())
                    .detail(rebalance.cause() + "; " + current.owners().size() + " partitions owned by "
                            + current.members().size() + " members"));
            rebalance = null;
            settledOwners = current.owners().keySet();
        }

        List<Rewind> rewinds = new ArrayList<>(pending);
        pending.clear();
        for (Map.Entry<TopicAndPartition, Long> e : current.offsets().entrySet()) {
            TopicAndPartition tp = e.getKey();
            Long before = prev.offsets().get(tp);
            long after = e.getValue();
            if (before != null && after < before) {
                GroupSnapshot.Owned owner = current.owners().getOrDefault(tp, prev.owners().get(tp));
                rewinds.add(new Rewind(HistoryEvent.of(at, HistoryEvent.Type.OFFSET_REWOUND, SOURCE)
                        .partition(tp.topic(), tp.partition()).offsets(before, after), tp, after,
                        owner != null ? "owner " + owner.thread() : "unattributed", false));
            }
        }
        if (!rewinds.isEmpty()) {
            List<AuditEntry> entries = audit.get();
            for (Rewind r : rewinds) {
                String tool = audited(r.partition(), r.after(), entries);
                if (tool != null) {
                    events.add(r.event().attribution(tool));
                } else if (r.retried()) {
                    events.add(r.event().attribution(r.otherwise()));
                } else {
                    pending.add(new Rewind(r.event(), r.partition(), r.after(), r.otherwise(), true));
                }
            }
        }
        events.addAll(stalls(current));
        if (prev.phase() != null && current.phase() != null && !prev.phase().equals(current.phase())
                && !"unknown".equals(current.phase()) && !"unknown".equals(prev.phase())) {
            events.add(HistoryEvent.of(at, HistoryEvent.Type.COORDINATOR_CHANGED, SOURCE)
                    .detail(prev.phase() + " -> " + current.phase()));
        }
        events.sort(HistoryEvent.CHRONOLOGICAL);
        return events;
    }

    /** Every owner a member's, none missing since the last settled state, and members own something if any exist. */
    private boolean settled(GroupSnapshot s) {
        if (s.members().isEmpty()) {
            return s.owners().isEmpty();
        }
        return !s.owners().isEmpty() && s.ownersAreMembers() && s.owners().keySet().containsAll(settledOwners);
    }

    private List<HistoryEvent> stalls(GroupSnapshot s) {
        List<HistoryEvent> events = new ArrayList<>();
        stalled.removeIf(tp -> !s.owners().containsKey(tp));
        s.owners().forEach((tp, owner) -> {
            GroupSnapshot.Committed c = s.zkOffsets().get(tp);
            Long end = s.logEnds().get(tp);
            boolean backlog = c != null && end != null && end > c.offset();
            boolean idle = c != null && Duration.between(c.mtime(), s.at()).compareTo(stallAfter) > 0;
            if (backlog && idle) {
                if (stalled.add(tp)) {
                    events.add(HistoryEvent.of(s.at().toString(), HistoryEvent.Type.COMMIT_STALLED, SOURCE)
                            .member(owner.thread(), null).partition(tp.topic(), tp.partition()).offsets(c.offset(), null)
                            .detail("no commit since " + c.mtime() + " with " + (end - c.offset()) + " records behind"));
                }
            } else {
                stalled.remove(tp);
            }
        });
        return events;
    }

    /** The tool whose latest audit entry wrote {@code after} to {@code tp}, as {@code user@host: command}; null if none. */
    /**
     * The newest audit entry that wrote {@code after} to the partition, preferring one that moved it backwards there:
     * a copy of that value to the other store (a migration that follows a reset) wrote it too, but rewound nothing.
     */
    private static String audited(TopicAndPartition tp, long after, List<AuditEntry> entries) {
        for (boolean backwardsOnly : new boolean[]{true, false}) {
            for (int i = entries.size() - 1; i >= 0; i--) {
                AuditEntry e = entries.get(i);
                for (AuditEntry.Change c : e.changes()) {
                    if (c.topic().equals(tp.topic()) && c.partition() == tp.partition()
                            && Long.valueOf(after).equals(c.after())
                            && (!backwardsOnly || (c.before() != null && c.before() > after))) {
                        return e.user() + "@" + e.host() + ": " + e.command();
                    }
                }
            }
        }
        return null;
    }

    private static String host(GroupSnapshot s, String member) {
        return MemberHost.of(s.group(), member).orElse(null);
    }
}
