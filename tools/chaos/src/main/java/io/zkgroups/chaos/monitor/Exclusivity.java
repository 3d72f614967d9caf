package io.zkgroups.chaos.monitor;

import io.zkgroups.chaos.monitor.History.Delivery;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One partition handed out by two processes at overlapping times: once another process has handed out a partition
 * after process P did, P must not hand it out again unless that hand-out lies in a tenure of P that began after that
 * moment (an assignment P let go of again does not count: what P hands out outside it overlaps the other's).
 * Each such episode (P resuming after a move) is one violation, however many records it covers. When the two
 * interleave, the one at fault is the one handing out outside its own tenure (a zombie), else P.
 */
final class Exclusivity {

    private Exclusivity() {
    }

    static void check(DeliveryIndex deliveries, Tenures tenures, List<Violation> out) {
        for (int partition : deliveries.partitions()) {
            Map<String, Delivery> takenOverBy = new HashMap<>();
            String previous = null;
            for (Delivery d : deliveries.of(partition)) {
                if (previous != null && !previous.equals(d.process())) {
                    takenOverBy.putIfAbsent(previous, d);
                }
                Delivery taker = takenOverBy.remove(d.process());
                if (taker != null && !inTenureBegunAfter(d, taker.nanos(), tenures)) {
                    out.add(new Violation("exclusivity", partition, d.offset(), atFault(d, taker, tenures), d.nanos(),
                            d.process() + " handed out offset " + d.offset() + " " + (d.nanos() - taker.nanos()) / 1_000_000
                                    + " ms after " + taker.process() + " had begun handing out the partition (offset "
                                    + taker.offset() + "), outside a tenure begun since"));
                }
                previous = d.process();
            }
        }
    }

    private static boolean inTenureBegunAfter(Delivery d, long after, Tenures tenures) {
        return tenures.at(d.process(), d.partition(), d.nanos()).filter(t -> t.start() > after).isPresent();
    }

    private static String atFault(Delivery resumed, Delivery taker, Tenures tenures) {
        boolean resumedOwned = tenures.at(resumed.process(), resumed.partition(), resumed.nanos()).isPresent();
        boolean takerOwned = tenures.at(taker.process(), taker.partition(), taker.nanos()).isPresent();
        return resumedOwned && !takerOwned ? taker.process() : resumed.process();
    }
}
