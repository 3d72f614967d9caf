package io.zkgroups.kafka08;

import io.zkgroups.registry.Immutable;
import org.apache.kafka.common.TopicPartition;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Which partitions a connector owns, under which tenure, and how far each was handed out to the application.
 * <p>
 * The fetcher thread tags every queued chunk with its partition's tenure; a stream thread hands a record out
 * only through {@link Tenure#handOut}, which fails once {@link #revoke} has ended the tenure, and otherwise records the
 * consumed position where {@code revoke} takes it from. So a record is either handed out before its partition is
 * revoked, and then its position is in what {@code revoke} returns for the commit, or never: a chunk still queued when
 * its partition moved on is dropped, also if the same partition comes back later (a new tenure).
 */
public final class HandOutLedger {

    private static final long NONE = -1;

    /**
     * One partition's time with this connector: what a stream thread asks before each record, without a lock or a
     * lookup (it resolves the tenure once per chunk: {@link HandOutLedger#tenureOf}).
     */
    public static final class Tenure {
        /** {@link #consumed} once the tenure ended: no hand-out succeeds after it. */
        private static final long ENDED = Long.MIN_VALUE;

        private final long id;
        /** The next offset to consume: -1 before the first hand-out, {@link #ENDED} once revoked. */
        private final AtomicLong consumed = new AtomicLong(NONE);
        /** The offset last committed; the ledger's lock guards it. */
        private long committed = NONE;

        private Tenure(long id) {
            this.id = id;
        }

        /** Whether records of this tenure may still be handed out. */
        public boolean isCurrent() {
            return consumed.get() != ENDED;
        }

        /**
         * Hands out the record before {@code nextOffset} if the tenure has not ended, and then remembers
         * {@code nextOffset} as the partition's consumed position. Returns false (and remembers nothing) otherwise.
         */
        public boolean handOut(long nextOffset) {
            while (true) {
                long previous = consumed.get();
                if (previous == ENDED) {
                    return false;
                }
                if (consumed.compareAndSet(previous, nextOffset)) {
                    return true;
                }
            }
        }

        /** Ends the tenure; returns the position consumed up to then (-1: nothing handed out). */
        private long end() {
            return consumed.getAndSet(ENDED);
        }
    }

    private final Map<TopicPartition, Tenure> owned = new HashMap<>();
    private long nextTenure = 1;

    /** {@code partition} is owned from now on, under a new tenure, which is returned. */
    public synchronized long assign(TopicPartition partition) {
        Tenure tenure = new Tenure(nextTenure++);
        owned.put(partition, tenure);
        return tenure.id;
    }

    /** The current tenure of {@code partition}, or 0 when it is not owned. */
    public synchronized long tenure(TopicPartition partition) {
        Tenure o = owned.get(partition);
        return o == null ? 0 : o.id;
    }

    /** The tenure {@code tenure} of {@code partition} if it is the current one, else null. */
    public synchronized Tenure tenureOf(TopicPartition partition, long tenure) {
        Tenure o = owned.get(partition);
        return o != null && o.id == tenure ? o : null;
    }

    /**
     * {@code partitions} are not owned any more: nothing of them is handed out from now on. Returns the consumed
     * positions of those with records handed out since their last commit: what the commit before the release covers.
     */
    public synchronized Map<TopicPartition, Long> revoke(Collection<TopicPartition> partitions) {
        Map<TopicPartition, Long> uncommitted = new HashMap<>();
        for (TopicPartition tp : partitions) {
            Tenure o = owned.remove(tp);
            if (o == null) {
                continue;
            }
            long consumed = o.end();
            if (consumed != NONE && consumed != o.committed) {
                uncommitted.put(tp, consumed);
            }
        }
        return uncommitted;
    }

    /** The consumed positions of owned partitions that moved since their last commit. */
    public synchronized Map<TopicPartition, Long> uncommitted() {
        Map<TopicPartition, Long> result = new HashMap<>();
        owned.forEach((tp, o) -> {
            long consumed = o.consumed.get();
            if (consumed != NONE && consumed != o.committed) {
                result.put(tp, consumed);
            }
        });
        return result;
    }

    /** {@code offsets} were committed: partitions still owned under the same tenure remember them. */
    public synchronized void committed(Map<TopicPartition, Long> offsets) {
        offsets.forEach((tp, offset) -> {
            Tenure o = owned.get(tp);
            if (o != null) {
                o.committed = offset;
            }
        });
    }

    /** The owned partitions. */
    public synchronized java.util.Set<TopicPartition> partitions() {
        return Immutable.set(owned.keySet());
    }
}
