package io.zkgroups.rebalancer.consumer;

import io.zkgroups.rebalancer.cutover.HandOffOffsets;
import io.zkgroups.rebalancer.metrics.ConsumerMetrics;
import io.zkgroups.rebalancer.offsets.DualOffsets;
import io.zkgroups.rebalancer.offsets.OffsetStore;
import io.zkgroups.rebalancer.offsets.OffsetStoreType;
import io.zkgroups.rebalancer.offsets.OffsetStores;
import io.zkgroups.registry.ZkRegistry;
import org.apache.kafka.clients.admin.Admin;

/**
 * Turns {@code offsets.storage} and {@code dual.commit.enabled} into an {@link OffsetStore}, as 0.8.2.2 does: the
 * store of the configured {@link OffsetStores} type ({@code zookeeper}, the default, or {@code kafka}), with dual
 * commit (that store first, then ZooKeeper; read the larger) where the type supports it. Each underlying store counts
 * what it accepts in the metrics under its name.
 */
final class ConfiguredOffsetStores {

    private ConfiguredOffsetStores() {
    }

    /** Whether the configured storage needs a Kafka Admin client. */
    static boolean needsKafka(ZkConsumerConfig config) {
        return config.offsetsStorage().needsKafka();
    }

    /** The store for {@code config}; {@code admin} may be null when {@link #needsKafka} is false. */
    static OffsetStore forConfig(ZkConsumerConfig config, ZkRegistry registry, Admin admin, ConsumerMetrics metrics) {
        OffsetStoreType type = config.offsetsStorage();
        OffsetStore store = metered(type, registry, admin, metrics);
        return config.dualCommit() ? new DualOffsets(store, metered(OffsetStores.ZOOKEEPER, registry, admin, metrics))
                : store;
    }

    /**
     * The configured store inside a {@link HandOffOffsets}, whose commits a crossing to Kafka's coordinator turns to
     * ZooKeeper alone (docs/cutover.md).
     */
    static HandOffOffsets handingOff(ZkConsumerConfig config, ZkRegistry registry, Admin admin, ConsumerMetrics metrics) {
        return new HandOffOffsets(forConfig(config, registry, admin, metrics),
                metered(OffsetStores.ZOOKEEPER, registry, admin, metrics));
    }

    private static OffsetStore metered(OffsetStoreType type, ZkRegistry registry, Admin admin, ConsumerMetrics metrics) {
        return new MeteredOffsetStore(type.open(registry, needsKafkaOrNull(type, admin)), type.name(), metrics);
    }

    private static Admin needsKafkaOrNull(OffsetStoreType type, Admin admin) {
        return type.needsKafka() ? admin : null;
    }
}
