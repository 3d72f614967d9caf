package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.store.Znodes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Optional;
import java.util.Set;

/**
 * Hands a {@link GroupMember}'s partitions over: to the application, which stops using them (and commits, while the
 * lease holds) before their owner znodes go, and to a successor process that resumes the session. It keeps the
 * fence, the listener and the ledger in step; the member decides what moves and when. Runs on the event loop.
 */
final class PartitionHandover {

    private static final Logger LOG = LoggerFactory.getLogger(GroupMember.class); // the member's log, as before

    private final ConsumerId me;
    private final OwnershipFence fence;
    private final MembershipListener listener;
    private final OwnedPartitions ledger;
    private final Znodes znodes;

    PartitionHandover(ConsumerId me, OwnershipFence fence, MembershipListener listener, OwnedPartitions ledger,
                      Znodes znodes) {
        this.me = me;
        this.fence = fence;
        this.listener = listener;
        this.ledger = ledger;
        this.znodes = znodes;
    }

    /**
     * Tells the listener to stop using {@code partitions}: revoked (it commits) while the ownership lease holds
     * ({@code canDeliver}), lost (no commit) once it has run out — the session may have expired and another member may
     * own them and have read their offsets already, so a commit now would rewind it. Returns whether they were revoked.
     */
    boolean handOver(Set<TopicAndPartition> partitions, boolean canDeliver) {
        boolean revoked = canDeliver;
        if (revoked) {
            fence.beginRevoke(partitions); // no more hand-outs; the commit of what was processed may still go out
            try {
                listener.onRevoked(partitions);
            } finally {
                fence.withdraw(partitions);
            }
        } else {
            fence.withdraw(partitions);
            LOG.warn("[{}] ownership lease ran out before partitions {} could be handed over: reporting them lost", me, partitions);
            listener.onLost(partitions);
        }
        awaitCommits(partitions);
        return revoked;
    }

    /**
     * For a successor that resumes {@code registeredSession}: waits for commits already authorised, deletes only the
     * owner znodes of partitions handed over already, and returns what is still owned in that session; empty if the
     * session is not live.
     */
    Optional<SessionOwnership> releaseForHandOff(long registeredSession) {
        awaitCommits(ledger.owned().keySet());
        try {
            ledger.releaseHandedOver();
        } catch (RuntimeException e) {
            LOG.warn("[{}] could not delete owner znodes {} before the hand-over (the successor will): {}", me,
                    ledger.unreleased(), e.getMessage());
        }
        long session = registeredSession;
        boolean live;
        try {
            live = session != 0 && znodes.sessionId() == session;
        } catch (RuntimeException reconnecting) {
            live = false; // the session may be gone: nothing a successor could resume
        }
        return live ? Optional.of(new SessionOwnership(session, ledger.owned())) : Optional.empty();
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
