package io.zkgroups.tool.lag;

import io.zkgroups.registry.model.TopicAndPartition;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * A table of (log end offset, time) samples per partition, to estimate when the record at an offset was written when
 * its timestamp cannot be read — as kafka-lag-exporter did. Each point is a log end value with the first and the last
 * time a sample saw it; the record at offset {@code o} was written when the log end moved past {@code o}, which the
 * table brackets between the last sight of a log end {@code <= o} and the first sight of the next one, interpolated
 * linearly. A table holds at most {@code capacity} points (the oldest go first). Pure apart from its own state; not
 * thread-safe.
 */
public final class LogEndHistory {

    /** When the record at an offset was written, as far as the table tells. */
    public record Estimate(Instant writtenAt, boolean lowerBound) {
    }

    private static final class Point {
        final long logEnd;
        final Instant firstSeen;
        Instant lastSeen;

        Point(long logEnd, Instant at) {
            this.logEnd = logEnd;
            this.firstSeen = at;
            this.lastSeen = at;
        }
    }

    private final int capacity;
    private final Map<TopicAndPartition, Deque<Point>> tables = new HashMap<>();

    public LogEndHistory(int capacity) {
        if (capacity < 2) {
            throw new IllegalArgumentException("a table needs at least two points to interpolate, got " + capacity);
        }
        this.capacity = capacity;
    }

    /** Records that {@code partition}'s log end was {@code logEnd} at {@code at} (samples arrive in time order). */
    public void add(TopicAndPartition partition, long logEnd, Instant at) {
        Deque<Point> table = tables.computeIfAbsent(partition, k -> new ArrayDeque<>());
        Point last = table.peekLast();
        if (last != null && last.logEnd == logEnd) {
            last.lastSeen = at;
            return;
        }
        if (last != null && logEnd < last.logEnd) {
            table.clear(); // the topic was recreated or truncated: older points describe another log
        }
        table.addLast(new Point(logEnd, at));
        while (table.size() > capacity) {
            table.removeFirst();
        }
    }

    /** Forgets every partition not in {@code partitions}. */
    public void retain(Set<TopicAndPartition> partitions) {
        tables.keySet().retainAll(partitions);
    }

    /**
     * When the record at {@code offset} was written: interpolated between the samples that bracket it; when it is older
     * than the table, the table's first sight as a lower bound of its age ({@code lowerBound}); null when the table
     * has not seen the log end pass {@code offset} (the record is not written yet, or the table is empty).
     */
    public Estimate writtenAt(TopicAndPartition partition, long offset) {
        Deque<Point> table = tables.get(partition);
        if (table == null || table.isEmpty()) {
            return null;
        }
        Point before = null;
        for (Iterator<Point> it = table.iterator(); it.hasNext(); ) {
            Point p = it.next();
            if (p.logEnd > offset) {
                if (before == null) {
                    return new Estimate(p.firstSeen, true);
                }
                long span = p.logEnd - before.logEnd;
                double fraction = (double) (offset + 1 - before.logEnd) / span;
                long nanos = Duration.between(before.lastSeen, p.firstSeen).toNanos();
                return new Estimate(before.lastSeen.plusNanos((long) (fraction * nanos)), false);
            }
            before = p;
        }
        return null;
    }
}
