package io.zkgroups.chaos.monitor;

import io.zkgroups.chaos.monitor.History.Delivery;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Records handed out more than once. A repeat is explained when the earlier hand-out belonged to a tenure that
 * ended uncleanly (the process was killed, vanished, or lost its partitions with its session) and the record lay in
 * that tenure's uncommitted window: at or above the last offset the process had seen committed before the repeating
 * tenure began (a commit that only returns after another process took over cannot have told that process where to
 * start). Any other repeat is a violation.
 */
final class Duplicates {

    /**
     * Repeats counted: explained (within an unclean end's uncommitted window) and not; and the explained ones per
     * tenure whose window held them.
     */
    record Counts(long explained, long unexplained, Map<Tenures.Tenure, Long> explainedByTenure) {
    }

    private Duplicates() {
    }

    static Counts check(DeliveryIndex deliveries, Tenures tenures, List<Violation> out) {
        long explained = 0;
        long unexplained = 0;
        Map<Tenures.Tenure, Long> byTenure = new java.util.HashMap<>();
        for (Map.Entry<Integer, Map<Long, List<Delivery>>> partition : deliveries.records().entrySet()) {
            for (Map.Entry<Long, List<Delivery>> record : partition.getValue().entrySet()) {
                List<Delivery> all = record.getValue();
                for (int i = 1; i < all.size(); i++) {
                    Delivery earlier = all.get(i - 1);
                    Delivery repeat = all.get(i);
                    Optional<Tenures.Tenure> tenure = tenures.at(earlier.process(), earlier.partition(), earlier.nanos());
                    Optional<Tenures.Tenure> repeating = tenures.at(repeat.process(), repeat.partition(), repeat.nanos());
                    long takeOver = repeating.map(Tenures.Tenure::start).orElse(repeat.nanos());
                    String why = explanation(earlier, tenure, tenures, takeOver);
                    if (why == null) {
                        explained++;
                        byTenure.merge(tenure.get(), 1L, Long::sum);
                    } else {
                        unexplained++;
                        String atFault = atFault(earlier, repeat, tenure, repeating.isPresent());
                        out.add(new Violation("duplicate", repeat.partition(), repeat.offset(), atFault,
                                repeat.nanos(), "handed out again by " + repeat.process() + " after " + earlier.process()
                                        + " at " + earlier.nanos() + ": " + why));
                    }
                }
            }
        }
        return new Counts(explained, unexplained, byTenure);
    }

    /**
     * Who made the repeat: the earlier process if it handed the record out outside its tenure, or if it handed the
     * partition over cleanly without having committed past the record and the repeater took over properly (within
     * its own tenure, after that end); else the repeater.
     */
    private static String atFault(Delivery earlier, Delivery repeat, Optional<Tenures.Tenure> tenure,
                                  boolean repeaterInTenure) {
        if (tenure.isEmpty()) {
            return earlier.process();
        }
        Tenures.Tenure t = tenure.get();
        boolean letGoShort = !t.unclean() && t.committedAtEnd() <= earlier.offset() && repeat.nanos() > t.end();
        return letGoShort && repeaterInTenure ? earlier.process() : repeat.process();
    }

    /** Null when explained; else why not. */
    private static String explanation(Delivery earlier, Optional<Tenures.Tenure> tenure, Tenures tenures, long takeOver) {
        if (tenure.isEmpty()) {
            return "the earlier hand-out was outside any tenure of " + earlier.process();
        }
        Tenures.Tenure t = tenure.get();
        if (!t.unclean()) {
            return "the earlier tenure ended " + t.endedBy() + " (a clean let-go), committed " + t.committedAtEnd();
        }
        long committed = tenures.confirmedCommit(t.process(), t.partition(), t.start(), Math.min(t.end(), takeOver));
        if (earlier.offset() < committed) {
            return "the earlier tenure ended " + t.endedBy() + " but had committed " + committed + ", past this record";
        }
        return null;
    }
}
