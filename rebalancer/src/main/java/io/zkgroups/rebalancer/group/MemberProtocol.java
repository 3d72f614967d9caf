package io.zkgroups.rebalancer.group;

import io.zkgroups.rebalancer.assign.AssignmentRefusedException;
import io.zkgroups.rebalancer.assign.PartitionAssignor;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.server.ServerCapabilities;
import io.zkgroups.registry.store.ClaimConflictException;
import io.zkgroups.registry.store.MemberList;
import io.zkgroups.registry.store.PartitionOwner;
import io.zkgroups.registry.store.Unreadable;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.slf4j.Logger;

import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.stream.Collectors;

/**
 * A {@link ZkGroupMember}'s side of the 0.8 rebalance protocol, on its event loop: the attempt, one small step per
 * {@link MemberPhase}, each returning the phase that follows (null: the attempt ends), and what ends the protocol —
 * refusing, leaving, handing over. Every move between phases goes through the member's {@link PhaseMachine}.
 * <p>
 * Everything here but {@link #canDeliver()} runs on the event loop (or, for {@link #adopt}, before it starts), and
 * all its mutable state is the loop's. It delegates: {@code MemberSession} where it is registered and owns,
 * {@code MemberExit} giving up what it owns, {@code AttemptRetries} when the next attempt runs after one that failed,
 * {@code Attempt} what one attempt knows, {@code GroupReads} what READING reads, {@code OwnedPartitions} what is owned and still to be released,
 * {@code PreviousOwnerWait} the claim that waits for previous owners, {@code GroupViewReader} what an attempt assigns
 * from, {@code OwnershipChanges} every change of what it owns, and {@code RebalanceRecord} what the attempts add up to.
 */
final class MemberProtocol {

    private final Logger log;
    private final GroupMemberConfig config;
    private final ConsumerId me;
    private final String group;
    private final CuratorFramework client;
    private final ZkRegistry registry;
    private final AssignmentMemo assignments;
    private final AttemptRetries retries;
    private final PhaseMachine phases;
    private final AttemptSchedule attempts;
    private final ViewFreshness freshness;
    private final Runnable healthChanged;

    // --- the event loop's ---------------------------------------------------------------------------
    private final OwnedPartitions ledger;
    private final RebalanceRecord record;
    private final PreviousOwnerWait previousOwners;
    private final OwnershipChanges changes;
    /** Where it is registered and owns (its {@code canDeliver()} is read on any thread). */
    private final MemberSession session;
    /** What gives up ownership: letting go, losing, refused, leaving, handing over. */
    private final MemberExit exit;
    /** What READING reads. */
    private final GroupReads reads;
    /** The group's members, as this member's reads saw them. */
    private final MemberList memberList;
    /** The view of the last attempt that ended {@code STABLE}; null before the first. */
    private GroupView lastView;

    /**
     * @param registry          the stores on the member's own client, whose session and servers it asks about too
     * @param membershipWatcher armed by every read of the member list
     * @param healthChanged     publishes the member's health (on the event loop)
     * @param unreadable        reports unreadable znodes of a source, as {@link ZkGroupMember#reportUnreadable} does
     */
    MemberProtocol(MemberContext member, ZkRegistry registry, TopicMetadata topicMetadata,
                   SessionLease lease, OwnershipFence fence, MembershipListener listener, PhaseMachine phases,
                   AttemptSchedule attempts, ViewFreshness freshness, Watcher membershipWatcher,
                   Runnable healthChanged, BiConsumer<String, List<Unreadable>> unreadable) {
        this.log = member.log();
        this.config = member.config();
        this.me = member.me();
        this.group = member.group();
        this.client = registry.znodes().client();
        this.registry = registry;
        PartitionAssignor assignor = PartitionAssignor.forStrategy(config.assignmentStrategy());
        this.assignments = new AssignmentMemo(assignor, me);
        this.memberList = registry.members().memberList(group);
        memberList.watchDirectory();
        this.phases = phases;
        this.attempts = attempts;
        this.freshness = freshness;
        this.healthChanged = healthChanged;
        this.record = new RebalanceRecord(member.time());
        this.retries = new AttemptRetries(member, record, attempts, healthChanged);
        this.ledger = new OwnedPartitions(registry.owners(), group);
        this.previousOwners = new PreviousOwnerWait(registry, group, this::ownersLetGo);
        this.changes = new OwnershipChanges(member, fence, listener, ledger, registry.znodes(), healthChanged);
        MemberRegistrar registrar = new MemberRegistrar(member, registry, assignor, topicMetadata,
                this::staleRegistrationWait);
        this.session = new MemberSession(member, registrar, lease, ledger, changes);
        this.exit = new MemberExit(member, registry, memberList, ledger, record, previousOwners, changes, session);
        GroupViewReader viewReader = new GroupViewReader(config, topicMetadata, () -> again(null, config.debounce()));
        this.reads = new GroupReads(member, registry, memberList, viewReader, freshness, membershipWatcher, record,
                session, unreadable, this::again);
    }

