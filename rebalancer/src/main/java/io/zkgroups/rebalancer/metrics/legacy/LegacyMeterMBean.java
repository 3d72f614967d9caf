package io.zkgroups.rebalancer.metrics.legacy;

import java.util.concurrent.TimeUnit;

/** The JMX attributes of a 0.8.2.2 (Yammer metrics 2.2) meter: names and types as its JmxReporter exposes them. */
public interface LegacyMeterMBean {
    long getCount();

    String getEventType();

    TimeUnit getRateUnit();

    double getMeanRate();

    double getOneMinuteRate();

    double getFiveMinuteRate();

    double getFifteenMinuteRate();
}
