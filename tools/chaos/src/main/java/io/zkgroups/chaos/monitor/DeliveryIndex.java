package io.zkgroups.chaos.monitor;

import io.zkgroups.chaos.monitor.History.Delivery;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The deliveries of a history by partition (in time order) and by record. */
final class DeliveryIndex {

    private final Map<Integer, List<Delivery>> byPartition = new TreeMap<>();
    private final Map<Integer, Map<Long, List<Delivery>>> byRecord = new HashMap<>();

    DeliveryIndex(List<Delivery> deliveries) {
        for (Delivery d : deliveries) {
            byPartition.computeIfAbsent(d.partition(), k -> new ArrayList<>()).add(d);
        }
        Comparator<Delivery> order = Comparator.comparingLong(Delivery::nanos).thenComparingLong(Delivery::offset);
        byPartition.values().forEach(list -> list.sort(order));
        byPartition.forEach((p, list) -> {
            Map<Long, List<Delivery>> records = new HashMap<>();
            list.forEach(d -> records.computeIfAbsent(d.offset(), k -> new ArrayList<>(1)).add(d));
            byRecord.put(p, records);
        });
    }

    /** Partitions with at least one delivery. */
    Iterable<Integer> partitions() {
        return byPartition.keySet();
    }

    /** The deliveries of {@code partition} in time order. */
    List<Delivery> of(int partition) {
        return byPartition.getOrDefault(partition, List.of());
    }

    /** Every delivery of one record, in time order (empty: never delivered). */
    List<Delivery> of(int partition, long offset) {
        return byRecord.getOrDefault(partition, Map.of()).getOrDefault(offset, List.of());
    }

    /** Records (partition -> offset -> deliveries) delivered more than once. */
    Map<Integer, Map<Long, List<Delivery>>> records() {
        return byRecord;
    }
}
