package io.zkgroups.rebalancer.cutover;

import io.zkgroups.rebalancer.offsets.CommitPermit;
import io.zkgroups.rebalancer.offsets.OffsetLookup;
import io.zkgroups.rebalancer.offsets.OffsetStore;
import io.zkgroups.registry.model.TopicAndPartition;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Set;

/**
 * The configured offset store of a ZooKeeper-coordinated member, until it crosses to Kafka's coordinator: from
 * {@link #handOff()} on, commits go to ZooKeeper only. Kafka refuses commits of a client outside its group as soon as
 * one member of the group has joined through Kafka's protocol, so the last commits before a release (the application's
 * in {@code onPartitionsRevoked}, the one on revoke) are handed over in the ZooKeeper offset znodes, where the next
 * owner reads them (it starts from the larger of ZooKeeper's and Kafka's offset, docs/cutover.md). Reads are the
 * configured store's. After a member came back from Kafka's coordinator ({@link #backOnZooKeeper()}) it reads and
 * writes ZooKeeper alone: the members in Kafka's group wrote every commit there too, and Kafka's group refuses
 * commits from outside while it has members (and its offsets are refused to a ZooKeeper group once Kafka's protocol
 * used it, {@code KafkaOffsets}).
 * <p>
 * Thread-safe when both stores are.
 */
public final class HandOffOffsets implements OffsetStore {

    private final OffsetStore configured;
    private final OffsetStore zookeeper;
    private volatile boolean handingOff;
    private volatile boolean backOnZooKeeper;

    public HandOffOffsets(OffsetStore configured, OffsetStore zookeeper) {
        this.configured = configured;
        this.zookeeper = zookeeper;
    }

    /** From now on, commits go to ZooKeeper only. */
    public void handOff() {
        handingOff = true;
    }

    /** From now on, reads and commits go to ZooKeeper only. */
    public void backOnZooKeeper() {
        backOnZooKeeper = true;
        handingOff = true;
    }

    private OffsetStore reads() {
        return backOnZooKeeper ? zookeeper : configured;
    }

    private OffsetStore writes() {
        return handingOff ? zookeeper : configured;
    }

    @Override
    public Map<TopicAndPartition, Long> read(String group, Collection<TopicAndPartition> partitions) {
        return reads().read(group, partitions);
    }

    @Override
    public OffsetLookup lookup(String group, Collection<TopicAndPartition> partitions) {
        return reads().lookup(group, partitions);
    }

    @Override
    public OffsetLookup lookup(String group, Collection<TopicAndPartition> partitions, Duration timeout) {
        return reads().lookup(group, partitions, timeout);
    }

    @Override
    public Set<TopicAndPartition> commit(String group, Map<TopicAndPartition, Long> offsets) {
        return writes().commit(group, offsets);
    }

    @Override
    public Set<TopicAndPartition> commit(String group, Map<TopicAndPartition, Long> offsets, CommitPermit permit) {
        return writes().commit(group, offsets, permit);
    }

    @Override
    public String name() {
        return handingOff ? zookeeper.name() : configured.name();
    }

    @Override
    public void close() {
        configured.close();
        zookeeper.close();
    }
}
