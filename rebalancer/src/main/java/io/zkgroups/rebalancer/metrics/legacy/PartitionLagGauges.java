package io.zkgroups.rebalancer.metrics.legacy;

import io.zkgroups.registry.model.TopicAndPartition;

import javax.management.ObjectName;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.ToLongFunction;

/**
 * 0.8.2.2's per-partition lag gauges, {@code kafka.server:type=FetcherLagMetrics,name=ConsumerLag,clientId=C,topic=T,
 * partition=P}: one for each partition the consumer owns, registered when it is gained and unregistered when it is
 * lost (0.8.2.2 kept one per partition its fetcher threads were reading).
 */
final class PartitionLagGauges {

    private final MBeanRegistrations registrations;
    private final String clientId;
    private final ToLongFunction<TopicAndPartition> lag;
    private final Map<TopicAndPartition, ObjectName> gauges = new HashMap<>();

    /** @param lag a partition's lag in records, -1 while unknown (0.8.2.2's value before the first fetch) */
    PartitionLagGauges(MBeanRegistrations registrations, String clientId, ToLongFunction<TopicAndPartition> lag) {
        this.registrations = registrations;
        this.clientId = clientId;
        this.lag = lag;
    }

    /** The consumer owns {@code partitions} now. */
    synchronized void owned(Set<TopicAndPartition> partitions) {
        gauges.entrySet().removeIf(e -> {
            if (partitions.contains(e.getKey())) {
                return false;
            }
            registrations.unregister(e.getValue());
            return true;
        });
        for (TopicAndPartition tp : partitions) {
            if (!gauges.containsKey(tp)) {
                ObjectName name = registrations.register("kafka.server:type=FetcherLagMetrics,name=ConsumerLag,clientId="
                        + clientId + ",topic=" + tp.topic() + ",partition=" + tp.partition(),
                        new LegacyGauge(() -> lag.applyAsLong(tp)));
                gauges.put(tp, name); // null when taken: tried once per ownership, not at every change
            }
        }
    }
}
