package io.zkgroups.rebalancer.consumer;

import io.zkgroups.rebalancer.group.OwnershipFence;
import org.apache.kafka.common.TopicPartition;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/** A change of ownership handed from the group member's event loop to the consumer's poll thread. */
sealed interface RebalanceEvent {

    /** Partitions to give up; {@code done} completes once their offsets are committed (or given up on). */
    record Revoke(Set<TopicPartition> partitions, CompletableFuture<Void> done) implements RebalanceEvent {
    }

    /** Partitions that may already belong to someone else: stop, do not commit. */
    record Lose(Set<TopicPartition> partitions) implements RebalanceEvent {
    }

    /** Partitions now owned, with the fence's grant of each: read offsets, seek, tell the application. */
    record Assign(Map<TopicPartition, OwnershipFence.Grant> grants) implements RebalanceEvent {
    }

    /** {@code wakeup()} was called. */
    record Wakeup() implements RebalanceEvent {
    }
}
