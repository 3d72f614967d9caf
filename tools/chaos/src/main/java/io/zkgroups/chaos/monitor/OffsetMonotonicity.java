package io.zkgroups.chaos.monitor;

import io.zkgroups.chaos.monitor.History.OffsetWrite;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Committed offsets that moved backwards: in zxid order, a commit lower than the highest commit before it. The
 * run's own garbage writes are skipped (they are faults, not commits); so are values that are not numbers. The
 * writer is named by the member whose owner znodes its session created, else by the session id.
 */
final class OffsetMonotonicity {

    private OffsetMonotonicity() {
    }

    static void check(List<OffsetWrite> writes, List<History.OwnerChange> owners, List<Violation> out) {
        Map<Long, String> writers = new HashMap<>();
        owners.stream().filter(c -> c.cause() == History.OwnerChange.Cause.CREATE && c.owner() != null)
                .forEach(c -> writers.put(c.session(), c.owner()));
        Map<Integer, OffsetWrite> highest = new HashMap<>();
        for (OffsetWrite w : writes) {
            if (w.injected() || w.value() == null) {
                continue;
            }
            OffsetWrite best = highest.get(w.partition());
            if (best != null && w.value() < best.value()) {
                String writer = writers.getOrDefault(w.session(), "session 0x" + Long.toHexString(w.session()));
                out.add(new Violation("offset-backwards", w.partition(), w.value(), writer,
                        w.nanos(), writer + " committed " + w.value() + " (zxid 0x" + Long.toHexString(w.zxid()) + ") after "
                                + best.value() + " (zxid 0x" + Long.toHexString(best.zxid()) + ", by "
                                + writers.getOrDefault(best.session(), "session 0x" + Long.toHexString(best.session())) + ")"));
            } else {
                highest.put(w.partition(), w);
            }
        }
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
