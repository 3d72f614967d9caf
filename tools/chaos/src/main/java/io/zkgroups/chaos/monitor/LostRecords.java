package io.zkgroups.chaos.monitor;

import io.zkgroups.chaos.monitor.History.Ack;

import java.util.List;

/** Records the producer had acknowledged that no member ever handed out. */
final class LostRecords {

    private LostRecords() {
    }

    static void check(List<Ack> acks, DeliveryIndex deliveries, List<Violation> out) {
        for (Ack a : acks) {
            if (deliveries.of(a.partition(), a.offset()).isEmpty()) {
                out.add(new Violation("lost", a.partition(), a.offset(), "-", a.nanos(),
                        "acknowledged at " + a.nanos() + " but never handed out"));
            }
        }
    }
}
