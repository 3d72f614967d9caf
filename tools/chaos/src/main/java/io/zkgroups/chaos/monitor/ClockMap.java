package io.zkgroups.chaos.monitor;

import java.util.List;

/**
 * Maps wall-clock milliseconds (ZooKeeper's transaction times) onto {@code System.nanoTime()} with the journal's
 * CLOCK pairs (both clocks read back to back), using the pair nearest in wall time, so that a wall-clock step
 * during the run only affects the times around it.
 */
public final class ClockMap {

    /** One CLOCK line. */
    public record Pair(long nanos, long wallMillis) {
    }

    private final List<Pair> pairs;

    public ClockMap(List<Pair> pairs) {
        if (pairs.isEmpty()) {
            throw new IllegalArgumentException("no CLOCK line in the journal: ZooKeeper times cannot be mapped");
        }
        this.pairs = List.copyOf(pairs);
    }

    public long nanosOf(long wallMillis) {
        Pair nearest = pairs.get(0);
        for (Pair p : pairs) {
            if (Math.abs(p.wallMillis() - wallMillis) < Math.abs(nearest.wallMillis() - wallMillis)) {
                nearest = p;
            }
        }
        // ZooKeeper's time is truncated to the millisecond: the middle of that millisecond
        return nearest.nanos() + (wallMillis - nearest.wallMillis()) * 1_000_000 + 500_000;
    }
}
