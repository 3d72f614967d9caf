package io.zkgroups.rebalancer.group;

import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * Where a {@link ZkGroupMember} stands in the rebalance protocol, finer than the {@link MemberState} its health shows:
 * which step of an attempt runs, or what it rests in between attempts. {@link PhaseMachine} moves it, only along the
 * transitions named here.
 * <p>
 * One attempt walks {@code JOINING} (only when not registered in the current session) → {@code READING} →
 * {@code REVOKING} → {@code CLAIMING} → {@code STABLE}; a claim blocked by previous owners rests in
 * {@code AWAITING_OWNERS} and goes back to {@code CLAIMING} when they let go. A failed attempt stays in the phase it
 * failed in until the next one begins (with {@code JOINING} or {@code READING}).
 */
enum MemberPhase {
    /** Created, not started. */
    LATENT(MemberState.LATENT),
    /** Registering in the current session (or adopting a registration handed over with it). */
    JOINING(null),
    /** Reading the group and computing the assignment: nothing changes until it finds that something must. */
    READING(null),
    /** Letting go of what moved away (the listener commits). */
    REVOKING(MemberState.REBALANCING),
    /** Releasing what moved away and claiming what is new, all or nothing. */
    CLAIMING(MemberState.REBALANCING),
    /** The claim waits for previous owners to delete their owner znodes. */
    AWAITING_OWNERS(MemberState.REBALANCING),
    /** Owns what the assignment of the last view gives it. */
    STABLE(MemberState.STABLE),
    /** The session is gone: everything was reported lost; the next attempt joins again. */
    SESSION_LOST(MemberState.SESSION_LOST),
    /** Refused by the group or the server. Final, but for closing. */
    REFUSED(MemberState.REFUSED),
    /** {@link ZkGroupMember#close()}: revoking everything and leaving. */
    LEAVING(MemberState.CLOSED),
    /** {@link ZkGroupMember#handOver()}: stopping for a successor that resumes the session. */
    HANDING_OVER(MemberState.CLOSED),
    /** Stopped. */
    CLOSED(MemberState.CLOSED);

    private static final Map<MemberPhase, Set<MemberPhase>> NEXT = new EnumMap<>(MemberPhase.class);

    static {
        // what may happen in any phase of a started member: the session ends, ZooKeeper refuses, the application stops
        Set<MemberPhase> always = EnumSet.of(SESSION_LOST, REFUSED, LEAVING, HANDING_OVER);
        Set<MemberPhase> attemptBegins = EnumSet.of(JOINING, READING);
        NEXT.put(LATENT, EnumSet.of(JOINING, CLOSED));
        NEXT.put(JOINING, union(always, EnumSet.of(READING)));
        NEXT.put(READING, union(always, attemptBegins, EnumSet.of(REVOKING, STABLE)));
        NEXT.put(REVOKING, union(always, attemptBegins, EnumSet.of(CLAIMING)));
        NEXT.put(CLAIMING, union(always, attemptBegins, EnumSet.of(STABLE, AWAITING_OWNERS)));
        NEXT.put(AWAITING_OWNERS, union(always, attemptBegins, EnumSet.of(CLAIMING)));
        NEXT.put(STABLE, union(always, attemptBegins));
        NEXT.put(SESSION_LOST, union(always, attemptBegins));
        NEXT.put(REFUSED, EnumSet.of(LEAVING, HANDING_OVER));
        NEXT.put(LEAVING, EnumSet.of(CLOSED));
        NEXT.put(HANDING_OVER, EnumSet.of(CLOSED));
        NEXT.put(CLOSED, Collections.<MemberPhase>emptySet());
    }

    /** What health shows in this phase; null: what it showed before (the member does not know yet what changes). */
    private final MemberState shows;

    MemberPhase(MemberState shows) {
        this.shows = shows;
    }

    boolean canMoveTo(MemberPhase next) {
        return NEXT.get(this).contains(next);
    }

    /** Whether this phase has a state of its own to show (it does not merely keep the last one). */
    boolean showsOwnState() {
        return shows != null;
    }

    /** The state health shows on entering this phase from one that showed {@code before}. */
    MemberState shownAfter(MemberState before) {
        if (shows != null) {
            return shows;
        }
        return before == MemberState.LATENT ? MemberState.REBALANCING : before; // a first join is a rebalance
    }

    /** Closing or closed: no attempt runs and nothing is scheduled any more. */
    boolean isEnding() {
        return this == LEAVING || this == HANDING_OVER || this == CLOSED;
    }

    /** No attempt runs in it any more. */
    boolean isTerminal() {
        return this == REFUSED || isEnding();
    }

    @SafeVarargs
    private static Set<MemberPhase> union(Set<MemberPhase>... sets) {
        Set<MemberPhase> all = EnumSet.noneOf(MemberPhase.class);
        for (Set<MemberPhase> set : sets) {
            all.addAll(set);
        }
        return Collections.unmodifiableSet(all);
    }
}
