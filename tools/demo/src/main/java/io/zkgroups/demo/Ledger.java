package io.zkgroups.demo;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** What was produced and what every member delivered: the source of the demo's closing figures. */
final class Ledger {

    private final Map<String, Long> producedEnd = new ConcurrentHashMap<>();
    private final Set<String> delivered = ConcurrentHashMap.newKeySet();
    private final AtomicLong produced = new AtomicLong();
    private final AtomicLong deliveries = new AtomicLong();
    private final Map<String, AtomicLong> deliveriesByKind = new ConcurrentHashMap<>();

    void produced(String topic, int partition, long offset) {
        produced.incrementAndGet();
        producedEnd.merge(topic + "-" + partition, offset + 1, Math::max);
    }

    /** {@code kind}: the kind of member that delivered it ("zkgroups", "kafka 0.8.2.2", ...). */
    void delivered(String kind, String topic, int partition, long offset) {
        deliveries.incrementAndGet();
        deliveriesByKind.computeIfAbsent(kind, k -> new AtomicLong()).incrementAndGet();
        delivered.add(topic + "-" + partition + "@" + offset);
    }

    long produced() {
        return produced.get();
    }

    long deliveries() {
        return deliveries.get();
    }

    /** Deliveries by members of {@code kind}. */
    long deliveriesBy(String kind) {
        AtomicLong n = deliveriesByKind.get(kind);
        return n == null ? 0 : n.get();
    }

    long distinctDelivered() {
        return delivered.size();
    }

    long duplicates() {
        return deliveries.get() - delivered.size();
    }

    /** Produced records never delivered by any member. */
    long lost() {
        long lost = 0;
        for (Map.Entry<String, Long> end : producedEnd.entrySet()) {
            for (long offset = 0; offset < end.getValue(); offset++) {
                if (!delivered.contains(end.getKey() + "@" + offset)) {
                    lost++;
                }
            }
        }
        return lost;
    }
}
