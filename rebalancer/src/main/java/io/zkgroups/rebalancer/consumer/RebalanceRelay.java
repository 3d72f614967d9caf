package io.zkgroups.rebalancer.consumer;

import io.zkgroups.rebalancer.group.MembershipListener;
import io.zkgroups.rebalancer.group.OwnershipFence;
import io.zkgroups.rebalancer.metrics.ConsumerMetrics;
import io.zkgroups.registry.Time;
import io.zkgroups.registry.model.TopicAndPartition;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Relays the group member's ownership changes to the poll thread: they become {@link RebalanceEvent}s that the poll
 * thread processes, so the application's rebalance callbacks run on its own thread, as with KafkaConsumer.
 * A revocation waits until the poll thread has committed. If the application does not poll within the revoke
 * timeout (its {@code max.poll.interval.ms}), the partitions are withdrawn from the fence at once and released
 * without a commit: the records handed out since the last commit may not have been processed, and committing their
 * positions would lose them if this process died now. The next owner starts at the last committed offset.
 * <p>
 * <b>Threading.</b> The {@code on*} methods run on the member's event loop; {@link #pollThreadGone} on the consumer's
 * thread. They share only the event queue (a concurrent deque), the {@code done} future of each revocation, and two
 * volatile fields: the fence, set before the member starts, and {@code pollThreadGone}, which is checked again after a
 * revocation is queued so that neither thread can miss the other.
 */
final class RebalanceRelay implements MembershipListener {

    private static final Logger LOG = LoggerFactory.getLogger(RebalanceRelay.class);

    private final BlockingQueue<RebalanceEvent> events;
    private final Duration revokeTimeout;
    private final Time time;
    private final ConsumerMetrics metrics;
    /** Tells the poll thread that an event is queued, cutting short its wait for a fetch. */
    private final Runnable news;
    private volatile OwnershipFence fence;
    private volatile boolean pollThreadGone;

    RebalanceRelay(BlockingQueue<RebalanceEvent> events, Duration revokeTimeout, Runnable news, ConsumerMetrics metrics,
                   Time time) {
        this.time = time;
        this.news = news;
        this.events = events;
        this.revokeTimeout = revokeTimeout;
        this.metrics = metrics;
    }

    /** The fence of the member this bridge serves; set before the member starts. */
    void attach(OwnershipFence memberFence) {
        this.fence = memberFence;
    }

    /**
     * From now on revocations complete at once: the poll thread has already revoked everything and is closing. A
     * revocation the member sent after that thread last looked at its events completes too: nobody else would
     * complete it, and the member's event loop, which the close waits for, would wait out the revoke timeout.
     */
    void pollThreadGone() {
        pollThreadGone = true;
        for (RebalanceEvent event : events) {
            if (event instanceof RebalanceEvent.Revoke) {
                ((RebalanceEvent.Revoke) event).done().complete(null);
            }
        }
    }

    @Override
    public void onRevoked(Set<TopicAndPartition> partitions) {
        if (pollThreadGone) {
            return;
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        Deadline deadline = Deadline.after(revokeTimeout, time);
        events.add(new RebalanceEvent.Revoke(KafkaPartitions.toKafka(partitions), done, deadline));
        news.run();
        if (pollThreadGone) {
            done.complete(null); // pollThreadGone() ran meanwhile: its look at the events may have come before ours
        }
        try {
            done.get(deadline.remainingNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            fence.withdraw(partitions); // before anything else: a commit the poll thread starts now must not pass
            if (done.complete(null)) {
                metrics.revokeTimedOut();
                LOG.warn("the application did not finish revoking {} within {} ms (zkgroups.revoke.timeout.ms): "
                        + "releasing them without a commit; their next owner starts at the last committed offset",
                        partitions, revokeTimeout.toMillis());
            }
        } catch (InterruptedException e) {
            fence.withdraw(partitions);
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            LOG.warn("revoking {} failed: {}", partitions, e.getCause().toString());
        }
    }

    @Override
    public void onLost(Set<TopicAndPartition> partitions) {
        events.add(new RebalanceEvent.Lose(KafkaPartitions.toKafka(partitions)));
        news.run();
    }

    /** The event carries the grants the fence gave. */
    @Override
    public void onAssigned(SortedMap<TopicAndPartition, OwnershipFence.Grant> grants) {
        Map<TopicPartition, OwnershipFence.Grant> byKafkaPartition = new TreeMap<>(KafkaPartitions.ORDER);
        grants.forEach((tp, grant) -> byKafkaPartition.put(KafkaPartitions.toKafka(tp), grant));
        events.add(new RebalanceEvent.Assign(byKafkaPartition));
        news.run();
    }
}
