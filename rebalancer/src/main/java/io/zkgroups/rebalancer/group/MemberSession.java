package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;
import org.slf4j.Logger;

import java.util.Optional;
import java.util.SortedMap;

/**
 * In which ZooKeeper session a {@link ZkGroupMember} is registered, and in which it owns what it owns: the JOINING
 * phase's work (register, or adopt what a previous process handed over with the session) and the facts the other
 * phases check. Written on the event loop (and by {@link #adopt} before it starts); {@link #canDeliver()} is read on
 * any thread, so the owning session is volatile.
 */
final class MemberSession {

    private final Logger log;
    private final MemberRegistrar registrar;
    private final SessionLease lease;
    private final OwnedPartitions ledger;
    private final OwnershipChanges changes;
    /** The session it is registered in; 0: not registered (the next attempt joins). */
    private long registered;
    /** Handed over by a previous process with the session this member starts in: adopted by the first join. */
    private SessionOwnership adoptable;
    /** The session what it owns is owned in; 0: none. */
    private volatile long owning;

    MemberSession(MemberContext member, MemberRegistrar registrar, SessionLease lease, OwnedPartitions ledger,
                  OwnershipChanges changes) {
        this.log = member.log();
        this.registrar = registrar;
        this.lease = lease;
        this.ledger = ledger;
        this.changes = changes;
    }

    /** Before the member starts: what a previous process handed over with the session. */
    void adopt(SessionOwnership handedOver) {
        adoptable = handedOver;
    }

    /** The session it is registered in; 0: none. */
    long registered() {
        return registered;
    }

    boolean isRegisteredIn(long session) {
        return registered != 0 && registered == session;
    }

    /** Whether what it owns may be handed out: owned in the session whose lease holds now. Any thread. */
    boolean canDeliver() {
        long session = owning;
        return session != 0 && lease.isValid() && lease.session() == session;
    }

    /**
     * JOINING in {@code session}: adopts the registration handed over with it, if it is still the session's, or else
     * checks that it may join and registers.
     */
    void join(long session) {
        SessionOwnership handedOver = adoptable;
        adoptable = null; // once: after an expiry the member joins as any other
        if (handedOver != null && handedOver.session() == session && adopted(handedOver)) {
            return;
        }
        registrar.checkCanJoin();
        registrar.register();
        registeredIn(session);
    }

    /** Its registration is gone (or its session): the next attempt registers again. */
    void unregistered() {
        registered = 0;
    }

    /** What it owned may be someone else's now: nothing is owned in any session. */
    void ownsNothing() {
        owning = 0;
    }

    /** It left, was refused or handed its session over: neither registered nor owning. */
    void ended() {
        registered = 0;
        owning = 0;
    }

    /** Registered in {@code session}: what it owns from now on is owned in that session. */
    private void registeredIn(long session) {
        registered = session;
        owning = session;
        lease.beat();
        ledger.scanForUntracked();
    }

    /**
     * Registered already, by the process that handed this session over: keeps the registration (rewritten only if
     * the subscription changed, and the rebalance that follows handles the change) and the owner znodes that are still
     * the session's, granting them under new fence epochs. False if the registration is not the session's any more.
     */
    private boolean adopted(SessionOwnership handedOver) {
        long session = handedOver.session();
        Optional<SortedMap<TopicAndPartition, ThreadId>> kept = registrar.keep(handedOver);
        if (!kept.isPresent()) {
            return false;
        }
        SortedMap<TopicAndPartition, ThreadId> held = kept.get();
        registeredIn(session); // owner znodes of the session that were not handed over go to the next release
        log.info("resumed session 0x{}: kept registration and partitions {}", Long.toHexString(session), held.keySet());
        changes.gain(held, session);
        return true;
    }
}
