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
}
