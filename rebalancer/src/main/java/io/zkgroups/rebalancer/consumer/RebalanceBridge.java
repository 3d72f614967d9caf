package io.zkgroups.rebalancer.consumer;

import io.zkgroups.rebalancer.group.MembershipListener;
import io.zkgroups.registry.model.TopicAndPartition;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * The group member's side of the hand-off: ownership changes become {@link RebalanceEvent}s that the poll
 * thread processes, so the application's rebalance callbacks run on its own thread, as with KafkaConsumer.
 * A revocation waits until the poll thread has committed; if the application does not poll within the
 * revoke timeout (its {@code max.poll.interval.ms}), the revocation is completed from here with the last
 * delivered positions so that the group is not held hostage.
 */
final class RebalanceBridge implements MembershipListener {

    private static final Logger LOG = LoggerFactory.getLogger(RebalanceBridge.class);

    private final BlockingQueue<RebalanceEvent> events;
    private final Duration revokeTimeout;
    private final Consumer<Set<TopicPartition>> commitOnTimeout;
    private volatile boolean pollThreadGone;

    RebalanceBridge(BlockingQueue<RebalanceEvent> events, Duration revokeTimeout,
                    Consumer<Set<TopicPartition>> commitOnTimeout) {
        this.events = events;
        this.revokeTimeout = revokeTimeout;
        this.commitOnTimeout = commitOnTimeout;
    }

    /** From now on revocations complete at once: the poll thread has already revoked and is closing. */
    void pollThreadGone() {
        pollThreadGone = true;
    }

    /** A new member serves the poll thread again. */
    void pollThreadBack() {
        pollThreadGone = false;
    }

    @Override
    public void onRevoked(Set<TopicAndPartition> partitions) {
        if (pollThreadGone) {
            return;
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        events.add(new RebalanceEvent.Revoke(kafka(partitions), done));
        try {
            done.get(revokeTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            LOG.warn("the application did not poll within {} ms; revoking {} with the last delivered positions",
                    revokeTimeout.toMillis(), partitions);
            if (done.complete(null)) {
                commitOnTimeout.accept(kafka(partitions));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            LOG.warn("revoking {} failed: {}", partitions, e.getCause().toString());
        }
    }

    @Override
    public void onLost(Set<TopicAndPartition> partitions) {
        events.add(new RebalanceEvent.Lose(kafka(partitions)));
    }

    @Override
    public void onAssigned(Set<TopicAndPartition> partitions) {
        events.add(new RebalanceEvent.Assign(kafka(partitions)));
    }

    static Set<TopicPartition> kafka(Set<TopicAndPartition> partitions) {
        return partitions.stream().map(tp -> new TopicPartition(tp.topic(), tp.partition()))
                .collect(Collectors.toCollection(() -> new TreeSet<>(
                        java.util.Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition))));
    }
}
