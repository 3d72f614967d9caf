package io.zkgroups.rebalancer.consumer;

import io.zkgroups.rebalancer.group.OwnershipFence;
import io.zkgroups.rebalancer.metrics.ConsumerMetrics;
import io.zkgroups.rebalancer.offsets.CommitPermit;
import io.zkgroups.rebalancer.offsets.FencedException;
import io.zkgroups.rebalancer.offsets.OffsetStore;
import io.zkgroups.rebalancer.offsets.OffsetStoreException;
import io.zkgroups.registry.Time;
import io.zkgroups.registry.model.TopicAndPartition;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.utils.LogContext;
import org.slf4j.Logger;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * The commit policy of a {@link ZkGroupConsumer}: auto-commit on its interval, commits asked for by the application,
 * the commit before a revocation and on close, and the periodic re-commit that keeps idle Kafka offsets from expiring.
 * It reads what to commit from the {@link SubscriptionState} (positions, grants' epochs, offsets last committed), has
 * every commit authorised by the member's {@link OwnershipFence} and writes it under the permit it gives, so an offset
 * is only written by the member that owns the partition, in the session that owns it (docs/fence.md).
 * <p>
 * Errors leave by one path: a refusal of the fence or of the store ({@link FencedException}) becomes Kafka's
 * {@link CommitFailedException} with the refusal as its cause; a commit whose deadline passed, Kafka's
 * {@link TimeoutException}; any other store failure a {@link KafkaException}.
 * <p>
 * <b>Threading.</b> Runs on the thread inside the consumer only, like the state it reads; the fence it calls is
 * thread-safe.
 */
final class OffsetCommitter {

    /** This consumer's log: every line starts with its id. */
    private final Logger log;

    private final Time time;
    private final String group;
    private final String memberName;
    private final OffsetStore store;
    private final SubscriptionState state;
    private final ConsumerMetrics metrics;
    private final boolean autoCommit;
    private final Duration autoCommitInterval;
    private final boolean refreshIdle;
    private final Duration refreshInterval;
    /** The bound of a release's commit when it reaches Kafka; null when the store is ZooKeeper alone. */
    private final Duration releaseKafkaTimeout;
    private long nextAutoCommitNanos;
    private long nextRefreshNanos;
    /** After a commit at the cap failed: the next one waits until then (min of the interval and a second). */
    private long nextCapCommitNanos;

    OffsetCommitter(ZkConsumerConfig config, String memberName, OffsetStore store, SubscriptionState state,
                    ConsumerMetrics metrics, Time time) {
        this.time = time;
        this.group = config.groupId();
        this.memberName = memberName;
        this.log = new LogContext("[" + memberName + "] ").logger(OffsetCommitter.class);
        this.store = store;
        this.state = state;
        this.metrics = metrics;
        this.autoCommit = config.autoCommit();
        this.autoCommitInterval = config.autoCommitInterval();
        // Kafka drops offsets not committed for offsets.retention.minutes: idle partitions are re-committed
        this.refreshIdle = config.offsetsStorage().expiresIdleOffsets();
        this.refreshInterval = config.offsetsRefresh();
        this.releaseKafkaTimeout = config.offsetsStorage().needsKafka() ? config.rebalanceKafkaTimeout() : null;
        restartTimers();
    }

    /** Whether a revocation (and close) commits the positions of what was handed out. */
    boolean commitsOnRevoke() {
        return autoCommit;
    }

    /** A new subscription starts the timers again. */
    void restartTimers() {
        long now = time.nanoseconds();
        nextAutoCommitNanos = now + autoCommitInterval.toNanos();
        nextRefreshNanos = now + refreshInterval.toNanos();
    }

    /**
     * Auto-commit (and the idle refresh) when due, of the positions known now: it never waits for a position.
     * Failures are logged and retried at the next interval.
     */
    void maybeAutoCommit() {
        long now = time.nanoseconds();
        if (autoCommit && now - nextAutoCommitNanos >= 0) {
            nextAutoCommitNanos = now + autoCommitInterval.toNanos();
            Map<TopicPartition, Long> positions = state.positions();
            if (!positions.isEmpty()) {
                try {
                    write(positions, false, null);
                } catch (RuntimeException e) {
                    log.warn("auto-commit failed (will retry in {} ms): {}", autoCommitInterval.toMillis(),
                            e.getMessage());
                }
            }
        }
        if (refreshIdle && now - nextRefreshNanos >= 0) {
            nextRefreshNanos = now + refreshInterval.toNanos();
            try {
                write(state.committedOfFetched(), true, null);
            } catch (RuntimeException e) {
                log.warn("refreshing Kafka offsets failed: {}", e.getMessage());
            }
        }
    }

    /**
     * With auto-commit, the commit of partitions past half of {@code zkgroups.max.uncommitted.records}, before the
     * interval is due, so that a partition catching up is committed on before it reaches the cap (where it hands out
     * nothing more until a commit is confirmed). Of every known position, as auto-commit does. A failure is logged and
     * retried after the auto-commit interval or a second, whichever is shorter; meanwhile {@code nearCap} may reach the
     * cap and stay there.
     */
    void commitNearCap(Set<TopicPartition> nearCap) {
        long now = time.nanoseconds();
        if (!autoCommit || nearCap.isEmpty() || now - nextCapCommitNanos < 0) {
            return;
        }
        try {
            write(state.positions(), false, null);
        } catch (RuntimeException e) {
            long retry = Math.min(autoCommitInterval.toMillis(), 1000);
            nextCapCommitNanos = time.nanoseconds() + TimeUnit.MILLISECONDS.toNanos(retry);
            log.warn("the commit of {} near zkgroups.max.uncommitted.records failed (at the cap they hand out nothing "
                    + "more until one succeeds; retried in {} ms): {}", nearCap, retry, e.getMessage());
        }
    }

    /**
     * The commit before {@code partitions} are revoked: with auto-commit, their known positions, by {@code deadline},
     * and when the store reaches Kafka by {@code zkgroups.rebalance.kafka.timeout.ms} too: 0.8.2.2 peers waiting to
     * claim them give up after {@code rebalance.max.retries × rebalance.backoff.ms}. A failure is logged at WARN with
     * the partitions released uncommitted and counted ({@code release-uncommitted-total}): the revocation goes on, and
     * the next owner starts at the last committed offset (at-least-once).
     */
    void beforeRevoke(Set<TopicPartition> partitions, Deadline deadline) {
        if (!autoCommit) {
            return;
        }
        Map<TopicPartition, Long> positions = state.positions(partitions);
        Deadline bound = releaseKafkaTimeout == null ? deadline : deadline.within(releaseKafkaTimeout);
        try {
            write(positions, false, bound);
        } catch (RuntimeException e) {
            Set<TopicPartition> uncommitted = new TreeSet<>(KafkaPartitions.ORDER);
            positions.forEach((tp, offset) -> {
                if (!offset.equals(state.committed(tp))) {
                    uncommitted.add(tp);
                }
            });
            if (!uncommitted.isEmpty()) {
                metrics.releasedUncommitted(uncommitted.size());
            }
            log.warn("releasing {} uncommitted: the commit before revoking {} failed; their next owner starts at "
                    + "the last committed offset: {}", uncommitted, partitions, e.getMessage());
        }
    }

    /**
     * {@code commitSync()}: the positions of every fetched partition, by {@code deadline}.
     *
     * @throws TimeoutException      if the position of a fetched partition is not known (nothing is written then), or
     *                               the write did not finish by {@code deadline}
     * @throws CommitFailedException if this member does not own one of them now (nothing is written)
     */
    void commitPositions(Deadline deadline) {
        Set<TopicPartition> unknown = state.unknownPositions();
        if (!unknown.isEmpty()) {
            throw new TimeoutException("[" + memberName + "] commit timed out after " + deadline.timeoutMillis()
                    + " ms: the position of " + unknown + " could not be determined (is Kafka reachable?); nothing "
                    + "was committed");
        }
        write(state.positions(), false, deadline);
    }

    /**
     * Commits {@code offsets} (next offset to consume per partition) by {@code deadline}, skipping those already stored.
     *
     * @throws CommitFailedException if this member does not own one of them now (then nothing is written)
     * @throws TimeoutException      if the write did not finish by {@code deadline}
     * @throws KafkaException        if the store failed
     */
    void commit(Map<TopicPartition, Long> offsets, Deadline deadline) {
        write(offsets, false, deadline);
    }

    /**
     * Writes {@code offset} of {@code tp} again although it was committed already, as a commit asked for by the
     * application ({@link RewindGuard}: someone else wrote it lower).
     *
     * @throws CommitFailedException if this member does not own {@code tp} now (nothing is written)
     * @throws KafkaException        if the store failed
     */
    void restore(TopicPartition tp, long offset) {
        write(java.util.Collections.singletonMap(tp, offset), true, null);
    }

    /** The one commit path. {@code deadline} null: bounded by the fence's permit only (its lease). */
    private void write(Map<TopicPartition, Long> offsets, boolean rewrite, Deadline deadline) {
        // converted once: the request and the epochs the fence checks, by registry partition
        Map<TopicAndPartition, TopicPartition> kafkaOf = new HashMap<>();
        Map<TopicAndPartition, Long> request = new TreeMap<>();
        Map<TopicAndPartition, Long> epochs = new TreeMap<>();
        Map<TopicAndPartition, String> foreign = new TreeMap<>();
        for (Map.Entry<TopicPartition, Long> entry : offsets.entrySet()) {
            TopicPartition tp = entry.getKey();
            if (!rewrite && entry.getValue().equals(state.committed(tp))) {
                continue;
            }
            TopicAndPartition zk = KafkaPartitions.toRegistry(tp);
            kafkaOf.put(zk, tp);
            request.put(zk, entry.getValue());
            Long epoch = state.epoch(tp);
            if (epoch == null) {
                foreign.put(zk, "not assigned to " + memberName + " in group " + group);
            } else {
                epochs.put(zk, epoch);
            }
        }
        if (request.isEmpty()) {
            return;
        }
        long start = time.nanoseconds();
        try {
            if (!foreign.isEmpty()) {
                throw new FencedException(foreign);
            }
            OwnershipFence fence = state.fence();
            if (fence == null) {
                throw new FencedException("not subscribed: " + memberName + " owns nothing");
            }
            if (deadline != null && deadline.expired()) {
                throw timedOut(kafkaOf.values(), deadline, null);
            }
            try (CommitPermit permit = within(fence.authorize(epochs), deadline)) {
                Set<TopicAndPartition> accepted = store.commit(group, request, permit);
                for (TopicAndPartition zk : accepted) {
                    state.committed(kafkaOf.get(zk), request.get(zk));
                }
            }
            metrics.committed(time.nanoseconds() - start);
        } catch (FencedException e) {
            metrics.commitFenced();
            CommitFailedException failed = new CommitFailedException("[" + memberName + "] " + e.getMessage());
            failed.initCause(e);
            throw failed;
        } catch (OffsetStoreException e) {
            if (deadline != null && deadline.expired()) {
                throw timedOut(kafkaOf.values(), deadline, e);
            }
            throw new KafkaException(e.getMessage(), e);
        }
    }

    /** The fence's permit, with its deadline brought forward to {@code deadline}: a store gives up by then. */
    private CommitPermit within(CommitPermit permit, Deadline deadline) {
        if (deadline == null || permit.deadlineNanos() - deadline.atNanos() <= 0) {
            return permit;
        }
        return new CommitPermit(permit.session(), deadline.atNanos(), permit.partitions(), bounded -> permit.close(),
                time);
    }

    private TimeoutException timedOut(Collection<TopicPartition> partitions, Deadline deadline, Exception cause) {
        Set<TopicPartition> sorted = new TreeSet<>(KafkaPartitions.ORDER);
        sorted.addAll(partitions);
        String message = "[" + memberName + "] committing offsets of " + sorted + " in group " + group
                + " timed out after " + deadline.timeoutMillis() + " ms"
                + (cause == null ? "; nothing was written" : ": " + cause.getMessage());
        return cause == null ? new TimeoutException(message) : new TimeoutException(message, cause);
    }
}
