package io.zkgroups.rebalancer.metrics.legacy;

import io.zkgroups.registry.model.TopicAndPartition;

import javax.management.ObjectName;
import java.io.Closeable;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * The MBeans that kafka_2.10:0.8.2.2's high-level consumer registers and that dashboards and alerts are built on, under
 * their exact names (as listed from a live 0.8.2.2 consumer), so they keep working after the swap:
 * <pre>
 * kafka.consumer:type=ZookeeperConsumerConnector,name=RebalanceRateAndTime,clientId=C       timer  (ms, events "calls")
 * kafka.consumer:type=ZookeeperConsumerConnector,name=ZooKeeperCommitsPerSec,clientId=C     meter  ("commits": partitions written)
 * kafka.consumer:type=ZookeeperConsumerConnector,name=KafkaCommitsPerSec,clientId=C         meter  ("commits": partitions written)
 * kafka.consumer:type=ZookeeperConsumerConnector,name=OwnedPartitionsCount,clientId=C,groupId=G          gauge
 * kafka.consumer:type=ZookeeperConsumerConnector,name=OwnedPartitionsCount,clientId=C,groupId=G,topic=T  gauge, per owned topic
 * kafka.consumer:type=ZookeeperConsumerConnector,name=FetchQueueSize,clientId=C,topic=T,threadId=TID     gauge, per stream (0.8 API)
 * kafka.consumer:type=ConsumerFetcherManager,name=MaxLag,clientId=C                          gauge
 * kafka.server:type=FetcherLagMetrics,name=ConsumerLag,clientId=C,topic=T,partition=P         gauge, per owned partition
 * kafka.consumer:type=ConsumerTopicMetrics,name=MessagesPerSec|BytesPerSec,clientId=C[,topic=T]  meters ("messages", "bytes")
 * kafka.common:type=AppInfo,name=Version                                                      gauge, once per JVM
 * </pre>
 * Like 0.8.2.2, the per-topic ownership gauge exists while the consumer owns partitions of the topic, the lag gauge
 * while it owns the partition. A name already registered in this JVM (two consumers with one client id) is left to
 * its first owner, with a warning.
 */
public final class LegacyMBeans implements Closeable {

    private static final String CONNECTOR = "kafka.consumer:type=ZookeeperConsumerConnector";

    private final MBeanRegistrations registrations;
    private final String clientId;
    private final String groupId;
    private final LegacyTimer rebalances = new LegacyTimer("calls");
    private final LegacyMeter zooKeeperCommits = new LegacyMeter("commits");
    private final LegacyMeter kafkaCommits = new LegacyMeter("commits");
    private final PartitionLagGauges lagGauges;
    private final TopicThroughput throughput;
    private final Map<String, ObjectName> topicGauges = new TreeMap<>();
    private volatile Map<String, Integer> ownedByTopic = Map.of();

    /**
     * Registers the MBeans; {@code maxLag} is read when JMX asks for {@code MaxLag}, {@code lag} for a partition's
     * {@code ConsumerLag} (-1 while unknown).
     */
    public LegacyMBeans(String clientId, String groupId, Supplier<Long> maxLag, ToLongFunction<TopicAndPartition> lag) {
        this.registrations = new MBeanRegistrations(clientId);
        this.clientId = clientId;
        this.groupId = groupId;
        registrations.register(CONNECTOR + ",name=RebalanceRateAndTime,clientId=" + clientId, rebalances);
        registrations.register(CONNECTOR + ",name=ZooKeeperCommitsPerSec,clientId=" + clientId, zooKeeperCommits);
        registrations.register(CONNECTOR + ",name=KafkaCommitsPerSec,clientId=" + clientId, kafkaCommits);
        registrations.register(ownedName(null),
                new LegacyGauge(() -> ownedByTopic.values().stream().mapToInt(Integer::intValue).sum()));
        registrations.register("kafka.consumer:type=ConsumerFetcherManager,name=MaxLag,clientId=" + clientId,
                new LegacyGauge(maxLag));
        this.lagGauges = new PartitionLagGauges(registrations, clientId, lag);
        this.throughput = new TopicThroughput(registrations, clientId);
        AppInfo.registerOnce();
    }

    /** A rebalance completed after {@code millis}. */
    public void rebalanced(double millis) {
        rebalances.update(millis);
    }

    /** {@code partitions} offsets were written to ZooKeeper. */
    public void zooKeeperCommitted(int partitions) {
        zooKeeperCommits.mark(partitions);
    }

    /** {@code partitions} offsets were written to Kafka. */
    public void kafkaCommitted(int partitions) {
        kafkaCommits.mark(partitions);
    }

    /** {@code messages} records of {@code topic}, of {@code bytes} keys and values, were consumed. */
    public void consumed(String topic, long messages, long bytes) {
        throughput.consumed(topic, messages, bytes);
    }

    /** One stream of the 0.8 API: {@code FetchQueueSize} of {@code topic}, {@code threadId}, until close. */
    public void streamQueue(String topic, String threadId, IntSupplier queuedChunks) {
        registrations.register(CONNECTOR + ",name=FetchQueueSize,clientId=" + clientId + ",topic=" + topic
                + ",threadId=" + threadId, new LegacyGauge(queuedChunks::getAsInt));
    }

    /**
     * The consumer owns {@code partitions} now: per-topic ownership gauges come and go with the topics, lag gauges
     * with the partitions.
     */
    public synchronized void owned(Set<TopicAndPartition> partitions) {
        Map<String, Integer> byTopic = new TreeMap<>();
        for (TopicAndPartition tp : partitions) {
            byTopic.merge(tp.topic(), 1, Integer::sum);
        }
        ownedByTopic = Map.copyOf(byTopic);
        for (String topic : Set.copyOf(topicGauges.keySet())) {
            if (!byTopic.containsKey(topic)) {
                registrations.unregister(topicGauges.remove(topic));
            }
        }
        for (String topic : byTopic.keySet()) {
            if (!topicGauges.containsKey(topic)) {
                topicGauges.put(topic, registrations.register(ownedName(topic),
                        new LegacyGauge(() -> ownedByTopic.getOrDefault(topic, 0))));
            }
        }
        lagGauges.owned(partitions);
    }

    private String ownedName(String topic) {
        return CONNECTOR + ",name=OwnedPartitionsCount,clientId=" + clientId + ",groupId=" + groupId
                + (topic == null ? "" : ",topic=" + topic);
    }

    /** Unregisters every MBean this instance registered (AppInfo stays, as in 0.8.2.2). */
    @Override
    public synchronized void close() {
        registrations.unregisterAll();
        topicGauges.clear();
    }
}
