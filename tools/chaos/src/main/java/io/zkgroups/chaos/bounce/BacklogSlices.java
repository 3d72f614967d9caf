package io.zkgroups.chaos.bounce;

import io.zkgroups.chaos.monitor.History.Ack;
import io.zkgroups.chaos.monitor.History.Delivery;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Partition-seconds during which a partition with a backlog had no delivery. Time is cut into slices of
 * {@code sliceNanos} from the window's start; a slice {@code [s, s + w)} counts for partition p when p had a record
 * acknowledged before {@code s} and not delivered before {@code s} (its first delivery at or after {@code s}, or
 * never), and no record of p was delivered in the slice. The figure is the slices counted times {@code w}.
 */
final class BacklogSlices {

    private final Map<Integer, long[]> pendingFrom = new HashMap<>();
    private final Map<Integer, long[]> pendingUntil = new HashMap<>();
    private final Map<Integer, long[]> deliveryTimes = new HashMap<>();

    /** Indexes the history: per partition, each record's pending span (ack, first delivery] and every delivery time. */
    BacklogSlices(List<Ack> acks, List<Delivery> deliveries) {
        Map<Integer, Map<Long, Long>> firstDelivery = new HashMap<>();
        Map<Integer, List<Long>> times = new HashMap<>();
        for (Delivery d : deliveries) {
            firstDelivery.computeIfAbsent(d.partition(), k -> new HashMap<>()).merge(d.offset(), d.nanos(), Math::min);
            times.computeIfAbsent(d.partition(), k -> new ArrayList<>()).add(d.nanos());
        }
        Map<Integer, List<long[]>> spans = new TreeMap<>();
        for (Ack a : acks) {
            long until = firstDelivery.getOrDefault(a.partition(), Map.of()).getOrDefault(a.offset(), Long.MAX_VALUE);
            if (until > a.nanos()) {
                spans.computeIfAbsent(a.partition(), k -> new ArrayList<>()).add(new long[] {a.nanos(), until});
            }
        }
        spans.forEach((p, list) -> {
            List<long[]> merged = merge(list);
            pendingFrom.put(p, merged.stream().mapToLong(s -> s[0]).toArray());
            pendingUntil.put(p, merged.stream().mapToLong(s -> s[1]).toArray());
        });
        times.forEach((p, list) -> {
            long[] sorted = list.stream().mapToLong(Long::longValue).toArray();
            Arrays.sort(sorted);
            deliveryTimes.put(p, sorted);
        });
    }

    /** The partition-seconds over {@code [from, to)}, cut into slices of {@code sliceNanos}: the last slice may be cut short. */
    double partitionSeconds(long from, long to, long sliceNanos) {
        long counted = 0;
        for (int p : pendingFrom.keySet()) {
            for (long s = from; s < to; s += sliceNanos) {
                long end = Math.min(s + sliceNanos, to);
                if (backlogAt(p, s) && !deliveredIn(p, s, end)) {
                    counted += end - s;
                }
            }
        }
        return counted / 1e9;
    }

    /** Whether some record of p was acknowledged before {@code t} and not delivered before it: in a span (from, until]. */
    private boolean backlogAt(int p, long t) {
        long[] from = pendingFrom.get(p);
        int i = Arrays.binarySearch(from, t);
        int last = i >= 0 ? i - 1 : -i - 2; // the last span starting strictly before t
        while (last >= 0 && from[last] == t) {
            last--;
        }
        return last >= 0 && pendingUntil.get(p)[last] >= t;
    }

    private boolean deliveredIn(int p, long from, long to) {
        long[] times = deliveryTimes.get(p);
        if (times == null) {
            return false;
        }
        int i = Arrays.binarySearch(times, from);
        int first = i >= 0 ? i : -i - 1;
        while (first > 0 && times[first - 1] == from) {
            first--;
        }
        return first < times.length && times[first] < to;
    }

    /** Disjoint, sorted spans covering the same time as {@code spans} (ends are inclusive, so touching spans merge). */
    private static List<long[]> merge(List<long[]> spans) {
        spans.sort((x, y) -> Long.compare(x[0], y[0]));
        List<long[]> merged = new ArrayList<>();
        for (long[] s : spans) {
            long[] last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
            if (last != null && s[0] <= last[1]) {
                last[1] = Math.max(last[1], s[1]);
            } else {
                merged.add(new long[] {s[0], s[1]});
            }
        }
        return merged;
    }
}
