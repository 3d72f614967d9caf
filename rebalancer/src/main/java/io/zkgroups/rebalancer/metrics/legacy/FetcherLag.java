package io.zkgroups.rebalancer.metrics.legacy;

import io.zkgroups.registry.model.TopicAndPartition;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

import java.util.Map;

/** 0.8's lag figures, read from the fetch client's {@code records-lag} of each partition (its last fetch). */
final class FetcherLag {

    private static final String FETCH_GROUP = "consumer-fetch-manager-metrics";

    private FetcherLag() {
    }

    /** {@code ConsumerLag} of {@code tp}: its {@code records-lag}, -1 before its first fetch (0.8.2.2's initial value). */
    static long of(Map<MetricName, ? extends Metric> fetcher, TopicAndPartition tp) {
        String partition = Integer.toString(tp.partition());
        for (Map.Entry<MetricName, ? extends Metric> e : fetcher.entrySet()) {
            MetricName name = e.getKey();
            if (isPartitionLag(name) && partition.equals(name.tags().get("partition"))
                    && tp.topic().equals(name.tags().get("topic"))) {
                double lag = valueOf(e.getValue());
                return Double.isNaN(lag) ? -1 : (long) lag;
            }
        }
        return -1;
    }

    /** {@code MaxLag}: the largest {@code records-lag} of a partition the fetcher reads, 0 when none. */
    static long max(Map<MetricName, ? extends Metric> fetcher) {
        double max = 0;
        for (Map.Entry<MetricName, ? extends Metric> e : fetcher.entrySet()) {
            if (isPartitionLag(e.getKey())) {
                double lag = valueOf(e.getValue());
                if (!Double.isNaN(lag)) {
                    max = Math.max(max, lag);
                }
            }
        }
        return (long) max;
    }

    private static boolean isPartitionLag(MetricName name) {
        return name.name().equals("records-lag") && name.group().equals(FETCH_GROUP) && name.tags().containsKey("partition");
    }

    private static double valueOf(Metric metric) {
        Object value = metric.metricValue();
        return value instanceof Number ? ((Number) value).doubleValue() : Double.NaN;
    }
}
