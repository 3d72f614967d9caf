package io.zkgroups.chaos.monitor;

import io.zkgroups.chaos.monitor.History.Delivery;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Records handed out more than once. A repeat is explained when the earlier hand-out belonged to a tenure that
 * ended uncleanly (the process was killed, vanished, or lost its partitions with its session) and the record lay in
 * that tenure's uncommitted window (at or above the last offset the process had confirmed committing). Any other
 * repeat is a violation.
 */
final class Duplicates {

    /** Repeats counted: explained (within an unclean end's uncommitted window) and not. */
    record Counts(long explained, long unexplained) {
    }

    private Duplicates() {
    }

    static Counts check(DeliveryIndex deliveries, Tenures tenures, List<Violation> out) {
        long explained = 0;
        long unexplained = 0;
        for (Map.Entry<Integer, Map<Long, List<Delivery>>> partition : deliveries.records().entrySet()) {
            for (Map.Entry<Long, List<Delivery>> record : partition.getValue().entrySet()) {
                List<Delivery> all = record.getValue();
                for (int i = 1; i < all.size(); i++) {
                    Delivery earlier = all.get(i - 1);
                    Delivery repeat = all.get(i);
                    Optional<Tenures.Tenure> tenure = tenures.at(earlier.process(), earlier.partition(), earlier.nanos());
                    String why = explanation(earlier, tenure);
                    if (why == null) {
                        explained++;
                    } else {
                        unexplained++;
                        out.add(new Violation("duplicate", repeat.partition(), repeat.offset(), repeat.process(),
                                repeat.nanos(), "handed out again by " + repeat.process() + " after " + earlier.process()
                                        + " at " + earlier.nanos() + ": " + why));
                    }
                }
            }
        }
        return new Counts(explained, unexplained);
    }

    /** Null when explained; else why not. */
    private static String explanation(Delivery earlier, Optional<Tenures.Tenure> tenure) {
        if (tenure.isEmpty()) {
            return "the earlier hand-out was outside any tenure of " + earlier.process();
        }
        Tenures.Tenure t = tenure.get();
        if (!t.unclean()) {
            return "the earlier tenure ended " + t.endedBy() + " (a graceful hand-over), committed " + t.committedAtEnd();
        }
        if (earlier.offset() < t.committedAtEnd()) {
            return "the earlier tenure ended " + t.endedBy() + " but had committed " + t.committedAtEnd()
                    + ", past this record";
        }
        return null;
    }
}
