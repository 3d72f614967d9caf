package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.store.Unreadable;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.SortedSet;

/**
 * A member's health as a value: what it owns, how many rebalances it completed, why the last one ran,
 * and what went wrong last.
 *
 * @param state           where it stands
 * @param generation      completed rebalances (successful attempts) since start
 * @param owned           partitions it owns now
 * @param lastCauses      why the latest rebalance ran (several changes can coalesce into one)
 * @param lastError       the error of the latest failed attempt, cleared by the next success
 * @param failedAttempts  failed attempts since the last success
 * @param stableSince     when it last became stable; empty while it never was
 * @param malformedMembers members whose registration could not be read (left out of the assignment)
 * @param unreadable      other znodes this member needs but cannot read (an owned partition's offset, a subscribed
 *                        topic): what they name is held, with this alarm, while everything else goes on
 * @param awaitingRelease partitions assigned to this member whose claim waits for their previous owner to delete its
 *                        owner znode (a member handing them over, or a dead one whose session has not expired yet)
 */
public record MemberHealth(MemberState state, long generation, SortedSet<TopicAndPartition> owned,
                           List<RebalanceCause> lastCauses, Optional<String> lastError, int failedAttempts,
                           Optional<Instant> stableSince, List<Unreadable> malformedMembers,
                           List<Unreadable> unreadable, SortedSet<TopicAndPartition> awaitingRelease) {

    public MemberHealth {
        malformedMembers = List.copyOf(malformedMembers);
        unreadable = List.copyOf(unreadable);
        awaitingRelease = java.util.Collections.unmodifiableSortedSet(new java.util.TreeSet<>(awaitingRelease));
    }

    public boolean isStable() {
        return state == MemberState.STABLE;
    }

    /** Whether some znode this member needs is unreadable ({@link #malformedMembers} or {@link #unreadable}). */
    public boolean hasAlarms() {
        return !malformedMembers.isEmpty() || !unreadable.isEmpty();
    }
}
