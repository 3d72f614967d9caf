package io.zkgroups.chaos.monitor;

import io.zkgroups.chaos.monitor.History.OffsetWrite;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Committed offsets that moved backwards: in zxid order, a commit lower than the highest commit before it. The
 * run's own garbage writes are skipped (they are faults, not commits); so are values that are not numbers. The
 * writer is named by the member whose owner znodes its session created, else by the session id.
 * <p>
 * A backward write by another session than the partition's owner (a woken 0.8.2.2 consumer), which the owner undoes
 * (a zkgroups member's rewind guard, docs/fence.md), is no violation when the very next write of that offset is the
 * owner's and puts back at least the highest value, before the partition's owner znode changes: nobody can have
 * started from the lower value in between (a new owner reads the offset only after it created its owner znode). Such
 * writes are counted, with the longest time they stood. An owner's own backward write is always a violation.
 */
final class OffsetMonotonicity {

    /** Backward writes undone before anyone could read them, and the longest time one of them stood. */
    record Restored(int count, long longestNanos) {
    }

    private OffsetMonotonicity() {
    }

    static Restored check(List<OffsetWrite> writes, List<History.OwnerChange> owners, List<Violation> out) {
        Map<Long, String> writers = new HashMap<>();
        owners.stream().filter(c -> c.cause() == History.OwnerChange.Cause.CREATE && c.owner() != null)
                .forEach(c -> writers.put(c.session(), c.owner()));
        List<OffsetWrite> commits = writes.stream().filter(w -> !w.injected() && w.value() != null).toList();
        Map<Integer, OffsetWrite> highest = new HashMap<>();
        int restored = 0;
        long longest = 0;
        for (int i = 0; i < commits.size(); i++) {
            OffsetWrite w = commits.get(i);
            OffsetWrite best = highest.get(w.partition());
            if (best != null && w.value() < best.value()) {
                OffsetWrite undo = undoneBy(commits, i, best.value(), owners);
                if (undo != null) {
                    restored++;
                    longest = Math.max(longest, undo.nanos() - w.nanos());
                    continue;
                }
                String writer = writers.getOrDefault(w.session(), "session 0x" + Long.toHexString(w.session()));
                out.add(new Violation("offset-backwards", w.partition(), w.value(), writer,
                        w.nanos(), writer + " committed " + w.value() + " (zxid 0x" + Long.toHexString(w.zxid()) + ") after "
                                + best.value() + " (zxid 0x" + Long.toHexString(best.zxid()) + ", by "
                                + writers.getOrDefault(best.session(), "session 0x" + Long.toHexString(best.session())) + ")"));
            } else {
                highest.put(w.partition(), w);
            }
        }
        return new Restored(restored, longest);
    }

    /**
     * The write after {@code commits[i]} of the same partition, if {@code commits[i]} was written by another session
     * than the partition's owner then, and that owner's session wrote next, at least {@code highest}, before the
     * partition's owner znode changed; else null.
     */
    private static OffsetWrite undoneBy(List<OffsetWrite> commits, int i, long highest, List<History.OwnerChange> owners) {
        OffsetWrite rewind = commits.get(i);
        Long owner = ownerSession(owners, rewind.partition(), rewind.zxid());
        if (owner == null || owner == rewind.session()) {
            return null;
        }
        for (int j = i + 1; j < commits.size(); j++) {
            OffsetWrite next = commits.get(j);
            if (next.partition() != rewind.partition()) {
                continue;
            }
            if (next.value() < highest || next.session() != owner) {
                return null;
            }
            boolean ownerChanged = owners.stream().anyMatch(c -> c.partition() == rewind.partition()
                    && c.zxid() > rewind.zxid() && c.zxid() < next.zxid());
            return ownerChanged ? null : next;
        }
        return null;
    }

    /** The session whose owner znode {@code partition} had just before {@code zxid}, or null when none. */
    private static Long ownerSession(List<History.OwnerChange> owners, int partition, long zxid) {
        History.OwnerChange latest = null;
        for (History.OwnerChange c : owners) {
            if (c.partition() == partition && c.zxid() < zxid && (latest == null || c.zxid() > latest.zxid())) {
                latest = c;
            }
        }
        return latest == null || latest.cause() == History.OwnerChange.Cause.DELETE
                || latest.cause() == History.OwnerChange.Cause.SESSION_END ? null : latest.session();
    }

    /**
     * The same over the group's commits in {@code __consumer_offsets}, in log order (the order the coordinator accepted
     * them); a deletion starts the partition afresh. The writer is the process whose log has the latest COMMIT of that
     * partition and offset before the broker's commit time (50 ms of clock tolerance), else "no member" (e.g.
     * {@code zkgroups migrate execute}).
     */
    static void checkKafka(List<History.KafkaCommit> commits, Map<String, List<History.MemberEvent>> events,
                           List<Violation> out) {
        Map<Integer, History.KafkaCommit> highest = new HashMap<>();
        for (History.KafkaCommit c : commits) {
            if (c.offset() < 0) {
                highest.remove(c.partition());
                continue;
            }
            History.KafkaCommit best = highest.get(c.partition());
            if (best != null && c.offset() < best.offset()) {
                String writer = writer(c, events);
                out.add(new Violation("offset-backwards", c.partition(), c.offset(), writer, c.nanos(), writer
                        + " committed " + c.offset() + " in __consumer_offsets (log offset " + c.logOffset() + ") after "
                        + best.offset() + " (log offset " + best.logOffset() + ", by " + writer(best, events) + ")"));
            } else {
                highest.put(c.partition(), c);
            }
        }
    }

    private static final long CLOCK_TOLERANCE_NANOS = 50_000_000;

    private static String writer(History.KafkaCommit c, Map<String, List<History.MemberEvent>> events) {
        String writer = "no member";
        long latest = Long.MIN_VALUE;
        for (Map.Entry<String, List<History.MemberEvent>> process : events.entrySet()) {
            for (History.MemberEvent e : process.getValue()) {
                if (e.kind().equals("COMMIT") && e.nanos() > latest && e.nanos() <= c.nanos() + CLOCK_TOLERANCE_NANOS
                        && Long.valueOf(c.offset()).equals(e.offsets().get(c.partition()))) {
                    latest = e.nanos();
                    writer = process.getKey();
                }
            }
        }
        return writer;
    }
}
