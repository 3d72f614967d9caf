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
 * thread-safe. The one exception is the write of a near-cap commit ({@link #commitNearCap}) or of the application's
 * {@link #commitAsync}, which runs on a commit thread of its own ({@link BackgroundCommit}) and touches no state: its
 * outcome is taken on the consumer's thread.
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
    /** The near-cap commit, written on a thread of its own; {@link #inBackground} is what it writes. */
    private final BackgroundCommit<Stored> background;
    private Request inBackground;
    /** What to tell when {@link #inBackground} ends: the application's {@code commitAsync}; null for a near-cap commit. */
    private java.util.function.Consumer<RuntimeException> whenWritten;

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
        this.background = new BackgroundCommit<>("zkgroups-commit-" + memberName);
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
     * nothing more until a commit is confirmed). Of every known position, as auto-commit does, written on the commit
     * thread: the poll goes on meanwhile, and a later call takes its outcome. A failure is logged and retried after the
     * auto-commit interval or a second, whichever is shorter; meanwhile {@code nearCap} may reach the cap and stay there.
     */
    void commitNearCap(Set<TopicPartition> nearCap) {
        collectBackground();
        long now = time.nanoseconds();
        if (!autoCommit || nearCap.isEmpty() || now - nextCapCommitNanos < 0 || background.busy()) {
            return;
        }
        Request request = prepare(state.positions(), false);
        if (request.isEmpty()) {
            return;
        }
        inBackground = request;
        background.start(() -> store(request, null));
    }

    /**
     * {@code commitAsync}: writes {@code offsets} on the commit thread and tells {@code whenWritten} the outcome (null,
     * or the error as {@link #commit} would throw it) on this thread, from the first call after the write ended that
     * takes it: a poll, a commit, close. An earlier write still in flight is waited for first: commits land in order.
     */
    void commitAsync(Map<TopicPartition, Long> offsets, java.util.function.Consumer<RuntimeException> whenWritten) {
        awaitBackground(null);
        Request request = prepare(offsets, false);
        if (request.isEmpty()) {
            whenWritten.accept(null);
            return;
        }
        inBackground = request;
        this.whenWritten = whenWritten;
        background.start(() -> store(request, null));
    }

    /** Whether a near-cap commit is being written, or has ended without its outcome taken yet. */
    boolean commitInFlight() {
        return inBackground != null;
    }

    /** Takes the outcome of the commit written in the background, if it has ended: as {@link #write} would. */
    private void collectBackground() {
        apply(inBackground, background.collect());
    }

    /** Waits for the commit written in the background, at most until {@code deadline} (null: its own bound). */
    private void awaitBackground(Deadline deadline) {
        apply(inBackground, background.await(deadline == null ? -1 : Math.max(0, deadline.remainingNanos())));
    }

    private void apply(Request request, BackgroundCommit.Outcome<Stored> outcome) {
        if (outcome == null) {
            return;
        }
        inBackground = null;
        java.util.function.Consumer<RuntimeException> tell = whenWritten;
        whenWritten = null;
        RuntimeException failure = outcome.failure();
        if (failure == null) {
            applyStored(request, outcome.result());
        } else if (failure instanceof FencedException) {
            metrics.commitFenced();
        }
        if (tell != null) {
            tell.accept(failure == null ? null : commitError(failure, request, null));
            return;
        }
        if (failure == null) {
            return;
        }
        long retry = Math.min(autoCommitInterval.toMillis(), 1000);
        nextCapCommitNanos = time.nanoseconds() + TimeUnit.MILLISECONDS.toNanos(retry);
        log.warn("the commit of {} near zkgroups.max.uncommitted.records failed (at the cap they hand out nothing "
                + "more until one succeeds; retried in {} ms): {}", request.partitions(), retry,
                outcome.failure().getMessage());
    }

    /**
     * Stops the commit thread, after the commit it writes (if any) has ended and its outcome was told (an application's
     * {@code commitAsync} learns it here at the latest).
     */
    void close() {
        try {
            awaitBackground(null);
        } catch (RuntimeException e) {
            log.warn("the last commit written in the background ended with: {}", e.getMessage());
        } finally {
            background.close();
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
        landInFlight(deadline);
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
     * Lets a commit still being written in the background (an application's {@code commitAsync}, or one near the cap)
     * end by {@code deadline}, and tells its outcome: it lands while its partitions are still owned, as
     * {@code KafkaConsumer} lets pending async commits complete before it leaves its group. Released first, its write
     * would be refused for want of ownership, and the next owner would start from the older offset.
     */
    private void landInFlight(Deadline deadline) {
        if (inBackground == null) {
            return;
        }
        try {
            awaitBackground(deadline);
        } catch (RuntimeException e) {
            log.warn("the commit written in the background had not ended when its partitions were revoked: {}",
                    e.getMessage());
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

    /**
     * The one commit path. {@code deadline} null: bounded by the fence's permit only (its lease). A commit written in
     * the background is waited for first: commits land in the order they were made.
     */
    private void write(Map<TopicPartition, Long> offsets, boolean rewrite, Deadline deadline) {
        awaitBackground(deadline);
        Request request = prepare(offsets, rewrite);
        if (request.isEmpty()) {
            return;
        }
        try {
            applyStored(request, store(request, deadline));
        } catch (FencedException e) {
            metrics.commitFenced();
            throw commitError(e, request, deadline);
        } catch (OffsetStoreException e) {
            throw commitError(e, request, deadline);
        }
    }

    /** A store's failure as a commit reports it: see the class comment. */
    private RuntimeException commitError(RuntimeException e, Request request, Deadline deadline) {
        if (e instanceof FencedException) {
            CommitFailedException failed = new CommitFailedException("[" + memberName + "] " + e.getMessage());
            failed.initCause(e);
            return failed;
        }
        if (e instanceof OffsetStoreException) {
            if (deadline != null && deadline.expired()) {
                return timedOut(request.kafkaOf.values(), deadline, e);
            }
            return new KafkaException(e.getMessage(), e);
        }
        return e;
    }

    /** On the consumer's thread: what to write of {@code offsets}, converted once, with the epochs the fence checks. */
    private Request prepare(Map<TopicPartition, Long> offsets, boolean rewrite) {
        Request request = new Request(state.fence());
        for (Map.Entry<TopicPartition, Long> entry : offsets.entrySet()) {
            TopicPartition tp = entry.getKey();
            if (!rewrite && entry.getValue().equals(state.committed(tp))) {
                continue;
            }
            TopicAndPartition zk = KafkaPartitions.toRegistry(tp);
            request.kafkaOf.put(zk, tp);
            request.offsets.put(zk, entry.getValue());
            Long epoch = state.epoch(tp);
            if (epoch == null) {
                request.foreign.put(zk, "not assigned to " + memberName + " in group " + group);
            } else {
                request.epochs.put(zk, epoch);
            }
        }
        return request;
    }

    /**
     * On any thread: writes {@code request} under the fence's permit, by {@code deadline}; touches no consumer state.
     *
     * @throws FencedException       if the fence or the store refused
     * @throws OffsetStoreException  if the store failed
     * @throws TimeoutException      if {@code deadline} had passed before anything was written
     */
    private Stored store(Request request, Deadline deadline) {
        if (!request.foreign.isEmpty()) {
            throw new FencedException(request.foreign);
        }
        if (request.fence == null) {
            throw new FencedException("not subscribed: " + memberName + " owns nothing");
        }
        if (deadline != null && deadline.expired()) {
            throw timedOut(request.kafkaOf.values(), deadline, null);
        }
        long start = time.nanoseconds();
        try (CommitPermit permit = within(request.fence.authorize(request.epochs), deadline)) {
            return new Stored(store.commit(group, request.offsets, permit), time.nanoseconds() - start);
        }
    }

    /** On the consumer's thread: the offsets the store accepted are committed, where the grant is still the same. */
    private void applyStored(Request request, Stored stored) {
        for (TopicAndPartition zk : stored.accepted) {
            TopicPartition tp = request.kafkaOf.get(zk);
            if (request.epochs.get(zk).equals(state.epoch(tp))) {
                state.committed(tp, request.offsets.get(zk));
            }
        }
        metrics.committed(stored.nanos);
    }

    /** Offsets to write, by registry partition, with what the fence checks. */
    private static final class Request {
        final OwnershipFence fence;
        final Map<TopicAndPartition, TopicPartition> kafkaOf = new HashMap<>();
        final Map<TopicAndPartition, Long> offsets = new TreeMap<>();
        final Map<TopicAndPartition, Long> epochs = new TreeMap<>();
        final Map<TopicAndPartition, String> foreign = new TreeMap<>();

        Request(OwnershipFence fence) {
            this.fence = fence;
        }

        boolean isEmpty() {
            return offsets.isEmpty();
        }

        Set<TopicPartition> partitions() {
            Set<TopicPartition> sorted = new TreeSet<>(KafkaPartitions.ORDER);
            sorted.addAll(kafkaOf.values());
            return sorted;
        }
    }

    /** What a store accepted, and how long the write took. */
    private static final class Stored {
        final Set<TopicAndPartition> accepted;
        final long nanos;

        Stored(Set<TopicAndPartition> accepted, long nanos) {
            this.accepted = accepted;
            this.nanos = nanos;
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
