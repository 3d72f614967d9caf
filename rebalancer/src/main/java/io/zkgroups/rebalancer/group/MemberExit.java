package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.store.MemberList;
import org.slf4j.Logger;

import java.util.Optional;
import java.util.Set;

/**
 * How a {@link ZkGroupMember} gives up what it owns: letting go of some partitions (revoked while the lease holds,
 * lost after), losing everything with its session, and the three ends — refused, leaving, handing its session off.
 * The {@link MemberProtocol} decides when and moves the phase; this class does the work. Event loop only.
 */
final class MemberExit {

    private final Logger log;
    private final ConsumerId me;
    private final String group;
    private final ZkRegistry registry;
    private final MemberList memberList;
    private final OwnedPartitions ledger;
    private final RebalanceRecord record;
    private final PreviousOwnerWait previousOwners;
    private final OwnershipChanges changes;
    private final MemberSession session;

    MemberExit(MemberContext member, ZkRegistry registry, MemberList memberList, OwnedPartitions ledger,
               RebalanceRecord record, PreviousOwnerWait previousOwners, OwnershipChanges changes, MemberSession session) {
        this.log = member.log();
        this.me = member.me();
        this.group = member.group();
        this.registry = registry;
        this.memberList = memberList;
        this.ledger = ledger;
        this.record = record;
        this.previousOwners = previousOwners;
        this.changes = changes;
        this.session = session;
    }

    /** Tells the listener to stop using {@code partitions} (see {@link OwnershipChanges#letGo}); true: revoked. */
    boolean letGo(Set<TopicAndPartition> partitions) {
        return changes.letGo(partitions, session.canDeliver());
    }

    /** Everything owned may belong to someone else now: report it lost, without committing. */
    void loseEverything() {
        session.ownsNothing();
        previousOwners.clearAwaited();
        // unreleased stays: their znodes usually went with the session, but a claim or release retried by the
        // client on the new session may have left some there; the release reads them and deletes only ours
        changes.loseAll();
    }

    /** Refused by the group or the server: gives up what it owns and its registration. */
    void refuse(String error) {
        log.error("{}", error);
        previousOwners.clearAwaited();
        record.error(error);
        if (!ledger.isEmpty()) {
            letGo(ledger.ownedCopy());
        }
        try {
            ledger.releaseLetGo();
            registry.members().unregister(group, me);
        } catch (RuntimeException e) {
            log.warn("could not unregister after being refused: {}", e.getMessage());
        }
        session.ended();
    }

    /** Leaving: revokes what it owns (the listener commits), then deletes its owner znodes and registration. */
    void leave() {
        previousOwners.clearAwaited();
        try {
            if (!ledger.isEmpty()) {
                Set<TopicAndPartition> mine = ledger.ownedCopy();
                boolean revoked = letGo(mine);
                if (!revoked) {
                    ledger.keepUntilSessionEnds(mine); // lost: the session may be gone, so its end removes the znode
                }
            }
            long registered = session.registered();
            if (registered != 0) {
                // one transaction; no read first when our watches vouch for the registration and the claims
                ledger.releaseAndUnregister(me, registered, memberList.vouchesFor(me, registered));
            } else {
                ledger.releaseLetGo();
            }
        } catch (RuntimeException e) {
            log.warn("error while leaving group {} (the session's end will clean up): {}", group, e.getMessage());
        } finally {
            session.ended();
        }
    }

    /** Handing over: what it still owns in its session, for a successor (see {@link OwnershipChanges#releaseForHandOver}). */
    Optional<SessionOwnership> releaseForHandOver() {
        Optional<SessionOwnership> result = changes.releaseForHandOver(session.registered());
        session.ended();
        return result;
    }
}
