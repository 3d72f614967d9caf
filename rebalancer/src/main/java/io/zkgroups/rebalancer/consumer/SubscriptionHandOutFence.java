package io.zkgroups.rebalancer.consumer;

import io.zkgroups.rebalancer.cutover.KafkaGroupMode;
import io.zkgroups.rebalancer.group.OwnershipFence;
import org.apache.kafka.common.TopicPartition;

import java.util.function.Supplier;

/**
 * The {@link HandOutFence} of a {@link ZkGroupConsumer}: epochs from its {@link SubscriptionState}, checks against the
 * fence of the member it is subscribed through (none when not subscribed: every hand-out is refused); once the
 * consumer has crossed to Kafka's coordinator, those of its {@link KafkaGroupMode} (whose epochs never equal the
 * ZooKeeper fence's, so nothing queued before a crossing goes out after it).
 * <p>
 * <b>Threading.</b> {@link #epochOf} on the thread inside the consumer; {@link #check} and {@link #awaitChange} on any
 * thread: they read only the state's volatile fence, which is thread-safe.
 */
final class SubscriptionHandOutFence implements HandOutFence {

    private final SubscriptionState state;
    private final Supplier<KafkaGroupMode<?, ?>> onKafka;

    SubscriptionHandOutFence(SubscriptionState state, Supplier<KafkaGroupMode<?, ?>> onKafka) {
        this.state = state;
        this.onKafka = onKafka;
    }

    @Override
    public long epochOf(TopicPartition partition) {
        KafkaGroupMode<?, ?> kafka = onKafka.get();
        return kafka != null ? kafka.epochOf(partition) : state.fetchedEpoch(partition);
    }

    @Override
    public OwnershipFence.HandOut check(TopicPartition partition, long epoch) {
        KafkaGroupMode<?, ?> kafka = onKafka.get();
        if (kafka != null) {
            return kafka.handOut(partition, epoch);
        }
        OwnershipFence fence = state.fence();
        return fence == null ? OwnershipFence.HandOut.NEVER : fence.handOut(KafkaPartitions.toRegistry(partition), epoch);
    }

    /**
     * While on ZooKeeper's fence, the fence's own {@link OwnershipFence.HandOutCheck}: the grant looked up again only
     * after a grant changed. A crossing to Kafka's coordinator or a new subscription (another fence) since it was made
     * sends each verdict back to {@link #check}.
     */
    @Override
    public Check checkOf(TopicPartition partition, long epoch) {
        OwnershipFence fence = state.fence();
        if (onKafka.get() != null || fence == null) {
            return () -> check(partition, epoch);
        }
        OwnershipFence.HandOutCheck onFence = fence.handOutCheck(KafkaPartitions.toRegistry(partition), epoch);
        return () -> onKafka.get() == null && state.fence() == fence ? onFence.verdict() : check(partition, epoch);
    }

    @Override
    public void awaitChange(long maxNanos) throws InterruptedException {
        OwnershipFence fence = onKafka.get() == null ? state.fence() : null; // on Kafka nothing waits: ALLOWED or NEVER
        if (fence != null) {
            fence.awaitChange(maxNanos);
        }
    }
}
