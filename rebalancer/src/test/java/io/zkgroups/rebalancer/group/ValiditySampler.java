package io.zkgroups.rebalancer.group;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Watches a condition that should hold all the time (e.g. a lease being valid) by testing it every millisecond on
 * a daemon thread, and keeps the stretches of time in which it did not hold. A measurement, not a wait: tests
 * wait for events and then ask what the sampler saw meanwhile.
 */
final class ValiditySampler implements AutoCloseable {

    /** A stretch in which the condition did not hold: from the first failing sample to the next holding one. */
    record Gap(long fromNanos, long toNanos) {
        /** {@code from..to} in ms after {@code originNanos}. */
        String describe(long originNanos) {
            return TimeUnit.NANOSECONDS.toMillis(fromNanos - originNanos) + ".."
                    + TimeUnit.NANOSECONDS.toMillis(toNanos - originNanos);
        }
    }

    private final BooleanSupplier condition;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "validity-sampler");
        thread.setDaemon(true);
        return thread;
    });
    private final List<Gap> gaps = new ArrayList<>();
    private final long startNanos = System.nanoTime();
    private long gapFrom = Long.MIN_VALUE;
    private long lastNanos = startNanos;

    ValiditySampler(BooleanSupplier condition) {
        this.condition = condition;
        timer.scheduleAtFixedRate(this::sample, 0, 1, TimeUnit.MILLISECONDS);
    }

    private synchronized void sample() {
        long now = System.nanoTime();
        boolean holds = condition.getAsBoolean();
        if (!holds && gapFrom == Long.MIN_VALUE) {
            gapFrom = now;
        } else if (holds && gapFrom != Long.MIN_VALUE) {
            gaps.add(new Gap(gapFrom, now));
            gapFrom = Long.MIN_VALUE;
        }
        lastNanos = now;
    }

    /** The finished gaps, and the one going on (ending now) if the condition does not hold at the moment. */
    synchronized List<Gap> gaps() {
        List<Gap> all = new ArrayList<>(gaps);
        if (gapFrom != Long.MIN_VALUE) {
            all.add(new Gap(gapFrom, lastNanos));
        }
        return all;
    }

    /** How long it has been sampling. */
    synchronized long observedNanos() {
        return lastNanos - startNanos;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
