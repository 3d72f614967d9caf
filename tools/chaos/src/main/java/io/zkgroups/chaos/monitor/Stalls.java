package io.zkgroups.chaos.monitor;

import io.zkgroups.chaos.monitor.History.Ack;
import io.zkgroups.chaos.monitor.History.Delivery;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Partitions that had a backlog (an acknowledged record not yet handed out) and no hand-out for longer than the
 * bound. Sweeps each partition's acknowledgements and hand-outs in time order; a stall lasts from the later of the
 * last hand-out and the moment the backlog appeared until the next hand-out (or the end of the history). Excused
 * time does not count, each span lasting until the first hand-out of any partition after it: while the broker was
 * down on purpose (nothing can be fetched, whatever the group does), and until the group first formed.
 */
final class Stalls {

    private Stalls() {
    }

    /** Returns the longest stall per partition (ms); adds a violation per stall longer than {@code boundNanos}. */
    static Map<Integer, Long> check(List<Ack> acks, DeliveryIndex deliveries, long endNanos, long boundNanos,
                                    List<History.Span> excused, java.util.function.LongFunction<String> faultAt,
                                    List<Violation> out) {
        List<History.Span> outages = outages(excused, deliveries);
        Map<Integer, List<Ack>> acksByPartition = new HashMap<>();
        acks.forEach(a -> acksByPartition.computeIfAbsent(a.partition(), k -> new ArrayList<>()).add(a));
        Map<Integer, Long> longest = new TreeMap<>();
        for (Map.Entry<Integer, List<Ack>> entry : acksByPartition.entrySet()) {
            int partition = entry.getKey();
            List<Ack> partitionAcks = new ArrayList<>(entry.getValue());
            partitionAcks.sort(java.util.Comparator.comparingLong(Ack::nanos));
            List<Delivery> partitionDeliveries = deliveries.of(partition);
            long max = sweep(partition, partitionAcks, partitionDeliveries, endNanos, boundNanos, outages, faultAt, out);
            longest.put(partition, max / 1_000_000);
        }
        return longest;
    }

    private static long sweep(int partition, List<Ack> acks, List<Delivery> handOuts, long endNanos,
                              long boundNanos, List<History.Span> outages,
                              java.util.function.LongFunction<String> faultAt, List<Violation> out) {
        Set<Long> pending = new HashSet<>();
        Set<Long> delivered = new HashSet<>();
        long pendingSince = Long.MIN_VALUE;
        long lastHandOut = Long.MIN_VALUE;
        long max = 0;
        int a = 0;
        int d = 0;
        while (a < acks.size() || d < handOuts.size()) {
            boolean ackFirst = d >= handOuts.size() || (a < acks.size() && acks.get(a).nanos() <= handOuts.get(d).nanos());
            if (ackFirst) {
                Ack ack = acks.get(a++);
                if (!delivered.contains(ack.offset())) {
                    if (pending.isEmpty()) {
                        pendingSince = ack.nanos();
                    }
                    pending.add(ack.offset());
                }
            } else {
                Delivery h = handOuts.get(d++);
                if (!pending.isEmpty()) {
                    max = Math.max(max, record(partition, Math.max(lastHandOut, pendingSince), h.nanos(), boundNanos, outages, faultAt, out));
                }
                lastHandOut = h.nanos();
                delivered.add(h.offset());
                pending.remove(h.offset());
            }
        }
        if (!pending.isEmpty()) {
            max = Math.max(max, record(partition, Math.max(lastHandOut, pendingSince), endNanos, boundNanos, outages, faultAt, out));
        }
        return max;
    }

    /** Each broker outage, lasting until the first hand-out of any partition after the broker ran again. */
    static List<History.Span> outages(List<History.Span> brokerDown, DeliveryIndex deliveries) {
        List<History.Span> result = new ArrayList<>();
        for (History.Span down : brokerDown) {
            long firstAfter = Long.MAX_VALUE;
            for (Integer p : deliveries.partitions()) {
                for (Delivery d : deliveries.of(p)) {
                    if (d.nanos() > down.until()) {
                        firstAfter = Math.min(firstAfter, d.nanos());
                        break;
                    }
                }
            }
            result.add(new History.Span(down.from(), firstAfter == Long.MAX_VALUE ? down.until() : firstAfter));
        }
        return result;
    }

    private static long record(int partition, long from, long to, long boundNanos, List<History.Span> outages,
                               java.util.function.LongFunction<String> faultAt, List<Violation> out) {
        long excused = 0;
        for (History.Span o : outages) {
            excused += Math.max(0, Math.min(to, o.until()) - Math.max(from, o.from()));
        }
        long length = to - from - excused;
        if (length > boundNanos) {
            out.add(new Violation("stall", partition, -1, "-", from, "backlog and no hand-out for "
                    + length / 1_000_000 + " ms (bound " + boundNanos / 1_000_000 + " ms"
                    + (excused > 0 ? "; " + excused / 1_000_000 + " ms more excused: broker down or group not yet formed" : "")
                    + "), from "
                    + faultAt.apply(from)));
        }
        return length;
    }
}