    /** Before the member starts: what a previous process handed over with the session (see {@link ZkGroupMember#adopt}). */
    void adopt(SessionOwnership handedOver) {
        session.adopt(handedOver);
    }

    /** Whether what it owns may be handed out: owned in the session whose lease holds now. Any thread. */
    boolean canDeliver() {
        return session.canDeliver();
    }

    /** The member's health as of now, showing {@code state}. */
    MemberHealth health(MemberState state, List<Unreadable> alarms) {
        return record.health(state, ledger.snapshot(), alarms, previousOwners);
    }

    // --- the attempt ----------------------------------------------------------------------------------

    /** One rebalance attempt, phase by phase. */
    void attempt() {
        List<RebalanceCause> causes = attempts.begin();
        if (phases.phase().isTerminal()) {
            return;
        }
        record.saw(causes);
        Attempt attempt = new Attempt(causes, freshness.takeStale(), previousOwners.takeParked());
        try {
            MemberPhase phase = firstPhase(attempt);
            while (phase != null && phases.moveTo(phase)) {
                phase = step(phase, attempt);
            }
        } catch (AssignmentRefusedException e) {
            retries.cannotAssign(e.getMessage());
        } catch (GroupRefusedException e) {
            phases.moveTo(refuse(e.getMessage()));
        } catch (RuntimeException | Error e) {
            failedOrRefused(e);
        } finally {
            if (attempt.leaveOnly != null) {
                confirmLeaveOnly(attempt.leaveOnly);
            }
        }
    }

    /**
     * Where the attempt begins: finishing the claim that waited, if nothing but its previous owners letting go happened
     * since (a membership change the view has not seen would have made it stale through the watch its read armed);
     * joining, if not registered in the current session; reading the group otherwise.
     */
    private MemberPhase firstPhase(Attempt attempt) {
        attempt.session = registry.znodes().sessionId(); // never 0: it throws while the client is connecting
        boolean registered = session.isRegisteredIn(attempt.session);
        if (attempt.parked != null && !attempt.stale && attempt.onlyOwnersLetGo() && registered) {
            attempt.resume(attempt.parked);
            return MemberPhase.AWAITING_OWNERS;
        }
        return registered ? MemberPhase.READING : MemberPhase.JOINING;
    }

    private MemberPhase step(MemberPhase phase, Attempt attempt) {
        switch (phase) {
            case JOINING:
                return join(attempt);
            case READING:
                return read(attempt);
            case REVOKING:
                return revoke(attempt);
            case CLAIMING:
                return attempt.resumed ? claimAfterWait(attempt) : claim(attempt);
            case AWAITING_OWNERS:
                return attempt.awaited != null ? awaitOwners(attempt.awaited) : ownersGone(attempt);
            default:
                return null; // STABLE, REFUSED: the step that led there recorded the outcome
        }
    }

    /** JOINING: registers in the current session, or adopts the registration handed over with it. */
    private MemberPhase join(Attempt attempt) {
        boolean fresh = session.registered() == 0;
        if (!fresh) { // registered in a session that ended
            RebalanceCause expired = new RebalanceCause.SessionExpired(session.registered(), attempt.session);
            attempt.causes.add(expired);
            record.saw(Collections.singletonList(expired));
            exit.loseEverything();
            session.unregistered();
        }
        if (fresh) {
            reads.readTopicsAhead(); // while nobody waits for us: our registration starts everyone's rebalance
        }
        session.join(attempt.session);
        ledger.releaseUntracked();
        if (fresh && !config.debounce().isZero()) {
            // Our registration is news to everyone: they react after their debounce and hold what we would get
            // until then. Read the group after ours, with whoever joined together with us.
            healthChanged.run();
            attempts.putBack(attempt.causes);
            again(null, config.debounce());
            return null;
        }
        return MemberPhase.READING;
    }

    /** READING: reads the group and computes the assignment; rebalances only if something that matters changed. */
    private MemberPhase read(Attempt attempt) {
        ledger.releaseUntracked(); // a no-op unless the attempt that registered failed before it
        GroupView view = reads.read(attempt);
        List<RebalanceCause> seen = view.changesSince(lastView);
        attempt.causes.addAll(seen);
        record.saw(seen);
        if (view.refused().contains(me)) {
            return refuse("group " + group + " is full: " + config.maxGroupSize() + " members are allowed and "
                    + me + " registered after them (members: " + view.members().keySet() + ")");
        }
        attempt.view = view;
        attempt.target = assignments.share(view.snapshot());
        if (phases.shown() == MemberState.STABLE && attempt.target.equals(ledger.owned()) && lastView != null
                && view.snapshot().equals(lastView.snapshot())) {
            lastView = view; // nothing that matters changed
            record.unchanged();
            return MemberPhase.STABLE;
        }
        log.info("rebalancing: {}", describe(attempt.causes));
        return MemberPhase.REVOKING;
    }

