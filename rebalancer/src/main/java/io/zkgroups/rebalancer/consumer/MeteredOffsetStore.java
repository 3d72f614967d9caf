package io.zkgroups.rebalancer.consumer;

import io.zkgroups.rebalancer.metrics.ConsumerMetrics;
import io.zkgroups.rebalancer.offsets.CommitPermit;
import io.zkgroups.rebalancer.offsets.OffsetLookup;
import io.zkgroups.rebalancer.offsets.OffsetStore;
import io.zkgroups.registry.model.TopicAndPartition;

import java.util.Collection;
import java.util.Map;
import java.util.Set;

/** One offset store, with the offsets it accepts counted under its type's name (0.8.2.2's ZooKeeper/KafkaCommitsPerSec). */
final class MeteredOffsetStore implements OffsetStore {

    private final OffsetStore store;
    private final String kind;
    private final ConsumerMetrics metrics;

    MeteredOffsetStore(OffsetStore store, String kind, ConsumerMetrics metrics) {
        this.store = store;
        this.kind = kind;
        this.metrics = metrics;
    }

    @Override
    public Map<TopicAndPartition, Long> read(String group, Collection<TopicAndPartition> partitions) {
        return store.read(group, partitions);
    }

    @Override
    public OffsetLookup lookup(String group, Collection<TopicAndPartition> partitions) {
        return store.lookup(group, partitions);
    }

    @Override
    public OffsetLookup lookup(String group, Collection<TopicAndPartition> partitions, java.time.Duration timeout) {
        return store.lookup(group, partitions, timeout);
    }

    @Override
    public Set<TopicAndPartition> commit(String group, Map<TopicAndPartition, Long> offsets) {
        return counted(store.commit(group, offsets));
    }

    @Override
    public Set<TopicAndPartition> commit(String group, Map<TopicAndPartition, Long> offsets, CommitPermit permit) {
        return counted(store.commit(group, offsets, permit));
    }

    private Set<TopicAndPartition> counted(Set<TopicAndPartition> accepted) {
        metrics.storeCommitted(kind, accepted.size());
        return accepted;
    }

    @Override
    public String name() {
        return store.name();
    }

    @Override
    public void close() {
        store.close();
    }
}
