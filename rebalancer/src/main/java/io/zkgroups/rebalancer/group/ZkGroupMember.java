package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.Time;
import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.server.ServerCapabilities;
import io.zkgroups.registry.store.Unreadable;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.WatcherRemoveCuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.zookeeper.Watcher;

import java.io.Closeable;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * A member of a 0.8-style ZooKeeper consumer group, in the manner of a Curator recipe: {@link #start()},
 * {@link #close()}, and one serial event loop that owns all protocol state.
 * <p>
 * Watch events (members joining or leaving, partitions added, topics created), connection-state changes and retries
 * are coalesced into rebalance attempts: what arrives while one runs goes into the next (after the configured
 * debounce, none by default; a member leaving always at once). One attempt goes through these {@link MemberPhase}s,
 * each a step of {@link MemberProtocol}, moved only by {@link PhaseMachine}:
 * <ol>
 *   <li>{@code JOINING}: registers in the current session, or adopts the registration handed over with it
 *       ({@link #adopt});</li>
 *   <li>{@code READING}: reads the group (the member list re-reads only registrations that are new or changed;
 *       partition counts are kept while their watch is armed) and computes the whole group's assignment
 *       (0.8.2.2-identical); nothing changes unless something that matters did;</li>
 *   <li>{@code REVOKING}: partitions that move away go to {@link MembershipListener#onRevoked} (the commit);</li>
 *   <li>{@code CLAIMING}: one round trip with a transaction that deletes this session's owner znodes of what moved
 *       away, one that claims the new partitions all-or-nothing, and what tells who still holds what could not be
 *       claimed ({@link io.zkgroups.registry.store.OwnerRegistry#releaseAndClaim}); where the owner directories'
 *       watches already say that previous owners hold part of the claim (ZooKeeper 3.6+,
 *       {@link io.zkgroups.registry.store.OwnerRegistry#heldAmong}), the round trip only releases;</li>
 *   <li>{@code AWAITING_OWNERS}: a claim blocked by previous owners is sent the moment the last of their owner znodes
 *       is deleted (a watch), without reading the group again; a membership change meanwhile wakes it through the
 *       watch its read armed and makes it start over;</li>
 *   <li>{@code STABLE}: {@link MembershipListener#onAssigned} heard of the new partitions; {@link #health()} shows
 *       {@link MemberState#STABLE}.</li>
 * </ol>
 * Partitions it keeps are neither released nor re-claimed; 0.8.2.2 members only need an owner znode gone when they
 * are the ones assigned the partition, so this is wire-compatible. Failed attempts retry with capped exponential
 * backoff and jitter: it never gives up. The phases that end it are {@code SESSION_LOST} (on LOST or a new session,
 * every owned partition is reported through {@link MembershipListener#onLost}, no commit, then it registers again),
 * {@code REFUSED}, {@code LEAVING} ({@link #close()}: one transaction deletes its owner znodes and its registration,
 * without reading them first while the watches armed when they were read still vouch for them), {@code HANDING_OVER}
 * ({@link #handOver()}) and {@code CLOSED}. {@link MemberHealth#state()} shows the coarser {@link MemberState};
 * {@link #addHealthListener} hears of every change.
 * <p>
 * Ownership is a lease on the ZooKeeper session ({@link SessionLease}): {@link #canDeliver()} is false as soon as the
 * session may have expired on the server.
 * <p>
 * Malformed registrations of other members are reported in {@link MemberHealth#malformedMembers()} and left out
 * of the assignment: their threads get nothing. That is safe next to 0.8.2.2 members (which fail every rebalance
 * while such a node exists, and so claim nothing): ownership is decided by owner znodes, so leaving a member out
 * can leave its would-be partitions to others but can never make two members own one partition.
 * <p>
 * <b>Note on threads.</b> Four kinds of thread touch a member, and each touches only what is named here:
 * <ul>
 *   <li>the <em>event loop</em> ({@code zkgroups-member-*}, one thread, {@code MemberThreads}) runs
 *       {@link MemberProtocol}, which owns all protocol state — the ledger ({@code OwnedPartitions}), the record, the
 *       previous-owner wait, the registrar, the last view, the registered session and the adoptable hand-over
 *       ({@code MemberSession}) — and is the only thread that builds and publishes {@link #health()}, except the
 *       closing thread once the loop has ended ({@link #close()});</li>
 *   <li>the <em>lease</em> thread ({@code zkgroups-lease-*}, {@code MemberThreads}) beats {@link SessionLease}, which
 *       is thread-safe;</li>
 *   <li><em>Curator's event thread</em> runs the watchers and the connection listener: they mark the view stale
 *       ({@code ViewFreshness}, atomics), request attempts ({@code AttemptSchedule}, synchronized), and on LOST withdraw
 *       every grant at once ({@link OwnershipFence}, synchronized) and hand the rest to the loop;</li>
 *   <li><em>application threads</em> ({@link #start}, {@link #adopt}, {@link #close}, {@link #handOver}, {@link #health},
 *       {@link #owned}, {@link #canDeliver}, {@link #reportUnreadable}, {@link #requestRebalance}) read the phase and
 *       move it only to start or end the member ({@code PhaseMachine}, compare-and-set), read the owning session
 *       ({@code MemberSession}, volatile), the published health, the fence and the lease, and hand anything else to
 *       the loop ({@code MemberThreads}); {@link #adopt} hands its value over before the loop starts.</li>
 * </ul>
 * What crosses threads is either immutable (health values, the ledger's published snapshot) or guarded as said.
 */
public final class ZkGroupMember implements Closeable {

    private final MemberContext member;
    private final GroupMemberConfig config;
    private final WatcherRemoveCuratorFramework client;
    private final ZkRegistry registry;
    private final SessionLease lease;
    private final OwnershipFence fence;
    /** The event loop and the lease's beats. */
    private final MemberThreads threads;
    private final PhaseMachine phases;
    private final ViewFreshness freshness = new ViewFreshness();
    private final Watcher membershipWatcher = event -> {
        if (event.getType() == Watcher.Event.EventType.None) {
            return;
        }
        freshness.heard(event);
        // A member left (its registration's data watch): nothing is gained by gathering more events, and whoever
        // gets its partitions waits for us. Other changes wait for the configured debounce, if any.
        request(null, event.getType() == Watcher.Event.EventType.NodeDeleted ? Duration.ZERO : debounce(), false);
    };
    private final ConnectionStateListener connectionListener = this::connectionChanged;
    private final AttemptSchedule attempts;
    private final HealthPublisher health;
    /** Publishes the member's alarms for the tools. */
    private final AlarmPublisher alarms;
    /** The protocol state and the attempt: the event loop's (see the note on threads). */
    private final MemberProtocol protocol;
    /** Told of every phase move (tests, diagnostics). */
    private final List<PhaseMachine.Hook> phaseListeners = new CopyOnWriteArrayList<>();

    /**
     * @param client        a started Curator client; the member adds watches and a connection listener to it
     *                      and removes them on close, but does not close it
     * @param layout        where the 0.8 layout lives
     * @param topicMetadata where topics and partition counts come from (usually {@link ZkTopicMetadata})
     * @param listener      told about revoked, lost and assigned partitions, on the member's event loop
     * @throws IllegalArgumentException if the assignment strategy is unknown
     */
    public ZkGroupMember(CuratorFramework client, ZkLayout layout, GroupMemberConfig config,
                       TopicMetadata topicMetadata, MembershipListener listener) {
        this(client, layout, config, topicMetadata, listener, Time.SYSTEM);
    }

    /** As above, reading {@code time} wherever the member reads the clock (lease, commit deadlines, attempts, timestamps). */
    public ZkGroupMember(CuratorFramework client, ZkLayout layout, GroupMemberConfig config,
                       TopicMetadata topicMetadata, MembershipListener listener, Time time) {
        Objects.requireNonNull(client, "client cannot be null");
        this.config = Objects.requireNonNull(config, "config cannot be null");
        this.member = new MemberContext(config, Objects.requireNonNull(time, "time cannot be null"));
        this.health = new HealthPublisher(member);
        this.client = client.newWatcherRemoveCuratorFramework();
        this.registry = new ZkRegistry(this.client, Objects.requireNonNull(layout, "layout cannot be null"), time);
        this.lease = new SessionLease(client, config.leaseMargin(), time);
        this.fence = new OwnershipFence(lease, time);
        this.threads = new MemberThreads(member);
        this.phases = new PhaseMachine(member, this::phaseMoved);
        this.attempts = new AttemptSchedule(threads.loop(), this::attempt, time);
        this.protocol = new MemberProtocol(member, registry,
                Objects.requireNonNull(topicMetadata, "topicMetadata cannot be null"), lease, fence,
                Objects.requireNonNull(listener, "listener cannot be null"), phases, attempts, freshness,
                membershipWatcher, this::publishHealth, this::reportUnreadable);
        this.alarms = new AlarmPublisher(member, registry.memberAlarms(), registry.znodes());
        health.addListener(alarms);
        publishHealth();
    }

    /** A member reading topics from {@code /brokers/topics} of the same layout. */
    public static ZkGroupMember onZooKeeper(CuratorFramework client, ZkLayout layout, GroupMemberConfig config,
                                          MembershipListener listener) {
        return new ZkGroupMember(client, layout, config, new ZkTopicMetadata(new ZkRegistry(client, layout).topics()), listener);
    }

    /**
     * Takes up what a previous process of this consumer owned in the session this member's client resumed, before
     * {@link #start()}: if the registration and owner znodes are still that session's, the member adopts them without
     * writing anything (no other member sees a change); what is no longer there it claims or leaves as the assignment
     * says. Ignored if the client's session is another one by the time the member registers.
     */
    public void adopt(SessionOwnership handedOver) {
        if (phases.phase() != MemberPhase.LATENT) {
            throw new IllegalStateException("ownership can be adopted only before start (state " + phases.shown() + ")");
        }
        protocol.adopt(Objects.requireNonNull(handedOver, "handedOver cannot be null"));
        alarms.forgetWritten();
    }

    /** Joins the group: registers and runs the first rebalance on the event loop. */
    public void start() {
        if (phases.move(current -> current == MemberPhase.LATENT ? MemberPhase.JOINING : null) == null) {
            throw new IllegalStateException("a ZkGroupMember can be started only once (state " + phases.shown() + ")");
        }
        client.getConnectionStateListenable().addListener(connectionListener);
        lease.start(threads.beats());
        request(new RebalanceCause.Started(), Duration.ZERO); // nothing to gather yet: join at once
    }

    /** The member's health, as of its last step. */
    public MemberHealth health() {
        return health.current();
    }

    /**
     * Calls {@code listener} with every new {@link #health()} value, in order, on the thread that changed it
     * (the event loop, or the one calling {@link #close()}). It must return quickly and not call back into the
     * member: the rebalance waits for it. Exceptions it throws are logged and ignored.
     */
    public void addHealthListener(Consumer<MemberHealth> listener) {
        health.addListener(listener);
    }

    public void removeHealthListener(Consumer<MemberHealth> listener) {
        health.removeListener(listener);
    }

    public ConsumerId consumerId() {
        return member.me();
    }

    public String group() {
        return member.group();
    }

    /** Partitions owned now (a snapshot). */
    public Set<TopicAndPartition> owned() {
        return health.current().owned();
    }

    /**
     * True while this member may hand out records of what it owns: the ownership was established in the
     * session whose lease is still valid.
     */
    public boolean canDeliver() {
        return protocol.canDeliver();
    }

    /**
     * The fence every hand-out and commit of this member's partitions must pass: it knows what the member owns now,
     * in which session, and whether that session's lease holds.
     */
    public OwnershipFence fence() {
        return fence;
    }

    /** The ownership lease, for callers that need its remaining time. */
    public SessionLease lease() {
        return lease;
    }

    /**
     * Reports the znodes that {@code source} (e.g. {@code "offsets"}) cannot read now, replacing what it reported
     * before; they show in {@link MemberHealth#unreadable()}. An empty list clears the alarm.
     */
    public void reportUnreadable(String source, List<Unreadable> unreadable) {
        if (health.reportUnreadable(source, unreadable)) {
            threads.onLoop(this::publishHealth); // health reads the loop's state: built there (none once stopped)
        }
    }

    /** Asks for a rebalance attempt soon (e.g. after a failed commit made the caller doubt its view). */
    public void requestRebalance(String reason) {
        request(new RebalanceCause.Retry(reason));
    }

    /** The phase it is in now (a diagnostic; {@link #health()} shows the state). */
    MemberPhase phase() {
        return phases.phase();
    }

    /** Tells {@code listener} of every phase move from now on, on the thread that made it (a DEBUG-level hook). */
    void addPhaseListener(PhaseMachine.Hook listener) {
        phaseListeners.add(Objects.requireNonNull(listener, "listener cannot be null"));
    }

    // --- scheduling ---------------------------------------------------------------------------------

    /** For the membership watcher: a field initialiser cannot name {@code config} before the constructor set it. */
    private Duration debounce() {
        return config.debounce();
    }

    private void request(RebalanceCause cause) {
        request(cause, config.debounce());
    }

    private void request(RebalanceCause cause, Duration delay) {
        request(cause, delay, true);
    }

    /** @param staleView whether what caused it means the next attempt must read the group again */
    private void request(RebalanceCause cause, Duration delay, boolean staleView) {
        if (phases.phase().isEnding()) {
            return;
        }
        if (staleView) {
            freshness.markStale();
        }
        attempts.request(cause, delay);
    }

    /** On the event loop: one rebalance attempt. */
    private void attempt() {
        protocol.attempt();
    }

    // --- connection state -------------------------------------------------------------------------------

    private void connectionChanged(CuratorFramework ignored, ConnectionState newState) {
        if (phases.phase().isEnding()) {
            return;
        }
        switch (newState) {
            case LOST:
                lease.reset();
                fence.withdrawAll(); // now, not when the event loop gets to it: the application may be committing
                threads.execute(protocol::sessionLost);
                request(null);
                break;
            case RECONNECTED:
                lease.beat();
                request(new RebalanceCause.Reconnected());
                break;
            default:
                // SUSPENDED: keep going while the lease holds (canDeliver() says when it does not)
                break;
        }
    }

    // --- lifecycle ---------------------------------------------------------------------------------------

    /**
     * Leaves the group: revokes what it owns (so the listener commits), deletes its owner znodes and its
     * registration, and stops. Returns promptly even during a rebalance: attempts check for close between phases.
     */
    @Override
    public void close() {
        leave(true);
    }

    /**
     * {@link #close()} for an owner that closes the member's client right after (as {@code ZkGroupConsumer} does): the
     * member's watches end with the client's session, so none is removed on the server first, requests the closing
     * process would wait for.
     */
    public void closeBeforeClient() {
        leave(false);
    }

    private void leave(boolean removeWatches) {
        MemberPhase previous = end(MemberPhase.LEAVING);
        if (previous == null) {
            return;
        }
        attempts.stop();
        if (previous != MemberPhase.LATENT) {
            threads.call(() -> {
                protocol.leave();
                return null;
            }, "leaving the group");
        }
        stop(removeWatches);
    }

    /**
     * Stops for a restart without leaving: withdraws every grant of the fence (no hand-out or commit passes from now
     * on), waits for commits already authorised, deletes only the owner znodes of partitions it had let go of
     * already, and returns what it still owns in its session, for a successor that resumes the session. Its
     * registration and owner znodes stay as they are. Empty if it owns nothing in a live session (never started, not
     * registered, or closed already).
     */
    public Optional<SessionOwnership> handOver() {
        MemberPhase previous = end(MemberPhase.HANDING_OVER);
        if (previous == null) {
            return Optional.empty();
        }
        fence.withdrawAll(); // at once, not when the event loop gets to it
        attempts.stop();
        Optional<SessionOwnership> handedOver = Optional.empty();
        if (previous != MemberPhase.LATENT) {
            handedOver = threads.call(protocol::releaseForHandOver, "stopping for the hand-over")
                    .orElse(Optional.<SessionOwnership>empty());
        }
        stop(false); // the connection is about to be dropped: its watches go with it, nothing to send
        return handedOver;
    }

    /** Moves to {@code ending} (CLOSED if never started); returns the phase it left, null if it was ending already. */
    private MemberPhase end(MemberPhase ending) {
        return phases.move(current -> current.isEnding() ? null
                : current == MemberPhase.LATENT ? MemberPhase.CLOSED : ending);
    }

    private void stop(boolean removeWatches) {
        threads.stop(); // from here on this thread may read the loop's state (the last health below)
        lease.close();
        client.getConnectionStateListenable().removeListener(connectionListener);
        if (removeWatches) {
            registry.owners().stopWatching(); // persistent watches: removeWatchers() forgets them once they fired
            protocol.stopWatching();
            // a 3.4 server would close the connection on checkWatches; with no connection there is nothing to tell the
            // server (Curator would log the failed background removal as an error), and the watches go with the session
            if (client.getZookeeperClient().isConnected() && serverHasWatchRemoval()) {
                client.removeWatchers();
            }
        }
        phases.moveTo(MemberPhase.CLOSED);
        publishHealth();
        alarms.close();
    }

    private boolean serverHasWatchRemoval() {
        try {
            return ServerCapabilities.of(client).hasWatchRemoval();
        } catch (RuntimeException unknown) {
            return false; // its watches end with the session anyway
        }
    }

    // --- helpers -------------------------------------------------------------------------------------------

    /**
     * The one hook of the phase machine, for what is not the protocol: health goes out when the loop enters a phase
     * with a state of its own (the closing thread publishes the last one itself), and phase listeners hear of it.
     */
    private void phaseMoved(MemberPhase from, MemberPhase to) {
        if (to.showsOwnState() && threads.isLoop(Thread.currentThread())) {
            publishHealth();
        }
        for (PhaseMachine.Hook listener : phaseListeners) {
            try {
                listener.moved(from, to);
            } catch (RuntimeException e) {
                member.log().warn("phase listener {} failed: {}", listener, e.toString());
            }
        }
    }

    private void publishHealth() {
        health.publish(() -> protocol.health(phases.shown(), health.alarms()));
    }
}
