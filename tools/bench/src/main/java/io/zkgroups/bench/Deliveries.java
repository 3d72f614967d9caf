package io.zkgroups.bench;

import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;

/**
 * When each partition had records handed out, by any member, in slices of fixed length from an origin: enough to tell
 * how long partitions went without delivery while records kept arriving (the producer writes to every partition
 * all the time, so a partition without delivery in a slice has a backlog that nobody delivers).
 */
final class Deliveries {

    private final long origin;
    private final long sliceNanos;
    private final Map<Integer, BitSet> slices = new HashMap<>();

    Deliveries(long origin, long sliceNanos) {
        this.origin = origin;
        this.sliceNanos = sliceNanos;
    }

    synchronized void delivered(int partition, long nanos) {
        if (nanos >= origin) {
            slices.computeIfAbsent(partition, p -> new BitSet()).set((int) ((nanos - origin) / sliceNanos));
        }
    }

    /**
     * Partition-seconds without delivery over the whole slices that overlap {@code [from, to)}, for partitions
     * {@code 0..partitions-1}.
     */
    synchronized double undeliveredSeconds(int partitions, long from, long to) {
        int first = (int) ((from - origin) / sliceNanos);
        int last = (int) ((to - origin - 1) / sliceNanos);
        long empty = 0;
        for (int p = 0; p < partitions; p++) {
            BitSet delivered = slices.getOrDefault(p, new BitSet());
            empty += (last - first + 1) - delivered.get(first, last + 1).cardinality();
        }
        return empty * sliceNanos / 1e9;
    }
}
