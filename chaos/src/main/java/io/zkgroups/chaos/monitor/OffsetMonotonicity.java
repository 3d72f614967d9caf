package io.zkgroups.chaos.monitor;

import io.zkgroups.chaos.monitor.History.OffsetWrite;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Committed offsets that moved backwards: in zxid order, a commit lower than the highest commit before it. The
 * run's own garbage writes are skipped (they are faults, not commits); so are values that are not numbers.
 */
final class OffsetMonotonicity {

    private OffsetMonotonicity() {
    }

    static void check(List<OffsetWrite> writes, List<Violation> out) {
        Map<Integer, OffsetWrite> highest = new HashMap<>();
        for (OffsetWrite w : writes) {
            if (w.injected() || w.value() == null) {
                continue;
            }
            OffsetWrite best = highest.get(w.partition());
            if (best != null && w.value() < best.value()) {
                out.add(new Violation("offset-backwards", w.partition(), w.value(), "session 0x" + Long.toHexString(w.session()),
                        w.nanos(), "committed " + w.value() + " (zxid 0x" + Long.toHexString(w.zxid()) + ") after "
                                + best.value() + " (zxid 0x" + Long.toHexString(best.zxid()) + ", session 0x"
                                + Long.toHexString(best.session()) + ")"));
            } else {
                highest.put(w.partition(), w);
            }
        }
    }
}
