package io.zkgroups.rebalancer.consumer;

import io.zkgroups.rebalancer.group.OwnershipFence;
import org.apache.kafka.common.TopicPartition;

/**
 * The {@link HandOutFence} of a {@link ZkGroupConsumer}: epochs from its {@link SubscriptionState}, checks against the
 * fence of the member it is subscribed through (none when not subscribed: every hand-out is refused).
 * <p>
 * <b>Threading.</b> {@link #epochOf} on the thread inside the consumer; {@link #check} and {@link #awaitChange} on any
 * thread: they read only the state's volatile fence, which is thread-safe.
 */
final class SubscriptionHandOutFence implements HandOutFence {

    private final SubscriptionState state;

    SubscriptionHandOutFence(SubscriptionState state) {
        this.state = state;
    }

    @Override
    public long epochOf(TopicPartition partition) {
        return state.fetchedEpoch(partition);
    }

    @Override
    public OwnershipFence.HandOut check(TopicPartition partition, long epoch) {
        OwnershipFence fence = state.fence();
        return fence == null ? OwnershipFence.HandOut.NEVER : fence.handOut(KafkaPartitions.toRegistry(partition), epoch);
    }

    @Override
    public void awaitChange(long maxNanos) throws InterruptedException {
        OwnershipFence fence = state.fence();
        if (fence != null) {
            fence.awaitChange(maxNanos);
        }
    }
}
