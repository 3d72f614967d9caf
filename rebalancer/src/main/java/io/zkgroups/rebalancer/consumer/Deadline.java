package io.zkgroups.rebalancer.consumer;

import io.zkgroups.registry.Time;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The end of a bounded wait, from a {@link Duration} the {@code Consumer} API took: {@code commitSync(timeout)},
 * {@code close(timeout)}, or the revoke timeout the group member waits out. Waits inside take what is
 * {@link #remaining()}; once it has passed, nothing new is started. Immutable.
 */
final class Deadline {

    /** Longer than anything waits: keeps {@code now + timeout} clear of overflow. */
    private static final long FOREVER_NANOS = TimeUnit.DAYS.toNanos(365L * 100);

    private final long atNanos;
    private final Duration timeout;
    private final Time time;

    private Deadline(long atNanos, Duration timeout, Time time) {
        this.atNanos = atNanos;
        this.timeout = timeout;
        this.time = time;
    }

    /**
     * A deadline {@code timeout} from now on {@code time}'s clock.
     *
     * @throws IllegalArgumentException if {@code timeout} is negative, as {@code KafkaConsumer} does
     */
    static Deadline after(Duration timeout, Time time) {
        if (timeout == null) {
            throw new IllegalArgumentException("timeout cannot be null");
        }
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("The timeout cannot be negative, got " + timeout.toMillis() + " ms");
        }
        long nanos = timeout.compareTo(Duration.ofNanos(FOREVER_NANOS)) > 0 ? FOREVER_NANOS : timeout.toNanos();
        return new Deadline(time.nanoseconds() + nanos, timeout, time);
    }

    /** The earlier of this and {@code other}. */
    Deadline earlier(Deadline other) {
        return other.atNanos - atNanos < 0 ? other : this;
    }

    /** The earlier of this and {@code bound} from now, on the same clock. */
    Deadline within(Duration bound) {
        return earlier(after(bound, time));
    }

    /** Half way from now to this deadline: a first step that leaves the rest of the time to the next. */
    Deadline halfway() {
        return new Deadline(time.nanoseconds() + remainingNanos() / 2, timeout, time);
    }

    /** Time left, zero once passed. */
    Duration remaining() {
        return Duration.ofNanos(remainingNanos());
    }

    long remainingNanos() {
        return Math.max(0, atNanos - time.nanoseconds());
    }

    boolean expired() {
        return atNanos - time.nanoseconds() <= 0;
    }

    /** The deadline as a value of its clock's {@link Time#nanoseconds()}. */
    long atNanos() {
        return atNanos;
    }

    /** The wait it bounds, for messages: "timed out after N ms". */
    long timeoutMillis() {
        return timeout.toMillis();
    }
}
