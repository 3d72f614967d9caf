package io.zkgroups.rebalancer.cutover;

import io.zkgroups.rebalancer.group.OwnershipFence;
import io.zkgroups.registry.Time;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.ThreadId;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.utils.LogContext;
import org.slf4j.Logger;

import java.io.Closeable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A member coordinated by Kafka's group protocol, fenced by the ZooKeeper owner znodes (docs/cutover.md): the
 * {@code KafkaConsumer} it wraps is subscribed with the group's id, and a partition Kafka assigns is
 * <ol>
 *   <li>paused, until this member holds its owner znode {@code /consumers/G/owners/T/P} — that is, until its previous
 *       owner, ZooKeeper-coordinated or not, has let go ({@link #poll} tries again every slice);</li>
 *   <li>then started from the larger of the ZooKeeper offset (where a ZooKeeper-coordinated owner hands over its last
 *       commit) and Kafka's committed offset, and shown to the application's {@code onPartitionsAssigned};</li>
 *   <li>on revocation (or loss), shown to {@code onPartitionsRevoked}, its position committed to Kafka (with
 *       auto-commit), then its owner znode deleted.</li>
 * </ol>
 * The owner znodes stay while the partitions are fetched, so a 0.8.2.2 consumer started in the group claims nothing.
 * They are ephemeral: when this member's ZooKeeper session ends, they go with it, and its partitions are shown to
 * {@code onPartitionsLost}, paused, and taken again like newly assigned ones in the new session (step 1), so a
 * claim made meanwhile by someone else holds them back until it is let go. An application that stops polling for
 * {@code max.poll.interval.ms} is out of Kafka's group, which gives its partitions to others: a watchdog thread then
 * deletes its owner znodes so that they can fetch them, and the next poll shows them to {@code onPartitionsLost}.
 * Auto-commit is this class's (Kafka's own would commit positions of partitions still waiting for their fence). The
 * ZooKeeper side of the fence (owner znodes, sessions, hand-out epochs, ZooKeeper offsets) is {@link OwnerZnodeFence}.
 * <p>
 * <b>Threading.</b> As {@code KafkaConsumer}: the polling thread, except {@link #wakeup()}.
 */
public final class KafkaGroupMode<K, V> implements Closeable {

    /**
     * The end of the {@code client.id} of a zkgroups member in Kafka's group: {@code zkgroups migrate coordination
     * --to zookeeper} tells zkgroups members from other consumers of the group by it.
     */
    public static final String CLIENT_ID_SUFFIX = "-zkgroups";

    /** Longest stretch the consumer blocks: bounds how late a waiting partition is tried again. */
    private static final Duration POLL_SLICE = Duration.ofMillis(50);

    private final Logger log;
    private final Consumer<K, V> consumer;
    private final String group;
    private final boolean autoCommit;
    private final Duration autoCommitInterval;
    private final Duration apiTimeout;
    private final Time time;
    private final OwnerZnodeFence fence;
    private final PollWatchdog watchdog;
    private ConsumerRebalanceListener listener;
    private long nextAutoCommitNanos;

    /**
     * @param consumer        a {@code KafkaConsumer} with the group's {@code group.id} and
     *                        {@code enable.auto.commit=false}; closed by {@link #close}
     * @param maxPollInterval the consumer's {@code max.poll.interval.ms}: after that long without a poll, Kafka's group
     *                        has dropped this member, and its owner znodes are let go
     */
    public KafkaGroupMode(Consumer<K, V> consumer, ZkRegistry registry, String group, ThreadId thread,
                          boolean autoCommit, Duration autoCommitInterval, Duration apiTimeout, Duration maxPollInterval,
                          Time time) {
        this.consumer = consumer;
        this.group = group;
        this.autoCommit = autoCommit;
        this.autoCommitInterval = autoCommitInterval;
        this.apiTimeout = apiTimeout;
        this.time = time;
        this.log = new LogContext("[" + thread.consumer() + "] ").logger(KafkaGroupMode.class);
        this.fence = new OwnerZnodeFence(registry, group, thread, log);
        this.watchdog = new PollWatchdog(thread.consumer().value(), maxPollInterval, time, fence::fenced,
                fence::releaseOwners, log);
    }

    /** Joins Kafka's group for {@code topics}; the application hears of partitions through {@code listener}. */
    public void subscribe(Collection<String> topics, ConsumerRebalanceListener listener) {
        this.listener = listener;
        consumer.subscribe(topics, new Rebalances());
        nextAutoCommitNanos = time.nanoseconds() + autoCommitInterval.toNanos();
    }

    /** As {@link #subscribe(Collection, ConsumerRebalanceListener)}, for topics matching {@code pattern}. */
    public void subscribe(Pattern pattern, ConsumerRebalanceListener listener) {
        this.listener = listener;
        consumer.subscribe(pattern, new Rebalances());
        nextAutoCommitNanos = time.nanoseconds() + autoCommitInterval.toNanos();
    }

    /** Records of fenced partitions within {@code timeout}, or none. */
    public ConsumerRecords<K, V> poll(Duration timeout) {
        long deadline = time.nanoseconds() + Math.max(0, timeout.toNanos());
        watchdog.polling();
        try {
            return pollFenced(deadline);
        } finally {
            watchdog.returned();
        }
    }

    private ConsumerRecords<K, V> pollFenced(long deadline) {
        loseReleased(watchdog.takeReleased());
        do {
            checkFenceSession();
            tryFence();
            maybeAutoCommit();
            long slice = Math.max(0, Math.min(deadline - time.nanoseconds(), POLL_SLICE.toNanos()));
            ConsumerRecords<K, V> records = fencedOnly(consumer.poll(Duration.ofNanos(slice)));
            if (!records.isEmpty()) {
                return records;
            }
        } while (time.nanoseconds() < deadline);
        return ConsumerRecords.empty();
    }

    /**
     * The partitions whose owner znodes the watchdog deleted while the application did not poll: Kafka's group has
     * given them to others, so they are lost (and wait for their fence again if Kafka gives them back).
     */
    private void loseReleased(Collection<TopicPartition> released) {
        List<TopicPartition> lost = new ArrayList<>(released);
        lost.retainAll(fence.fenced());
        if (!lost.isEmpty()) {
            lose(lost);
        }
    }

    /** Fenced partitions whose owner znodes are gone: shown to {@code onPartitionsLost}, paused until fenced again. */
    private void lose(List<TopicPartition> lost) {
        fence.lose(lost);
        consumer.pause(lost);
        try {
            listener.onPartitionsLost(Collections.unmodifiableList(lost));
        } catch (RuntimeException e) {
            throw new KafkaException("onPartitionsLost of the rebalance listener failed", e);
        }
    }

    /** The partitions this member fetches: assigned by Kafka and fenced. */
    public Set<TopicPartition> assignment() {
        return Collections.unmodifiableSet(new LinkedHashSet<>(fence.fenced()));
    }

    /** Commits the positions of every fenced partition. */
    public void commitSync(Duration timeout) {
        commitSync(positions(fence.fenced()), timeout);
    }

    /**
     * Commits {@code offsets} to Kafka's group, then writes them to the ZooKeeper offset znodes too, where a member
     * back on ZooKeeper coordination reads them (docs/cutover.md).
     */
    public void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets, Duration timeout) {
        if (offsets.isEmpty()) {
            return;
        }
        consumer.commitSync(offsets, timeout);
        fence.mirror(offsets);
    }

    /**
     * The epoch {@code tp} is fetched under now, 0 if it is not fenced: a record fetched under it may be handed out
     * later (the 0.8 bridge's streams) only while {@link #handOut} says so. Polling thread.
     */
    public long epochOf(TopicPartition tp) {
        return fence.epochOf(tp);
    }

    /** Whether a record of {@code tp} fetched under {@code epoch} may be handed out now. Any thread. */
    public OwnershipFence.HandOut handOut(TopicPartition tp, long epoch) {
        return fence.handOut(tp, epoch);
    }

    /** The consumer underneath, for the calls that need nothing of the fence (seek, pause, metadata). */
    public Consumer<K, V> consumer() {
        return consumer;
    }

    /** Any thread. */
    public void wakeup() {
        consumer.wakeup();
    }

    /** Leaves Kafka's group (revoking through the fence: listener, commit, owner znodes), then closes the consumer. */
    public void close(Duration timeout) {
        watchdog.close();
        try {
            consumer.unsubscribe();
        } catch (KafkaException e) {
            log.warn("leaving Kafka's group {} failed: {}", group, e.getMessage());
            fence.releaseAll();
        } finally {
            fence.stopWaiting();
            consumer.close(timeout);
        }
    }

    @Override
    public void close() {
        close(apiTimeout);
    }

    /** When the session that holds the owner znodes has ended, the partitions are lost to the application. */
    private void checkFenceSession() {
        List<TopicPartition> lost = fence.endedSession();
        if (!lost.isEmpty()) {
            lose(lost);
        }
    }

    /** Waiting partitions whose owner znodes are now ours: positioned, fetched, shown to the application. */
    private void tryFence() {
        List<TopicPartition> held = fence.tryHold();
        if (held.isEmpty()) {
            return;
        }
        Map<TopicPartition, Long> start = startOffsets(held);
        for (TopicPartition tp : held) {
            Long offset = start.get(tp);
            if (offset != null) {
                consumer.seek(tp, offset);
            }
        }
        fence.admit(held);
        consumer.resume(held);
        log.info("fetching {}: their owner znodes are ours (starting at {})", held, start);
        try {
            listener.onPartitionsAssigned(Collections.unmodifiableList(held));
        } catch (RuntimeException e) {
            throw new KafkaException("onPartitionsAssigned of the rebalance listener failed", e);
        }
    }

    /** The larger of ZooKeeper's offset (a ZooKeeper owner's hand-over) and Kafka's committed offset, if any. */
    private Map<TopicPartition, Long> startOffsets(List<TopicPartition> partitions) {
        Map<TopicPartition, Long> start = fence.zooKeeperOffsets(partitions);
        Map<TopicPartition, OffsetAndMetadata> inKafka = consumer.committed(new HashSet<>(partitions), apiTimeout);
        inKafka.forEach((tp, committed) -> {
            if (committed != null) {
                start.merge(tp, committed.offset(), Math::max);
            }
        });
        return start;
    }

    private void maybeAutoCommit() {
        if (!autoCommit || time.nanoseconds() - nextAutoCommitNanos < 0) {
            return;
        }
        nextAutoCommitNanos = time.nanoseconds() + autoCommitInterval.toNanos();
        try {
            commitSync(positions(fence.fenced()), apiTimeout);
        } catch (WakeupException e) {
            throw e;
        } catch (KafkaException e) {
            log.warn("auto-commit of {} failed: {}", fence.fenced(), e.getMessage());
        }
    }

    private Map<TopicPartition, OffsetAndMetadata> positions(Collection<TopicPartition> partitions) {
        Map<TopicPartition, OffsetAndMetadata> positions = new HashMap<>();
        for (TopicPartition tp : partitions) {
            positions.put(tp, new OffsetAndMetadata(consumer.position(tp, apiTimeout)));
        }
        return positions;
    }

    private ConsumerRecords<K, V> fencedOnly(ConsumerRecords<K, V> records) {
        if (records.isEmpty() || fence.fenced().containsAll(records.partitions())) {
            return records;
        }
        Map<TopicPartition, List<ConsumerRecord<K, V>>> kept = new HashMap<>();
        for (TopicPartition tp : records.partitions()) {
            if (fence.fenced().contains(tp)) {
                kept.put(tp, records.records(tp));
            } else {
                log.warn("dropping {} records of {}: its owner znode is not ours", records.records(tp).size(), tp);
            }
        }
        return new ConsumerRecords<>(kept);
    }

    /** Kafka's rebalance callbacks, on the polling thread: the fence in both directions. */
    private final class Rebalances implements ConsumerRebalanceListener {

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            if (partitions.isEmpty()) {
                return;
            }
            consumer.pause(partitions);
            fence.await(partitions);
            tryFence();
        }

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            giveUp(partitions, true);
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            giveUp(partitions, false);
        }

        private void giveUp(Collection<TopicPartition> partitions, boolean revoked) {
            // withdrawn before the listener commits what went out: nothing more of them goes out
            List<TopicPartition> mine = fence.giveUp(partitions);
            if (mine.isEmpty()) {
                return;
            }
            RuntimeException listenerError = null;
            try {
                if (revoked) {
                    listener.onPartitionsRevoked(Collections.unmodifiableList(mine));
                } else {
                    listener.onPartitionsLost(Collections.unmodifiableList(mine));
                }
            } catch (RuntimeException e) {
                listenerError = e;
            }
            try {
                if (revoked && autoCommit) {
                    commitSync(positions(mine), apiTimeout);
                }
            } catch (WakeupException e) {
                throw e;
            } catch (KafkaException e) {
                log.warn("releasing {} uncommitted: the commit before revoking them failed; their next owner starts "
                        + "at the last committed offset: {}", mine, e.getMessage());
            } finally {
                fence.release(mine);
            }
            if (listenerError != null) {
                throw new KafkaException("the rebalance listener failed", listenerError);
            }
        }
    }
}
