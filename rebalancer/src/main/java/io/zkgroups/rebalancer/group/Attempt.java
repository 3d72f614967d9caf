package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.store.ClaimConflictException;
import io.zkgroups.registry.store.MemberList;

import java.util.List;
import java.util.Map;

/** What one rebalance attempt of a {@link MemberProtocol} knows, passed from phase to phase (event loop only). */
final class Attempt {

    /** Asked for by the last awaited previous owner letting go: the attempt only claims, without reading the group. */
    static final RebalanceCause OWNER_LET_GO = new RebalanceCause.Retry("a partition's previous owner let go");

    final List<RebalanceCause> causes;
    /** Whether something happened that the last view cannot have seen. */
    final boolean stale;
    /** The claim a previous attempt left waiting for previous owners, if any. */
    final PreviousOwnerWait.Parked parked;
    /** The session the attempt began in. */
    long session;
    /** The read of the member list it assumed after a single leave, to be confirmed after the attempt. */
    MemberList.Read leaveOnly;
    GroupView view;
    Map<TopicAndPartition, ThreadId> target;
    Map<TopicAndPartition, ThreadId> toClaim;
    /** Finishing a claim that waited: what moved away was released before the wait. */
    boolean resumed;
    /** Set when the claim must wait for previous owners. */
    Awaited awaited;

    Attempt(List<RebalanceCause> causes, boolean stale, PreviousOwnerWait.Parked parked) {
        this.causes = causes;
        this.stale = stale;
        this.parked = parked;
    }

    /** Nothing but previous owners letting go asked for it. */
    boolean onlyOwnersLetGo() {
        return !causes.isEmpty() && causes.stream().allMatch(c -> c == OWNER_LET_GO);
    }

    /** Finishes the claim that waited. */
    void resume(PreviousOwnerWait.Parked waited) {
        resumed = true;
        view = waited.view();
        toClaim = waited.toClaim();
    }

    /** The claim waits for the holders of {@code conflict}: returns {@code AWAITING_OWNERS}. */
    MemberPhase await(ClaimConflictException conflict, GroupView seen, PreviousOwnerWait.OwnerWait armed) {
        awaited = new Awaited(conflict, seen, armed);
        return MemberPhase.AWAITING_OWNERS;
    }

    /** The holders a claim waits for, and what it knows of them (see {@link PreviousOwnerWait#awaitHolders}). */
    static final class Awaited {
        final ClaimConflictException conflict;
        /** The group as this attempt read it; null: the wait reads the member list. */
        final GroupView view;
        /** The wait whose watches are armed on the holders' znodes; null: the wait reads them, arming a new one. */
        final PreviousOwnerWait.OwnerWait armed;

        Awaited(ClaimConflictException conflict, GroupView view, PreviousOwnerWait.OwnerWait armed) {
            this.conflict = conflict;
            this.view = view;
            this.armed = armed;
        }
    }
}