    /** REVOKING: the listener lets go of what moved away (the commit happens here, before the release). */
    private MemberPhase revoke(Attempt attempt) {
        Set<TopicAndPartition> moving = ledger.movedAway(attempt.target);
        if (!moving.isEmpty()) {
            exit.letGo(moving);
        }
        return MemberPhase.CLAIMING;
    }

    /**
     * CLAIMING: one round trip releases what moved away and claims what is new, all or nothing. Where the owner
     * directories' watches already say that previous owners hold part of it, it only releases, and the claim waits.
     */
    private MemberPhase claim(Attempt attempt) {
        Map<TopicAndPartition, ThreadId> toClaim = new TreeMap<>(attempt.target);
        toClaim.keySet().removeAll(ledger.owned().keySet());
        attempt.toClaim = toClaim;
        registry.owners().watchDirectories(OwnerWatchFanOut.affordable(attempt.view.snapshot()));
        PreviousOwnerWait.OwnerWait wait = previousOwners.newWait();
        Set<TopicAndPartition> stillHeld = registry.owners().heldAmong(group, toClaim.keySet(), wait)
                .orElse(Collections.<TopicAndPartition>emptySet());
        if (!stillHeld.isEmpty()) {
            // Rather than send a claim that must fail: who holds what is read for health and how long to wait.
            ledger.releaseLetGo();
            // Previous owners often let go while our release was out (they rebalance too), and the server sent us those
            // deletions before its reply: if the watch has applied them already, claim now instead of reading them.
            stillHeld = registry.owners().heldAmong(group, stillHeld, wait).orElse(stillHeld);
        }
        if (!stillHeld.isEmpty()) {
            previousOwners.park(attempt.view, toClaim);
            return attempt.await(ClaimConflictException.notSent(group, registry.owners().owners(group, stillHeld, wait)),
                    attempt.view, wait);
        }
        Map<TopicAndPartition, PartitionOwner> held;
        try {
            held = ledger.releaseAndClaim(me, toClaim, wait); // the owner znodes it finds held are watched
        } catch (ClaimConflictException collided) {
            return attempt.await(collided, null, null); // a retried claim collided: read the holders again
        } catch (RuntimeException e) {
            ledger.claimMayHaveLanded(toClaim);
            throw e;
        }
        if (!held.isEmpty()) {
            previousOwners.park(attempt.view, toClaim);
            return attempt.await(new ClaimConflictException(group, held), attempt.view, wait);
        }
        return claimed(attempt);
    }

    /** AWAITING_OWNERS, resumed: the claim that waited goes out if its previous owners are all gone. */
    private MemberPhase ownersGone(Attempt attempt) {
        PreviousOwnerWait.OwnerWait wait = previousOwners.current();
        previousOwners.park(attempt.view, attempt.toClaim);
        if (wait != null && !wait.allGone()) {
            retries.keepWaiting();
            return null;
        }
        return MemberPhase.CLAIMING;
    }

    /** CLAIMING after the wait: what moved away was released already; only the claim is left. */
    private MemberPhase claimAfterWait(Attempt attempt) {
        try {
            registry.owners().claim(group, me, attempt.toClaim);
        } catch (ClaimConflictException takenMeanwhile) {
            return attempt.await(takenMeanwhile, attempt.view, null);
        } catch (RuntimeException e) {
            ledger.claimMayHaveLanded(attempt.toClaim);
            throw e;
        }
        previousOwners.unpark();
        return claimed(attempt);
    }

    /** The claim of {@code attempt} is ours now: it succeeded. */
    private MemberPhase claimed(Attempt attempt) {
        previousOwners.done();
        long registeredSession = session.registered();
        if (registry.znodes().sessionId() != registeredSession) {
            // The attempt outlived its session (it stalled, or the claim went out on the new one): what it computed
            // is not ours, and the listener never hears of it. Claims that landed in the current session are
            // released by the next attempt (or claimed again, if they are still ours to take).
            ledger.toRelease(attempt.toClaim.keySet());
            throw new IllegalStateException("session 0x" + Long.toHexString(registeredSession)
                    + " ended during the rebalance");
        }
        changes.gain(attempt.toClaim, registeredSession);
        lastView = attempt.view;
        long generation = record.succeeded();
        log.info("stable (generation {}): owns {}", generation, ledger.owned().keySet());
        return MemberPhase.STABLE;
    }

