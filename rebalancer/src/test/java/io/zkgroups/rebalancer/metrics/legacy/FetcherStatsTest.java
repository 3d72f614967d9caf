package io.zkgroups.rebalancer.metrics.legacy;

import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Measurable;
import org.apache.kafka.common.metrics.Metrics;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/** 0.8.2.2's per-broker meters, fed from a fetch client's per-node running totals (a real kafka-clients registry). */
class FetcherStatsTest {

    private static final MBeanServer JMX = ManagementFactory.getPlatformMBeanServer();
    private static final String KEYS = ",clientId=fetcher-stats-test,brokerHost=broker1,brokerPort=9092";

    private final Metrics metrics = new Metrics();
    private final double[] broker1 = new double[2]; // request-total, incoming-byte-total
    private final double[] bootstrap = new double[2];
    private final AtomicBoolean addressKnown = new AtomicBoolean(true);
    private final MBeanRegistrations registrations = new MBeanRegistrations("fetcher-stats-test");
    private final FetcherStats stats = new FetcherStats(registrations, "fetcher-stats-test", metrics::metrics,
            id -> id == 1 && addressKnown.get() ? Optional.of(new BrokerAddress("broker1", 9092)) : Optional.empty());

    FetcherStatsTest() {
        node("node-1", broker1);
        node("node--1", bootstrap);
    }

    private void node(String nodeId, double[] totals) {
        Map<String, String> tags = Map.of("client-id", "fetcher-stats-test", "node-id", nodeId);
        metrics.addMetric(new MetricName("request-total", "consumer-node-metrics", "", tags), (Measurable) (c, now) -> totals[0]);
        metrics.addMetric(new MetricName("incoming-byte-total", "consumer-node-metrics", "", tags), (Measurable) (c, now) -> totals[1]);
    }

    @AfterEach
    void close() {
        registrations.unregisterAll();
        metrics.close();
    }

    private static Object count(String name) throws Exception {
        return JMX.getAttribute(new ObjectName("kafka.server:type=FetcherStats,name=" + name + KEYS), "Count");
    }

    @Test
    void eachSampleMarksWhatABrokersTotalsGrewBy() throws Exception {
        broker1[0] = 3;
        broker1[1] = 1000;
        bootstrap[0] = 7;
        stats.sample();
        assertThat(count("RequestsPerSec")).isEqualTo(3L);
        assertThat(count("BytesPerSec")).isEqualTo(1000L);
        assertThat(JMX.queryNames(new ObjectName("kafka.server:type=FetcherStats,*"), null))
                .as("bootstrap connections are no broker's").hasSize(2);

        broker1[0] = 5;
        broker1[1] = 1500;
        stats.sample();
        assertThat(count("RequestsPerSec")).isEqualTo(5L);
        assertThat(count("BytesPerSec")).isEqualTo(1500L);

        broker1[0] = 2; // a new connection counts from 0 again
        broker1[1] = 100;
        stats.sample();
        assertThat(count("RequestsPerSec")).isEqualTo(7L);
        assertThat(count("BytesPerSec")).isEqualTo(1600L);
        assertThat(JMX.getAttribute(new ObjectName("kafka.server:type=FetcherStats,name=RequestsPerSec" + KEYS), "EventType"))
                .isEqualTo("requests");
    }

    @Test
    void aBrokerWhoseAddressIsUnknownGetsItsMetersOnceItIsKnown() throws Exception {
        addressKnown.set(false);
        broker1[0] = 4;
        stats.sample();
        assertThat(JMX.queryNames(new ObjectName("kafka.server:type=FetcherStats,*"), null)).isEmpty();
        assertThat(stats.minFetchRate()).isZero();

        addressKnown.set(true);
        stats.sample();
        assertThat(count("RequestsPerSec")).isEqualTo(4L);
    }
}
