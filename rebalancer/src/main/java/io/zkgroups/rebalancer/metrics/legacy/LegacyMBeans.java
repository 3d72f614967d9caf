package io.zkgroups.rebalancer.metrics.legacy;

import io.zkgroups.registry.Immutable;
import io.zkgroups.registry.model.TopicAndPartition;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;

import java.util.Collections;
import javax.management.ObjectName;
import java.io.Closeable;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ScheduledFuture;
import java.util.function.IntFunction;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

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
 * kafka.consumer:type=ConsumerFetcherManager,name=MinFetchRate,clientId=C                    gauge
 * kafka.server:type=FetcherStats,name=RequestsPerSec|BytesPerSec,clientId=C,brokerHost=H,brokerPort=P  meters, per broker
 * kafka.server:type=FetcherLagMetrics,name=ConsumerLag,clientId=C,topic=T,partition=P         gauge, per owned partition
 * kafka.consumer:type=ConsumerTopicMetrics,name=MessagesPerSec|BytesPerSec,clientId=C[,topic=T]  meters ("messages", "bytes")
 * kafka.common:type=AppInfo,name=Version                                                      gauge, once per JVM
 * </pre>
 * Like 0.8.2.2, the per-topic ownership gauge exists while the consumer owns partitions of the topic, the lag gauge
 * while it owns the partition. Two consumers with one client id share the names ({@link MBeanRegistrations}).
 */
public final class LegacyMBeans implements Closeable {

    private static final String CONNECTOR = "kafka.consumer:type=ZookeeperConsumerConnector";
    private static final String FETCHER_MANAGER = "kafka.consumer:type=ConsumerFetcherManager";

    private final MBeanRegistrations registrations;
    private final String clientId;
    private final String groupId;
    private final LegacyTimer rebalances;
    private final LegacyMeter zooKeeperCommits;
    private final LegacyMeter kafkaCommits;
    private final PartitionLagGauges lagGauges;
    private final TopicThroughput throughput;
    private final FetcherStats fetcherStats;
    private final ScheduledFuture<?> sampling;
    private final Map<String, ObjectName> topicGauges = new TreeMap<>();
    private volatile Map<String, Integer> ownedByTopic = Collections.emptyMap();

    /**
     * Registers the MBeans.
     *
     * @param fetcherMetrics the fetch client's metrics: lags are read from them when JMX asks, per-broker totals at
     *                       each tick
     * @param brokers        a broker id's address, empty when unknown
     */
    public LegacyMBeans(String clientId, String groupId, Supplier<Map<MetricName, ? extends Metric>> fetcherMetrics,
                        IntFunction<Optional<BrokerAddress>> brokers) {
        this.registrations = new MBeanRegistrations(clientId);
        this.clientId = clientId;
        this.groupId = groupId;
        this.fetcherStats = new FetcherStats(registrations, clientId, fetcherMetrics, brokers);
        this.rebalances = registrations.meter(CONNECTOR + ",name=RebalanceRateAndTime,clientId=" + clientId,
                new LegacyTimer("calls"));
        this.zooKeeperCommits = registrations.meter(CONNECTOR + ",name=ZooKeeperCommitsPerSec,clientId=" + clientId,
                new LegacyMeter("commits"));
        this.kafkaCommits = registrations.meter(CONNECTOR + ",name=KafkaCommitsPerSec,clientId=" + clientId,
                new LegacyMeter("commits"));
        registrations.register(ownedName(null),
                new LegacyGauge(() -> ownedByTopic.values().stream().mapToInt(Integer::intValue).sum()));
        registrations.register(FETCHER_MANAGER + ",name=MaxLag,clientId=" + clientId,
                new LegacyGauge(() -> FetcherLag.max(fetcherMetrics.get())));
        registrations.register(FETCHER_MANAGER + ",name=MinFetchRate,clientId=" + clientId,
                new LegacyGauge(fetcherStats::minFetchRate));
        this.lagGauges = new PartitionLagGauges(registrations, clientId, tp -> FetcherLag.of(fetcherMetrics.get(), tp));
        this.throughput = new TopicThroughput(registrations, clientId);
        this.sampling = SamplingTicker.every(fetcherStats::sample);
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

    /** {@code records} were consumed: the topics' message and byte meters. */
    public void delivered(ConsumerRecords<?, ?> records) {
        for (TopicPartition tp : records.partitions()) {
            List<? extends ConsumerRecord<?, ?>> batch = records.records(tp);
            throughput.consumed(tp.topic(), batch.size(), TopicThroughput.messageSetBytes(batch));
        }
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
        ownedByTopic = Immutable.map(byTopic);
        for (String topic : Immutable.set(topicGauges.keySet())) {
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
        sampling.cancel(false);
        registrations.unregisterAll();
        topicGauges.clear();
    }
}
