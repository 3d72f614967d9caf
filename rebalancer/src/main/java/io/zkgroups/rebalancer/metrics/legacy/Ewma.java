package io.zkgroups.rebalancer.metrics.legacy;

import java.util.concurrent.TimeUnit;

/**
 * An exponentially weighted moving average of a rate, ticked every {@link #TICK_NANOS}: the 1-, 5- and 15-minute rates
 * of the Yammer metrics 2.2 meters that kafka_2.10:0.8.2.2 registers (same alpha, same tick). Not thread-safe: its
 * owner ({@link LegacyMeter}) serialises access.
 */
final class Ewma {

    static final long TICK_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final double alpha;
    private long uncounted;
    private double ratePerNano;
    private boolean initialized;

    private Ewma(double alpha) {
        this.alpha = alpha;
    }

    /** The average over {@code minutes} minutes. */
    static Ewma overMinutes(int minutes) {
        return new Ewma(1 - Math.exp(-5.0 / 60 / minutes));
    }

    void update(long n) {
        uncounted += n;
    }

    /** Folds the events since the last tick into the average; called once per elapsed tick interval. */
    void tick() {
        double instant = (double) uncounted / TICK_NANOS;
        uncounted = 0;
        if (initialized) {
            ratePerNano += alpha * (instant - ratePerNano);
        } else {
            ratePerNano = instant;
            initialized = true;
        }
    }

    double rate(TimeUnit unit) {
        return ratePerNano * unit.toNanos(1);
    }
}
