package io.zkgroups.registry;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A {@link Time} that moves only when told to, both clocks together: for tests of expiries, leases and backoffs.
 * Thread-safe.
 */
public final class ManualTime implements Time {

    private long nanos;
    private long millis;

    /** Starts at {@code nanos} on the monotonic clock and {@code epochMillis} on the wall clock. */
    public ManualTime(long nanos, long epochMillis) {
        this.nanos = nanos;
        this.millis = epochMillis;
    }

    /** Starts at one second on the monotonic clock and at 2020-01-01T00:00:00Z on the wall clock. */
    public ManualTime() {
        this(TimeUnit.SECONDS.toNanos(1), 1_577_836_800_000L);
    }

    @Override
    public synchronized long nanoseconds() {
        return nanos;
    }

    @Override
    public synchronized long milliseconds() {
        return millis;
    }

    /** Moves both clocks forward by {@code duration}. */
    public synchronized void advance(Duration duration) {
        if (duration.isNegative()) {
            throw new IllegalArgumentException("time only moves forward: " + duration);
        }
        nanos += duration.toNanos();
        millis += duration.toMillis();
    }

    @Override
    public synchronized String toString() {
        return "ManualTime[nanos=" + nanos + ", millis=" + millis + "]";
    }
}
