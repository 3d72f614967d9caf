package io.zkgroups.rebalancer.consumer;

import io.zkgroups.rebalancer.metrics.ConsumerMetrics;
import io.zkgroups.rebalancer.offsets.CommitPermit;
import io.zkgroups.rebalancer.offsets.FencedException;
import io.zkgroups.rebalancer.offsets.OffsetStore;
import io.zkgroups.rebalancer.offsets.OffsetStoreException;
import io.zkgroups.registry.model.TopicAndPartition;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The commit policy of a {@link ZkGroupConsumer}: auto-commit on its interval, commits asked for by the application,
 * the commit before a revocation and on close, and the periodic re-commit that keeps idle Kafka offsets from expiring.
 * Every commit passes the member's ownership fence ({@link Ownership#authorize}) and goes to the store under the permit
 * it gives, so an offset is only written by the member that owns the partition, in the session that owns it.
 * Runs on the poll thread only.
 */
final class OffsetCommitter {

    private static final Logger LOG = LoggerFactory.getLogger(OffsetCommitter.class);

    /** What the committer needs to know of the assignment: the consumer's coordinator. */
    interface Ownership {
        /** The partitions whose records the application has been handed and whose position is known. */
        Set<TopicPartition> active();

        /** The next offset to hand out of an {@link #active} partition. */
        long position(TopicPartition partition);

        /**
         * A permit to commit {@code partitions}, checked by the member's fence against what this consumer was told it
         * owns.
         *
         * @throws CommitFailedException if any of them is not (or no longer) this member's
         */
        CommitPermit authorize(Set<TopicPartition> partitions);
    }

    private final String group;
    private final String memberName;
    private final OffsetStore store;
    private final Ownership ownership;
    private final ConsumerMetrics metrics;
    private final boolean autoCommit;
    private final Duration autoCommitInterval;
    private final boolean refreshIdle;
    private final Duration refreshInterval;
    /** The offset last written per partition, to skip unchanged ones; forgotten when a partition goes. */
    private final Map<TopicPartition, Long> lastCommitted = new HashMap<>();
    private long nextAutoCommitNanos;
    private long nextRefreshNanos;

    OffsetCommitter(ZkConsumerConfig config, String memberName, OffsetStore store, Ownership ownership,
                    ConsumerMetrics metrics) {
        this.group = config.groupId();
        this.memberName = memberName;
        this.store = store;
        this.ownership = ownership;
        this.metrics = metrics;
        this.autoCommit = config.autoCommit();
        this.autoCommitInterval = config.autoCommitInterval();
        // Kafka drops offsets not committed for offsets.retention.minutes: idle partitions are re-committed
        this.refreshIdle = config.offsetsStorage() == ZkConsumerConfig.OffsetsStorage.KAFKA;
        this.refreshInterval = config.offsetsRefresh();
        restartTimers();
    }

    /** A new subscription starts the timers again. */
    void restartTimers() {
        long now = System.nanoTime();
        nextAutoCommitNanos = now + autoCommitInterval.toNanos();
        nextRefreshNanos = now + refreshInterval.toNanos();
    }

    /** Where an assigned partition starts: the offset read from the store counts as committed. */
    void started(TopicPartition partition, long committed) {
        lastCommitted.put(partition, committed);
    }

    /** A partition left this member: nothing of it is remembered. */
    void forget(Set<TopicPartition> partitions) {
        partitions.forEach(lastCommitted::remove);
    }

    /** Auto-commit (and the idle refresh) when due; failures are logged and retried at the next interval. */
    void maybeAutoCommit() {
        long now = System.nanoTime();
        if (autoCommit && now >= nextAutoCommitNanos) {
            nextAutoCommitNanos = now + autoCommitInterval.toNanos();
            Set<TopicPartition> active = ownership.active();
            if (!active.isEmpty()) {
                try {
                    commit(positionsOf(active), false);
                } catch (RuntimeException e) {
                    LOG.warn("[{}] auto-commit failed (will retry in {} ms): {}", memberName, autoCommitInterval.toMillis(),
                            e.getMessage());
                }
            }
        }
        if (refreshIdle && now >= nextRefreshNanos) {
            nextRefreshNanos = now + refreshInterval.toNanos();
            Map<TopicPartition, Long> idle = new HashMap<>(lastCommitted);
            idle.keySet().retainAll(ownership.active());
            try {
                commit(idle, true);
            } catch (RuntimeException e) {
                LOG.warn("[{}] refreshing Kafka offsets failed: {}", memberName, e.getMessage());
            }
        }
    }

    /** The commit before {@code partitions} are revoked: with auto-commit, their positions. */
    void beforeRevoke(Set<TopicPartition> partitions) {
        if (!autoCommit) {
            return;
        }
        Set<TopicPartition> active = ownership.active();
        Map<TopicPartition, Long> positions = new HashMap<>();
        partitions.stream().filter(active::contains).forEach(tp -> positions.put(tp, ownership.position(tp)));
        try {
            commit(positions, false);
        } catch (RuntimeException e) {
            LOG.warn("[{}] commit before revoking {} failed: {}", memberName, partitions, e.getMessage());
        }
    }

    /** {@code commitSync()}: the positions of every active partition. */
    void commitPositions() {
        commit(positionsOf(ownership.active()), false);
    }

    /**
     * Commits {@code offsets} (next offset to consume per partition), skipping those already stored unless
     * {@code rewrite}.
     *
     * @throws CommitFailedException if this member does not own one of them (then nothing is written)
     * @throws KafkaException        if the store failed
     */
    void commit(Map<TopicPartition, Long> offsets, boolean rewrite) {
        Map<TopicPartition, Long> changed = new HashMap<>();
        offsets.forEach((tp, offset) -> {
            if (rewrite || !offset.equals(lastCommitted.get(tp))) {
                changed.put(tp, offset);
            }
        });
        if (changed.isEmpty()) {
            return;
        }
        Map<TopicAndPartition, Long> request = new HashMap<>();
        changed.forEach((tp, offset) -> request.put(new TopicAndPartition(tp.topic(), tp.partition()), offset));
        long start = System.nanoTime();
        try (CommitPermit permit = ownership.authorize(changed.keySet())) {
            Set<TopicAndPartition> accepted = store.commit(group, request, permit);
            accepted.forEach(tp -> lastCommitted.put(new TopicPartition(tp.topic(), tp.partition()), request.get(tp)));
            metrics.committed(System.nanoTime() - start);
        } catch (FencedException e) {
            metrics.commitFenced();
            throw new CommitFailedException("[" + memberName + "] " + e.getMessage());
        } catch (OffsetStoreException e) {
            throw new KafkaException(e.getMessage(), e);
        }
    }

    private Map<TopicPartition, Long> positionsOf(Set<TopicPartition> partitions) {
        Map<TopicPartition, Long> positions = new HashMap<>();
        partitions.forEach(tp -> positions.put(tp, ownership.position(tp)));
        return positions;
    }
}
