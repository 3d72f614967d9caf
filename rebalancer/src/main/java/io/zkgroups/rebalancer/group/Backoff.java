package io.zkgroups.rebalancer.group;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Capped exponential backoff with "equal jitter": attempt n waits between half and all of
 * {@code min(max, initial * 2^n)}, so members that failed together do not retry together.
 */
final class Backoff {

    private final long initialNanos;
    private final long maxNanos;

    Backoff(Duration initial, Duration max) {
        this.initialNanos = Math.max(1, initial.toNanos());
        this.maxNanos = Math.max(initialNanos, max.toNanos());
    }

    /** The wait before retry number {@code failures} (1 = after the first failure). */
    Duration delay(int failures) {
        int shift = Math.min(Math.max(failures - 1, 0), 30);
        long ceiling = Math.min(maxNanos, initialNanos << shift);
        if (ceiling < 0) {
            ceiling = maxNanos;
        }
        long half = ceiling / 2;
        return Duration.ofNanos(half + ThreadLocalRandom.current().nextLong(half + 1));
    }
}
