package io.zkgroups.rebalancer.metrics.legacy;

import io.zkgroups.registry.Time;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * A Yammer metrics 2.2 timer as 0.8.2.2 exposes it (its {@code RebalanceRateAndTime}): a {@link LegacyMeter} of the
 * events, and the durations in {@code LatencyUnit} (milliseconds). {@code Min}, {@code Max}, {@code Mean} and
 * {@code StdDev} cover every event since start, as in Yammer; the percentiles are taken over the last {@link #SAMPLE}
 * durations (Yammer keeps an exponentially decaying sample of that size, biased to the last five minutes: for events
 * as rare as rebalances the two hold the same values).
 */
public final class LegacyTimer extends LegacyMeter implements LegacyTimerMBean {

    static final int SAMPLE = 1028;

    private final double[] recent = new double[SAMPLE];
    private int recorded;
    private long events;
    private double min;
    private double max;
    private double mean;
    private double squares; // Welford's running sum of squared deviations

    public LegacyTimer(String eventType) {
        super(eventType);
    }

    LegacyTimer(String eventType, Time time) {
        super(eventType, time);
    }

    /** Records one event that took {@code millis}. */
    public synchronized void update(double millis) {
        if (millis < 0) {
            return;
        }
        recent[recorded % SAMPLE] = millis;
        recorded++;
        events++;
        min = events == 1 ? millis : Math.min(min, millis);
        max = events == 1 ? millis : Math.max(max, millis);
        double delta = millis - mean;
        mean += delta / events;
        squares += delta * (millis - mean);
        mark(1);
    }

    @Override
    public TimeUnit getLatencyUnit() {
        return TimeUnit.MILLISECONDS;
    }

    @Override
    public synchronized double getMin() {
        return min;
    }

    @Override
    public synchronized double getMax() {
        return max;
    }

    @Override
    public synchronized double getMean() {
        return mean;
    }

    @Override
    public synchronized double getStdDev() {
        return events > 1 ? Math.sqrt(squares / (events - 1)) : 0.0;
    }

    @Override
    public double get50thPercentile() {
        return quantile(0.5);
    }

    @Override
    public double get75thPercentile() {
        return quantile(0.75);
    }

    @Override
    public double get95thPercentile() {
        return quantile(0.95);
    }

    @Override
    public double get98thPercentile() {
        return quantile(0.98);
    }

    @Override
    public double get99thPercentile() {
        return quantile(0.99);
    }

    @Override
    public double get999thPercentile() {
        return quantile(0.999);
    }

    /** Yammer 2.2's {@code Snapshot.getValue}: linear interpolation between the closest ranks. */
    synchronized double quantile(double q) {
        int n = Math.min(recorded, SAMPLE);
        if (n == 0) {
            return 0.0;
        }
        double[] values = Arrays.copyOf(recent, n);
        Arrays.sort(values);
        double pos = q * (n + 1);
        if (pos < 1) {
            return values[0];
        }
        if (pos >= n) {
            return values[n - 1];
        }
        double lower = values[(int) pos - 1];
        double upper = values[(int) pos];
        return lower + (pos - Math.floor(pos)) * (upper - lower);
    }
}
