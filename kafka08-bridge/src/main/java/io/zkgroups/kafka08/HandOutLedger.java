package io.zkgroups.kafka08;

import com.google.common.collect.ImmutableSet;
import org.apache.kafka.common.TopicPartition;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * Which partitions a connector owns, under which tenure, and how far each was handed out to the application.
 * <p>
 * The fetcher thread tags every queued chunk with its partition's tenure; a stream thread hands a record out
 * only through {@link #handOut}, which checks that tenure and records the consumed position under the same lock
 * that {@link #revoke} takes. So a record is either handed out before its partition is revoked, and then its position
 * is in what {@code revoke} returns for the commit, or never: a chunk still queued when its partition moved on is
 * dropped, also if the same partition comes back later (a new tenure).
 */
public final class HandOutLedger {

    private static final long NONE = -1;

    /** One owned partition: its tenure, the next offset to consume, the offset last committed. */
    private static final class Owned {
        final long tenure;
        long consumed = NONE;
        long committed = NONE;

        Owned(long tenure) {
            this.tenure = tenure;
        }
    }

    private final Map<TopicPartition, Owned> owned = new HashMap<>();
    private long nextTenure = 1;

    /** {@code partition} is owned from now on, under a new tenure, which is returned. */
    public synchronized long assign(TopicPartition partition) {
        long tenure = nextTenure++;
        owned.put(partition, new Owned(tenure));
        return tenure;
    }

    /** The current tenure of {@code partition}, or 0 when it is not owned. */
    public synchronized long tenure(TopicPartition partition) {
        Owned o = owned.get(partition);
        return o == null ? 0 : o.tenure;
    }

    /** Whether records of {@code partition} tagged with {@code tenure} may still be handed out. */
    public synchronized boolean isCurrent(TopicPartition partition, long tenure) {
        Owned o = owned.get(partition);
        return o != null && o.tenure == tenure;
    }

    /**
     * Hands out the record before {@code nextOffset} if its partition is still owned under {@code tenure}, and then
     * remembers {@code nextOffset} as the partition's consumed position. Returns false (and remembers nothing) otherwise.
     */
    public synchronized boolean handOut(TopicPartition partition, long tenure, long nextOffset) {
        Owned o = owned.get(partition);
        if (o == null || o.tenure != tenure) {
            return false;
        }
        o.consumed = nextOffset;
        return true;
    }

    /**
     * {@code partitions} are not owned any more: nothing of them is handed out from now on. Returns the consumed
     * positions of those with records handed out since their last commit: what the commit before the release covers.
     */
    public synchronized Map<TopicPartition, Long> revoke(Collection<TopicPartition> partitions) {
        Map<TopicPartition, Long> uncommitted = new HashMap<>();
        for (TopicPartition tp : partitions) {
            Owned o = owned.remove(tp);
            if (o != null && o.consumed != NONE && o.consumed != o.committed) {
                uncommitted.put(tp, o.consumed);
            }
        }
        return uncommitted;
    }

    /** The consumed positions of owned partitions that moved since their last commit. */
    public synchronized Map<TopicPartition, Long> uncommitted() {
        Map<TopicPartition, Long> result = new HashMap<>();
        owned.forEach((tp, o) -> {
            if (o.consumed != NONE && o.consumed != o.committed) {
                result.put(tp, o.consumed);
            }
        });
        return result;
    }

    /** {@code offsets} were committed: partitions still owned under the same tenure remember them. */
    public synchronized void committed(Map<TopicPartition, Long> offsets) {
        offsets.forEach((tp, offset) -> {
            Owned o = owned.get(tp);
            if (o != null) {
                o.committed = offset;
            }
        });
    }

    /** The owned partitions. */
    public synchronized java.util.Set<TopicPartition> partitions() {
        return ImmutableSet.copyOf(owned.keySet());
    }
}