    /**
     * AWAITING_OWNERS: waits for the holders of a claim that collided to let go (see
     * {@link PreviousOwnerWait#awaitHolders}); the last of them letting go asks for the claim at once.
     */
    private MemberPhase awaitOwners(Attempt.Awaited awaited) {
        boolean holderAlive = previousOwners.awaitHolders(awaited.conflict, awaited.view, awaited.armed);
        // A registered holder is releasing right now: the watch wakes us. An unregistered one is a dead member
        // whose session has not ended yet: that is waiting, not failing, so do not escalate the backoff.
        String reason = "waiting for previous owners: " + awaited.conflict.getMessage();
        if (holderAlive) {
            retries.ownerReleasing(reason);
        } else {
            retries.ownerGone(reason);
        }
        return null;
    }

    private void failedOrRefused(Throwable e) {
        Optional<KeeperException.NoAuthException> denied = ZooKeeperDenial.in(e);
        if (denied.isPresent()) {
            phases.moveTo(refuse(ZooKeeperDenial.explain(group, denied.get())));
            return;
        }
        if (UnimplementedRequest.in(e).isPresent()) {
            phases.moveTo(refuse(UnimplementedRequest.explain(serverGeneration(), e)));
            return;
        }
        if (e instanceof Error) {
            log.error("rebalance attempt failed with an error (it will be retried)", e);
        }
        retries.failed(e.getMessage() == null ? e.toString() : e.getMessage());
    }

    /** After an attempt that acted on a single leave without reading the group: the read it skipped. */
    private void confirmLeaveOnly(MemberList.Read assumed) {
        if (!phases.phase().isTerminal()) {
            reads.confirmLeaveOnly(assumed, retries.first());
        }
    }

    /** Another attempt within {@code delay}, which reads the group again. */
    private void again(RebalanceCause cause, Duration delay) {
        if (phases.phase().isEnding()) {
            return;
        }
        freshness.markStale();
        attempts.request(cause, delay);
    }

    /** The last awaited owner znode is gone (any thread): a single event that gathers nothing, so claim at once. */
    private void ownersLetGo() {
        if (!phases.phase().isEnding()) {
            attempts.request(Attempt.OWNER_LET_GO, Duration.ZERO); // the view stays fresh: the claim needs no read
        }
    }

    /** How long to wait for a registration of a previous session of ours to go: one session timeout, plus slack. */
    private Duration staleRegistrationWait() {
        try {
            return Duration.ofMillis(client.getZookeeperClient().getZooKeeper().getSessionTimeout() + 1_000L);
        } catch (Exception e) {
            return Duration.ofSeconds(30);
        }
    }

    // --- what ends ownership --------------------------------------------------------------------------

    /** Refused by the group or the server: gives up what it owns and its registration; returns {@code REFUSED}. */
    private MemberPhase refuse(String error) {
        exit.refuse(error);
        return MemberPhase.REFUSED;
    }

    /**
     * The session was LOST: everything owned is reported lost, and the member moves to {@code SESSION_LOST}. Unless
     * an attempt that ran before this task (it was queued behind one) already registered the member in the session
     * that followed: then nothing it holds now was in the session that was lost.
     */
    void sessionLost() {
        if (session.registered() != 0 && session.registered() == liveSession()) {
            return;
        }
        if (!phases.phase().isTerminal()) {
            exit.loseEverything();
            phases.moveTo(MemberPhase.SESSION_LOST);
        }
    }

    /** The client's session now; 0 while it has none (connecting). */
    private long liveSession() {
        try {
            return registry.znodes().sessionId();
        } catch (RuntimeException connecting) {
            return 0;
        }
    }

    /** Stops hearing the member list's persistent watch on this client (no request). */
    void stopWatching() {
        memberList.stopWatching();
    }

    /** LEAVING: revokes what it owns (the listener commits), then deletes its owner znodes and registration. */
    void leave() {
        exit.leave();
    }

    /** HANDING_OVER: what it still owns in its session, for a successor. */
    Optional<SessionOwnership> releaseForHandOver() {
        return exit.releaseForHandOver();
    }

    private String serverGeneration() {
        try {
            return ServerCapabilities.of(client).label();
        } catch (RuntimeException unknown) {
            return "(unknown: " + unknown.getMessage() + ")";
        }
    }

    private static String describe(List<RebalanceCause> causes) {
        return causes.isEmpty() ? "(no visible change)"
                : causes.stream().map(RebalanceCause::describe).collect(Collectors.joining("; "));
    }
}
