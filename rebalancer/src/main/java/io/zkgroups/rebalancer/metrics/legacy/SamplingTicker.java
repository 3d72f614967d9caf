package io.zkgroups.rebalancer.metrics.legacy;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * One daemon thread per JVM that feeds the 0.8.2.2 meters whose events are only counted by the fetch client (so they
 * are read as running totals): every {@link Ewma#TICK_NANOS}, the tick of Yammer's meters, so the moving averages see
 * the events in the interval they happened in.
 */
final class SamplingTicker {

    private static final Logger LOG = LoggerFactory.getLogger(SamplingTicker.class);

    private static final ScheduledExecutorService EXECUTOR = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "zkgroups-legacy-metrics");
        thread.setDaemon(true);
        return thread;
    });

    private SamplingTicker() {
    }

    /**
     * Runs {@code sample} every tick until the returned future is cancelled. A sample that throws is logged and the
     * next one runs (an executor would otherwise drop the task silently).
     */
    static ScheduledFuture<?> every(Runnable sample) {
        Runnable guarded = () -> {
            try {
                sample.run();
            } catch (RuntimeException e) {
                LOG.debug("0.8 metrics sample failed; the next tick tries again", e);
            }
        };
        return EXECUTOR.scheduleAtFixedRate(guarded, Ewma.TICK_NANOS, Ewma.TICK_NANOS, TimeUnit.NANOSECONDS);
    }
}
