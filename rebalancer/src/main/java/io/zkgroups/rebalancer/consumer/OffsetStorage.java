package io.zkgroups.rebalancer.consumer;

import io.zkgroups.rebalancer.metrics.ConsumerMetrics;
import io.zkgroups.rebalancer.offsets.DualOffsets;
import io.zkgroups.rebalancer.offsets.KafkaOffsets;
import io.zkgroups.rebalancer.offsets.OffsetStore;
import io.zkgroups.rebalancer.offsets.ZkOffsets;
import io.zkgroups.registry.ZkRegistry;
import org.apache.kafka.clients.admin.Admin;

import java.time.Duration;

/**
 * The one place that turns {@code offsets.storage} and {@code dual.commit.enabled} into an {@link OffsetStore}, as
 * 0.8.2.2 does: {@code zookeeper} (the default), {@code kafka}, or {@code kafka} with dual commit (Kafka first, then
 * ZooKeeper; read the larger).
 */
final class OffsetStorage {

    private static final Duration KAFKA_TIMEOUT = Duration.ofSeconds(30);

    private OffsetStorage() {
    }

    /** Whether the configured storage needs a Kafka Admin client. */
    static boolean needsKafka(ZkConsumerConfig config) {
        return config.offsetsStorage() == ZkConsumerConfig.OffsetsStorage.KAFKA;
    }

    /**
     * The store for {@code config}; {@code admin} may be null when {@link #needsKafka} is false. What each underlying store
     * accepts is counted in {@code metrics}.
     */
    static OffsetStore forConfig(ZkConsumerConfig config, ZkRegistry registry, Admin admin, ConsumerMetrics metrics) {
        OffsetStore zk = new MeteredOffsetStore(new ZkOffsets(registry.offsets()), ConsumerMetrics.Store.ZOOKEEPER, metrics);
        if (!needsKafka(config)) {
            return zk;
        }
        OffsetStore kafka = new MeteredOffsetStore(new KafkaOffsets(admin, KAFKA_TIMEOUT, false), ConsumerMetrics.Store.KAFKA,
                metrics);
        return config.dualCommit() ? new DualOffsets(kafka, zk) : kafka;
    }
}
