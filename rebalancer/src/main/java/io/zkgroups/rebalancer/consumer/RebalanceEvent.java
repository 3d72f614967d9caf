package io.zkgroups.rebalancer.consumer;

import io.zkgroups.rebalancer.group.OwnershipFence;
import org.apache.kafka.common.TopicPartition;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * A change of ownership handed from the group member's event loop to the consumer's poll thread. Implemented by
 * {@link Revoke}, {@link Lose}, {@link Assign} and {@link Wakeup} only. Immutable; the {@code done} future of a
 * revocation is the one thing the two threads share through it.
 */
interface RebalanceEvent {

    /**
     * Partitions to give up; {@code done} completes once their offsets are committed (or given up on). The member
     * waits until {@code deadline}, so the commit has until then.
     */
    final class Revoke implements RebalanceEvent {
        private final Set<TopicPartition> partitions;
        private final CompletableFuture<Void> done;
        private final Deadline deadline;

        Revoke(Set<TopicPartition> partitions, CompletableFuture<Void> done, Deadline deadline) {
            this.partitions = partitions;
            this.done = done;
            this.deadline = deadline;
        }

        Set<TopicPartition> partitions() {
            return partitions;
        }

        CompletableFuture<Void> done() {
            return done;
        }

        Deadline deadline() {
            return deadline;
        }

        @Override
        public String toString() {
            return "Revoke[partitions=" + partitions + ", done=" + done + "]";
        }
    }

    /** Partitions that may already belong to someone else: stop, do not commit. */
    final class Lose implements RebalanceEvent {
        private final Set<TopicPartition> partitions;

        Lose(Set<TopicPartition> partitions) {
            this.partitions = partitions;
        }

        Set<TopicPartition> partitions() {
            return partitions;
        }

        @Override
        public String toString() {
            return "Lose[partitions=" + partitions + "]";
        }
    }

    /** Partitions now owned, with the fence's grant of each: read offsets, seek, tell the application. */
    final class Assign implements RebalanceEvent {
        private final Map<TopicPartition, OwnershipFence.Grant> grants;

        Assign(Map<TopicPartition, OwnershipFence.Grant> grants) {
            this.grants = grants;
        }

        Map<TopicPartition, OwnershipFence.Grant> grants() {
            return grants;
        }

        @Override
        public String toString() {
            return "Assign[grants=" + grants + "]";
        }
    }

    /** {@code wakeup()} was called. */
    final class Wakeup implements RebalanceEvent {
        @Override
        public String toString() {
            return "Wakeup[]";
        }
    }
}
