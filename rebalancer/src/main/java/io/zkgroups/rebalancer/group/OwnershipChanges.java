package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.store.Znodes;
import org.slf4j.Logger;

import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Every change of what a {@link ZkGroupMember} owns, in one place, so that the fence, the ledger, the listener and the
 * member's health move together and in the same order each time:
 * <ul>
 *   <li>{@link #gain}: claimed, or adopted from a predecessor's session — ledger, fence grants, health, then the
 *       listener with the grants;</li>
 *   <li>{@link #letGo}: moved away or given up — the listener lets go (revoked with a commit while the lease
 *       holds, lost without one after it ran out), the fence withdraws, the ledger and the health forget them; their
 *       owner znodes go afterwards, so health never shows two owners of a partition;</li>
 *   <li>{@link #loseAll}: the session is gone — everything lost at once, no commit, owner znodes left to the next
 *       release;</li>
 *   <li>{@link #releaseForHandOver}: stopping for a successor that resumes the session.</li>
 * </ul>
 * The member decides what moves and when; this class only moves it. Runs on the member's event loop.
 */
final class OwnershipChanges {

    private final Logger log;
    private final OwnershipFence fence;
    private final MembershipListener listener;
    private final OwnedPartitions ledger;
    private final Znodes znodes;
    private final Runnable healthChanged;

    /** @param healthChanged publishes the member's health (it reads the ledger) */
    OwnershipChanges(MemberContext member, OwnershipFence fence, MembershipListener listener, OwnedPartitions ledger,
                     Znodes znodes, Runnable healthChanged) {
        this.log = member.log();
        this.fence = fence;
        this.listener = listener;
        this.ledger = ledger;
        this.znodes = znodes;
        this.healthChanged = healthChanged;
    }

    /** {@code partitions} are owned in {@code session} from now on (their owner znodes are that session's). */
    void gain(Map<TopicAndPartition, ThreadId> partitions, long session) {
        ledger.add(partitions);
        Map<TopicAndPartition, OwnershipFence.Grant> grants = fence.grant(partitions, session);
        healthChanged.run();
        if (!grants.isEmpty()) {
            listener.onAssigned(Collections.unmodifiableSortedMap(new TreeMap<>(grants)));
        }
    }

    /**
     * Tells the listener to stop using {@code partitions} and stops reporting them as owned, before their owner znodes
     * go: revoked (it commits) while the ownership lease holds ({@code canDeliver}), lost (no commit) once it has run
     * out — the session may have expired and another member may own them and have read their offsets already, so a
     * commit now would rewind it. Returns whether they were revoked.
     */
    boolean letGo(Set<TopicAndPartition> partitions, boolean canDeliver) {
        Set<TopicAndPartition> gone = Collections.unmodifiableSet(new java.util.TreeSet<>(partitions));
        boolean revoked = canDeliver;
        if (revoked) {
            fence.beginRevoke(gone); // no more hand-outs; the commit of what was processed may still go out
            try {
                listener.onRevoked(gone);
            } finally {
                fence.withdraw(gone);
            }
        } else {
            fence.withdraw(gone);
            log.warn("ownership lease ran out before partitions {} could be let go of: reporting them lost", gone);
            listener.onLost(gone);
        }
        awaitCommits(gone);
        ledger.forget(gone);
        healthChanged.run();
        return revoked;
    }

    /**
     * The session that owned everything is gone (LOST, or a new session): every partition may be someone else's now.
     * The fence withdraws at once, the listener hears them lost (no commit), and their owner znodes go to the next
     * release, in case the session lives on after all and they would block others.
     */
    void loseAll() {
        if (ledger.isEmpty()) {
            return;
        }
        Set<TopicAndPartition> lost = ledger.ownedCopy();
        ledger.toRelease(lost);
        fence.withdraw(lost);
        ledger.clear();
        healthChanged.run();
        log.warn("session lost: partitions {} are no longer ours", lost);
        listener.onLost(lost);
    }

    /**
     * For a successor that resumes {@code registeredSession}: waits for commits already authorised, deletes only the
     * owner znodes of partitions let go of already, and returns what is still owned in that session; empty if the
     * session is not live.
     */
    Optional<SessionOwnership> releaseForHandOver(long registeredSession) {
        awaitCommits(ledger.owned().keySet());
        try {
            ledger.releaseLetGo();
        } catch (RuntimeException e) {
            log.warn("could not delete owner znodes {} before the hand-over (the successor will): {}",
                    ledger.unreleased(), e.getMessage());
        }
        long session = registeredSession;
        boolean live;
        try {
            live = session != 0 && znodes.sessionId() == session;
        } catch (RuntimeException reconnecting) {
            live = false; // the session may be gone: nothing a successor could resume
        }
        SortedMap<TopicAndPartition, ThreadId> owned = ledger.owned();
        return live ? Optional.of(new SessionOwnership(session, owned)) : Optional.empty();
    }

    /** Holds the release of {@code partitions} until the commits authorised for them have ended or run out of time. */
    private void awaitCommits(Set<TopicAndPartition> partitions) {
        try {
            fence.awaitCommits(partitions);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
