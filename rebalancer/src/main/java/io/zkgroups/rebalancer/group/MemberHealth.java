package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.Immutable;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.store.Unreadable;

import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedSet;

/**
 * A member's health as a value: what it owns, how many rebalances it completed, why the last one ran,
 * and what went wrong last.
 */
public final class MemberHealth {
    private final MemberState state;
    private final long generation;
    private final SortedSet<TopicAndPartition> owned;
    private final List<RebalanceCause> lastCauses;
    private final Optional<String> lastError;
    private final int failedAttempts;
    private final Optional<Instant> stableSince;
    private final List<Unreadable> malformedMembers;
    private final List<Unreadable> unreadable;
    private final SortedSet<TopicAndPartition> awaitingRelease;

    public MemberHealth(MemberState state, long generation, SortedSet<TopicAndPartition> owned,
                        List<RebalanceCause> lastCauses, Optional<String> lastError, int failedAttempts,
                        Optional<Instant> stableSince, List<Unreadable> malformedMembers, List<Unreadable> unreadable,
                        SortedSet<TopicAndPartition> awaitingRelease) {
        this.malformedMembers = Immutable.list(malformedMembers);
        this.unreadable = Immutable.list(unreadable);
        this.awaitingRelease = java.util.Collections.unmodifiableSortedSet(new java.util.TreeSet<>(awaitingRelease));
        this.state = state;
        this.generation = generation;
        this.owned = owned;
        this.lastCauses = lastCauses;
        this.lastError = lastError;
        this.failedAttempts = failedAttempts;
        this.stableSince = stableSince;
    }

    public boolean isStable() {
        return state == MemberState.STABLE;
    }

    /** Whether some znode this member needs is unreadable ({@link #malformedMembers} or {@link #unreadable}). */
    public boolean hasAlarms() {
        return !malformedMembers.isEmpty() || !unreadable.isEmpty();
    }

    /** Where it stands. */
    public MemberState state() {
        return state;
    }

    /** Completed rebalances (successful attempts) since start. */
    public long generation() {
        return generation;
    }

    /** Partitions it owns now. */
    public SortedSet<TopicAndPartition> owned() {
        return owned;
    }

    /** Why the latest rebalance ran (several changes can coalesce into one). */
    public List<RebalanceCause> lastCauses() {
        return lastCauses;
    }

    /** The error of the latest failed attempt, cleared by the next success. */
    public Optional<String> lastError() {
        return lastError;
    }

    /** Failed attempts since the last success. */
    public int failedAttempts() {
        return failedAttempts;
    }

    /** When it last became stable; empty while it never was. */
    public Optional<Instant> stableSince() {
        return stableSince;
    }

    /** Members whose registration could not be read (left out of the assignment). */
    public List<Unreadable> malformedMembers() {
        return malformedMembers;
    }

    /**
     * Other znodes this member needs but cannot read (an owned partition's offset, a subscribed topic): what they
     * name is held, with this alarm, while everything else goes on.
     */
    public List<Unreadable> unreadable() {
        return unreadable;
    }

    /**
     * Partitions assigned to this member whose claim waits for their previous owner to delete its owner znode (a
     * member handing them over, or a dead one whose session has not expired yet).
     */
    public SortedSet<TopicAndPartition> awaitingRelease() {
        return awaitingRelease;
    }

    @Override
    public boolean equals(Object other) {
        if (this == other) {
            return true;
        }
        if (!(other instanceof MemberHealth)) {
            return false;
        }
        MemberHealth that = (MemberHealth) other;
        return Objects.equals(state, that.state) && generation == that.generation && Objects.equals(owned, that.owned)
                && Objects.equals(lastCauses, that.lastCauses) && Objects.equals(lastError, that.lastError)
                && failedAttempts == that.failedAttempts && Objects.equals(stableSince, that.stableSince)
                && Objects.equals(malformedMembers, that.malformedMembers)
                && Objects.equals(unreadable, that.unreadable)
                && Objects.equals(awaitingRelease, that.awaitingRelease);
    }

    @Override
    public int hashCode() {
        return Objects.hash(state, generation, owned, lastCauses, lastError, failedAttempts, stableSince,
                malformedMembers, unreadable, awaitingRelease);
    }

    @Override
    public String toString() {
        return "MemberHealth[state=" + state + ", generation=" + generation + ", owned=" + owned
                + ", lastCauses=" + lastCauses + ", lastError=" + lastError + ", failedAttempts=" + failedAttempts
                + ", stableSince=" + stableSince + ", malformedMembers=" + malformedMembers
                + ", unreadable=" + unreadable + ", awaitingRelease=" + awaitingRelease + "]";
    }
}
