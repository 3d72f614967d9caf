package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.store.PartitionOwner;

import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What a member owns in one ZooKeeper session: the partitions whose owner znodes are that session's ephemerals, with
 * the consumer thread each was claimed for. A member stopping for a restart hands it over with the session
 * ({@link GroupMember#handOff()}); its successor, connected in the same session, adopts it
 * ({@link GroupMember#adopt}) instead of claiming again.
 */
public record SessionOwnership(long session, SortedMap<TopicAndPartition, ThreadId> owned) {

    public SessionOwnership {
        if (session == 0) {
            throw new IllegalArgumentException("session cannot be 0");
        }
        owned = Collections.unmodifiableSortedMap(new TreeMap<>(owned));
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
}
