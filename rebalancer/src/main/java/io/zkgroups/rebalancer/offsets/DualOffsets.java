package io.zkgroups.rebalancer.offsets;

import io.zkgroups.registry.model.TopicAndPartition;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * 0.8.2.2's dual commit ({@code offsets.storage=kafka}, {@code dual.commit.enabled=true}): commit to Kafka
 * first, then to ZooKeeper for the partitions Kafka accepted; read the larger of the two. During a
 * migration some members still commit only to ZooKeeper, so whichever member owned a partition last, the
 * maximum is never a rewind. The maximum is taken only over offsets of this group: Kafka's side is refused, not
 * adopted, when Kafka's own group protocol uses the same group id ({@link KafkaOffsets#read}).
 * <p>
 * Thread-safe when both its stores are, as those of this package are.
 */
public final class DualOffsets implements OffsetStore {

    private final OffsetStore kafka;
    private final OffsetStore zookeeper;

    public DualOffsets(OffsetStore kafka, OffsetStore zookeeper) {
        this.kafka = kafka;
        this.zookeeper = zookeeper;
    }

    @Override
    public Map<TopicAndPartition, Long> read(String group, Collection<TopicAndPartition> partitions) {
        Map<TopicAndPartition, Long> result = new TreeMap<>(zookeeper.read(group, partitions));
        kafka.read(group, partitions).forEach((tp, offset) -> result.merge(tp, offset, Math::max));
        return result;
    }

    /** The larger of both per partition; unknown when either store cannot say (the other alone could be a rewind). */
    @Override
    public OffsetLookup lookup(String group, Collection<TopicAndPartition> partitions) {
        return merged(zookeeper.lookup(group, partitions), kafka.lookup(group, partitions));
    }

    /** As {@link #lookup(String, Collection)}, each store within {@code timeout}. */
    @Override
    public OffsetLookup lookup(String group, Collection<TopicAndPartition> partitions, java.time.Duration timeout) {
        return merged(zookeeper.lookup(group, partitions, timeout), kafka.lookup(group, partitions, timeout));
    }

    private static OffsetLookup merged(OffsetLookup zk, OffsetLookup inKafka) {
        Map<TopicAndPartition, Long> offsets = new TreeMap<>(zk.offsets());
        inKafka.offsets().forEach((tp, offset) -> offsets.merge(tp, offset, Math::max));
        Map<TopicAndPartition, String> unknown = new TreeMap<>(inKafka.unknown());
        zk.unknown().forEach((tp, why) -> unknown.merge(tp, why, (a, b) -> a + "; " + b));
        offsets.keySet().removeAll(unknown.keySet());
        return OffsetLookup.of(offsets, unknown);
    }

    @Override
    public Set<TopicAndPartition> commit(String group, Map<TopicAndPartition, Long> offsets) {
        Set<TopicAndPartition> accepted = kafka.commit(group, offsets);
        Map<TopicAndPartition, Long> toZk = new HashMap<>();
        accepted.forEach(tp -> toZk.put(tp, offsets.get(tp)));
        zookeeper.commit(group, toZk);
        return accepted;
    }

    @Override
    public Set<TopicAndPartition> commit(String group, Map<TopicAndPartition, Long> offsets, CommitPermit permit) {
        Set<TopicAndPartition> accepted = kafka.commit(group, offsets, permit);
        Map<TopicAndPartition, Long> toZk = new HashMap<>();
        accepted.forEach(tp -> toZk.put(tp, offsets.get(tp)));
        zookeeper.commit(group, toZk, permit);
        return accepted;
    }

    @Override
    public String name() {
        return "kafka+zookeeper";
    }

    @Override
    public void close() {
        kafka.close();
        zookeeper.close();
    }
}
