package io.zkgroups.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Whether a group's readers read every record of a topic, from the offset ranges each printed ({@link ReadRanges}):
 * the offsets of {@code [0, end)} of each partition nobody read, and how many records were read more than once.
 * A pure function of the ranges.
 */
record ReadCoverage(Map<Integer, List<long[]>> missing, long readTwice) {

    /**
     * @param ranges per partition, every {@code {from, to}} range (to exclusive) any reader read
     * @param end    each partition's records are the offsets {@code [0, end)}
     */
    static ReadCoverage of(int partitions, long end, Map<Integer, List<long[]>> ranges) {
        Map<Integer, List<long[]>> missing = new TreeMap<>();
        long read = 0;
        long once = 0;
        for (int p = 0; p < partitions; p++) {
            List<long[]> sorted = new ArrayList<>(ranges.getOrDefault(p, List.of()));
            sorted.sort(Comparator.comparingLong(r -> r[0]));
            long covered = 0; // [0, covered) read
            for (long[] r : sorted) {
                read += r[1] - r[0];
                once += Math.max(0, r[1] - Math.max(r[0], covered));
                if (r[0] > covered) {
                    missing.computeIfAbsent(p, x -> new ArrayList<>()).add(new long[] {covered, Math.min(r[0], end)});
                }
                covered = Math.max(covered, r[1]);
            }
            if (covered < end) {
                missing.computeIfAbsent(p, x -> new ArrayList<>()).add(new long[] {covered, end});
            }
        }
        return new ReadCoverage(missing, read - once);
    }

    boolean complete() {
        return missing.isEmpty();
    }

    /** E.g. "partition 3: 600-709, 1200-1300": the first few partitions with records nobody read. */
    String describeMissing() {
        StringBuilder s = new StringBuilder();
        missing.entrySet().stream().limit(5).forEach(e -> {
            s.append(s.length() == 0 ? "" : "; ").append("partition ").append(e.getKey()).append(": ");
            e.getValue().forEach(r -> s.append(r[0]).append('-').append(r[1]).append(' '));
        });
        return s.toString().trim();
    }
}
