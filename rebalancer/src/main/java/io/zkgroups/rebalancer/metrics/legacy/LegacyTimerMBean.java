package io.zkgroups.rebalancer.metrics.legacy;

import java.util.concurrent.TimeUnit;

/** The JMX attributes of a 0.8.2.2 (Yammer metrics 2.2) timer: a meter of the events and a histogram of their durations. */
public interface LegacyTimerMBean extends LegacyMeterMBean {
    TimeUnit getLatencyUnit();

    double getMin();

    double getMax();

    double getMean();

    double getStdDev();

    double get50thPercentile();

    double get75thPercentile();

    double get95thPercentile();

    double get98thPercentile();

    double get99thPercentile();

    double get999thPercentile();
}
