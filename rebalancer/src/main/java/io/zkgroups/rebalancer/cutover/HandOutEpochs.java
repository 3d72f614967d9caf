package io.zkgroups.rebalancer.cutover;

import io.zkgroups.rebalancer.group.OwnershipFence.HandOut;
import org.apache.kafka.common.TopicPartition;

import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The hand-out fence of a Kafka-coordinated member, for code that hands records out after {@code poll} returned them
 * (the 0.8 bridge's streams, {@code HandOutFence}): each time a partition is fenced it gets a new epoch, and a record
 * fetched under an epoch may go out only while that epoch is current. Epochs are negative, so that none equals an epoch
 * of the ZooKeeper-coordinated fence (positive) and records queued before a crossing never go out after it.
 * <p>
 * <b>Threading.</b> {@link #grant} and {@link #withdraw} on the polling thread; {@link #check} on any thread.
 */
final class HandOutEpochs {

    private final Map<TopicPartition, Long> current = new ConcurrentHashMap<>();
    private long next = -1;

    /** New epochs for {@code partitions}, fenced now. */
    void grant(Collection<TopicPartition> partitions) {
        for (TopicPartition tp : partitions) {
            current.put(tp, next--);
        }
    }

    /** {@code partitions} are no longer fenced: nothing fetched under their epochs goes out from now on. */
    void withdraw(Collection<TopicPartition> partitions) {
        current.keySet().removeAll(partitions);
    }

    void withdrawAll() {
        current.clear();
    }

    /** The epoch {@code tp} is fetched under, 0 if it is not fenced. */
    long epochOf(TopicPartition tp) {
        Long epoch = current.get(tp);
        return epoch == null ? 0 : epoch;
    }

    HandOut check(TopicPartition tp, long epoch) {
        Long now = current.get(tp);
        return now != null && now == epoch ? HandOut.ALLOWED : HandOut.NEVER;
    }
}
