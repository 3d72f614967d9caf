package io.zkgroups.rebalancer.metrics.legacy;

import io.zkgroups.registry.Time;

import java.util.concurrent.TimeUnit;

/**
 * A Yammer metrics 2.2 meter, as 0.8.2.2 exposes it over JMX ({@code Count}, {@code MeanRate}, the 1-, 5- and 15-minute
 * moving averages per {@code RateUnit}, and an {@code EventType}). The averages tick when the meter is marked or read
 * (one tick per elapsed 5 s), where Yammer ticks from a thread: the values are the same.
 */
public class LegacyMeter implements LegacyMeterMBean {

    private final String eventType;
    private final Time time;
    private final long startNanos;
    private final Ewma m1 = Ewma.overMinutes(1);
    private final Ewma m5 = Ewma.overMinutes(5);
    private final Ewma m15 = Ewma.overMinutes(15);
    private long count;
    private long lastTickNanos;

    public LegacyMeter(String eventType) {
        this(eventType, Time.SYSTEM);
    }

    LegacyMeter(String eventType, Time time) {
        this.eventType = eventType;
        this.time = time;
        this.startNanos = time.nanoseconds();
        this.lastTickNanos = startNanos;
    }

    public synchronized void mark(long n) {
        tickIfDue();
        count += n;
        m1.update(n);
        m5.update(n);
        m15.update(n);
    }

    private void tickIfDue() {
        long now = time.nanoseconds();
        long ticks = (now - lastTickNanos) / Ewma.TICK_NANOS;
        for (long i = 0; i < ticks; i++) {
            m1.tick();
            m5.tick();
            m15.tick();
        }
        lastTickNanos += ticks * Ewma.TICK_NANOS;
    }

    @Override
    public synchronized long getCount() {
        return count;
    }

    @Override
    public String getEventType() {
        return eventType;
    }

    @Override
    public TimeUnit getRateUnit() {
        return TimeUnit.SECONDS;
    }

    @Override
    public synchronized double getMeanRate() {
        long elapsed = time.nanoseconds() - startNanos;
        return count == 0 || elapsed <= 0 ? 0.0 : (double) count / elapsed * TimeUnit.SECONDS.toNanos(1);
    }

    @Override
    public synchronized double getOneMinuteRate() {
        tickIfDue();
        return m1.rate(TimeUnit.SECONDS);
    }

    @Override
    public synchronized double getFiveMinuteRate() {
        tickIfDue();
        return m5.rate(TimeUnit.SECONDS);
    }

    @Override
    public synchronized double getFifteenMinuteRate() {
        tickIfDue();
        return m15.rate(TimeUnit.SECONDS);
    }
}
