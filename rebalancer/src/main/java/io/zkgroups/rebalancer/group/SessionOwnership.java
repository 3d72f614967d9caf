package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.store.PartitionOwner;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What a member owns in one ZooKeeper session: the partitions whose owner znodes are that session's ephemerals, with
 * the consumer thread each was claimed for. A member stopping for a restart hands it over with the session
 * ({@link ZkGroupMember#handOver()}); its successor, connected in the same session, adopts it
 * ({@link ZkGroupMember#adopt}) instead of claiming again.
 */
public final class SessionOwnership {
    private final long session;
    private final SortedMap<TopicAndPartition, ThreadId> owned;

    public SessionOwnership(long session, SortedMap<TopicAndPartition, ThreadId> owned) {
        if (session == 0) {
            throw new IllegalArgumentException("session cannot be 0");
        }
        this.owned = Collections.unmodifiableSortedMap(new TreeMap<>(owned));
        this.session = session;
    }

    /**
     * The part of {@link #owned()} that the owner znodes as read ({@code owners}, partition → owner) still give to this
     * session and the same thread: what the successor may take up without asking anyone.
     */
    public SortedMap<TopicAndPartition, ThreadId> stillHeld(Map<TopicAndPartition, PartitionOwner> owners) {
        SortedMap<TopicAndPartition, ThreadId> held = new TreeMap<>();
        owned.forEach((tp, thread) -> {
            PartitionOwner owner = owners.get(tp);
            if (owner != null && owner.isClaimOf(session, thread)) {
                held.put(tp, thread);
            }
        });
        return held;
    }

    public long session() {
        return session;
    }

    public SortedMap<TopicAndPartition, ThreadId> owned() {
        return owned;
    }

    @Override
    public boolean equals(Object other) {
        if (this == other) {
            return true;
        }
        if (!(other instanceof SessionOwnership)) {
            return false;
        }
        SessionOwnership that = (SessionOwnership) other;
        return session == that.session && Objects.equals(owned, that.owned);
    }

    @Override
    public int hashCode() {
        return Objects.hash(session, owned);
    }

    @Override
    public String toString() {
        return "SessionOwnership[session=" + session + ", owned=" + owned + "]";
    }
}
