package io.zkgroups.rebalancer.offsets;

import io.zkgroups.registry.Time;
import io.zkgroups.registry.model.TopicAndPartition;

import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Leave from the ownership fence ({@code io.zkgroups.rebalancer.group.OwnershipFence}) to commit offsets of
 * {@code partitions}: the write goes out on the ZooKeeper
 * {@code session} that owns them (never retried on another), and a store that cannot be bound to the session (Kafka)
 * must give up by {@code deadlineNanos} (on the monotonic clock of the member's {@link Time}), the end of the ownership lease. Close it when the
 * write has ended, whatever its outcome: the member holds the release of these partitions until then, or until the
 * deadline.
 */
public final class CommitPermit implements AutoCloseable {

    private final long session;
    private final long deadlineNanos;
    private final Set<TopicAndPartition> partitions;
    private final Consumer<CommitPermit> onClose;
    private final Time time;
    private boolean closed;

    public CommitPermit(long session, long deadlineNanos, Set<TopicAndPartition> partitions, Consumer<CommitPermit> onClose) {
        this(session, deadlineNanos, partitions, onClose, Time.SYSTEM);
    }

    /** @param time the clock {@code deadlineNanos} is on */
    public CommitPermit(long session, long deadlineNanos, Set<TopicAndPartition> partitions, Consumer<CommitPermit> onClose,
                        Time time) {
        this.session = session;
        this.deadlineNanos = deadlineNanos;
        this.partitions = partitions;
        this.onClose = onClose;
        this.time = time;
    }

    /** A permit for writes outside any group (tools on an inactive group, tests): no session, no deadline. */
    public static CommitPermit unfenced(Set<TopicAndPartition> partitions) {
        return new CommitPermit(0, Long.MAX_VALUE, partitions, p -> { });
    }

    /** The ZooKeeper session that owns the partitions; 0 for an {@link #unfenced} permit. */
    public long session() {
        return session;
    }

    public long deadlineNanos() {
        return deadlineNanos;
    }

    public Set<TopicAndPartition> partitions() {
        return partitions;
    }

    /** Milliseconds left before the deadline (0 once it has passed). */
    public long remainingMillis() {
        if (deadlineNanos == Long.MAX_VALUE) {
            return Long.MAX_VALUE;
        }
        return Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadlineNanos - time.nanoseconds()));
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            onClose.accept(this);
        }
    }
}
