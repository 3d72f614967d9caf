package io.zkgroups.registry;

import java.time.Instant;

/**
 * The clock zkgroups reads: a monotonic one for durations and deadlines, and the wall clock for timestamps. Classes
 * that read the time take one, so that a test of an expiry, a lease or a backoff moves time itself
 * ({@link ManualTime}) instead of waiting for it. Implementations are thread-safe.
 */
public interface Time {

    /** The system's clocks: {@link System#nanoTime()} and {@link System#currentTimeMillis()}. */
    Time SYSTEM = new Time() {
        @Override
        public long nanoseconds() {
            return System.nanoTime();
        }

        @Override
        public long milliseconds() {
            return System.currentTimeMillis();
        }

        @Override
        public Instant instant() {
            return Instant.now();
        }

        @Override
        public String toString() {
            return "Time.SYSTEM";
        }
    };

    /** The monotonic clock, in nanoseconds from an arbitrary origin: only differences mean anything. */
    long nanoseconds();

    /** The wall clock, in milliseconds since the epoch. */
    long milliseconds();

    /** The wall clock as an instant. */
    default Instant instant() {
        return Instant.ofEpochMilli(milliseconds());
    }
}
