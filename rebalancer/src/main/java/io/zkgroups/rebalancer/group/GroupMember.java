package io.zkgroups.rebalancer.group;

import com.google.common.collect.ImmutableList;
import io.zkgroups.rebalancer.assign.AssignmentRefusedException;
import io.zkgroups.rebalancer.assign.PartitionAssignor;
import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.server.ServerCapabilities;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.store.ClaimConflictException;
import io.zkgroups.registry.store.Listing;
import io.zkgroups.registry.store.Member;
import io.zkgroups.registry.store.MemberList;
import io.zkgroups.registry.store.PartitionOwner;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.WatcherRemoveCuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.Closeable;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * A member of a 0.8-style ZooKeeper consumer group, in the manner of a Curator recipe: {@link #start()},
 * {@link #close()}, and one serial event loop that owns all protocol state.
 * <p>
 * Watch events (members joining or leaving, partitions added, topics created), connection-state changes and
 * retries are coalesced into rebalance attempts: what arrives while one runs goes into the next (after the configured
 * debounce, none by default; a member leaving always at once). One attempt: read the group (the member list re-reads only
 * registrations that are new or changed; partition counts are kept while their watch is armed) → compute the whole
 * group's assignment (0.8.2.2-identical) → for partitions that move away: {@link MembershipListener#onRevoked}
 * (commit) → in one round trip, a transaction that deletes this session's owner znodes of what moved away, one that
 * claims the new partitions all-or-nothing, and what tells who still holds what could not be claimed (see
 * {@link io.zkgroups.registry.store.OwnerRegistry#releaseAndClaim}) → {@link MembershipListener#onAssigned}. Where the
 * owner directories' watches already say that previous owners hold part of the claim (ZooKeeper 3.6+,
 * {@link io.zkgroups.registry.store.OwnerRegistry#heldAmong}), the round trip only releases, and the claim waits.
 * Partitions it keeps are neither released nor re-claimed; 0.8.2.2 members only need an owner znode gone when they
 * are the ones assigned the partition, so this is wire-compatible.
 * <p>
 * It never gives up: failed attempts retry with capped exponential backoff and jitter; a claim blocked by previous
 * owners is sent the moment the last of their owner znodes is deleted (a watch), without reading the group again —
 * a membership change meanwhile would have woken it through the watch its read armed, however far the attempt got,
 * and makes it start over. Leaving deletes its owner znodes and its registration in one transaction, without
 * reading them first while the watches armed when they were read still vouch for them. Everything it
 * knows is in {@link #health()}, and {@link #addHealthListener} hears of every change.
 * <p>
 * Ownership is a lease on the ZooKeeper session ({@link SessionLease}): {@link #canDeliver()} is false as soon as
 * the session may have expired on the server, and on LOST or a new session every owned partition is reported
 * through {@link MembershipListener#onLost} (no commit), then the member registers again and rebalances.
 * <p>
 * Malformed registrations of other members are reported in {@link MemberHealth#malformedMembers()} and left out
 * of the assignment: their threads get nothing. That is safe next to 0.8.2.2 members (which fail every rebalance
 * while such a node exists, and so claim nothing): ownership is decided by owner znodes, so leaving a member out
 * can leave its would-be partitions to others but can never make two members own one partition.
 * <p>
 * <b>Note on threads.</b> Four kinds of thread touch a member, and each touches only what is named here:
 * <ul>
 *   <li>the <em>event loop</em> ({@code zkgroups-member-*}, one thread) owns all protocol state — the ledger
 *       ({@code OwnedPartitions}), the record, the previous-owner wait, the registrar, the hand-over, the view,
 *       {@code registeredSession}, {@code lastView}, {@code adoptable} — and is the only thread that builds and
 *       publishes {@link #health()}, except the closing thread once the loop has ended ({@link #close()});</li>
 *   <li>the <em>lease</em> thread ({@code zkgroups-lease-*}) beats {@link SessionLease}, which is thread-safe;</li>
 *   <li><em>Curator's event thread</em> runs the watchers and the connection listener: they mark the view stale
 *       ({@code ViewFreshness}, atomics), request attempts ({@code AttemptSchedule}, synchronized), and on LOST withdraw
 *       every grant at once ({@link OwnershipFence}, synchronized) and hand the rest to the loop;</li>
 *   <li><em>application threads</em> ({@link #start}, {@link #close}, {@link #handOff}, {@link #health}, {@link #owned},
 *       {@link #canDeliver}, {@link #reportUnreadable}, {@link #requestRebalance}) read only the state
 *       ({@code AtomicReference}), {@code closing} and {@code ownershipSession} (volatile), the published health, the
 *       fence and the lease, and hand anything else to the loop ({@code execute}/{@code submit}).</li>
 * </ul>
 * What crosses threads is either immutable (health values, the ledger's published snapshot) or guarded as said.
 * <p>
 * The event loop, the state machine and the attempt are here; they delegate the rest:
 * {@code OwnedPartitions} keeps what is owned and what is still to be released, {@code PreviousOwnerWait} the claim
 * that waits for previous owners, {@code GroupViewReader} what an attempt assigns from, {@code MemberRegistrar} joining
 * and registering, {@code OwnershipChanges} every change of what it owns (claimed, adopted, revoked, lost, handed to a
 * successor), keeping fence, ledger, listener and health in step,
 * {@code RebalanceRecord} what the attempts add up to, and {@code HealthPublisher} where {@link #health()} goes out.
 */
public final class GroupMember implements Closeable {

    private static final Logger LOG = LoggerFactory.getLogger(GroupMember.class);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

    private final GroupMemberConfig config;
    private final ConsumerId me;
    private final String group;
    private final WatcherRemoveCuratorFramework client;
    private final ZkRegistry registry;
    private final TopicMetadata topicMetadata;
    private final PartitionAssignor assignor;
    private final AssignmentMemo assignments;
    private final Backoff backoff;
    private final SessionLease lease;
    private final OwnershipFence fence;
    private final MemberList memberList;
    private final GroupViewReader viewReader;
    private final ScheduledExecutorService loop;
    /** The loop's thread, once it exists. */
    private volatile Thread loopThread;
    private final ScheduledExecutorService beats;
    private final AtomicReference<MemberState> state = new AtomicReference<>(MemberState.LATENT);
    private final Runnable onChange = () -> request(null);
    private static final RebalanceCause OWNER_LET_GO = new RebalanceCause.Retry("a partition's previous owner let go");
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

    // --- state confined to the event loop ------------------------------------------------------------
    private final OwnedPartitions ledger;
    private long registeredSession;
    private GroupView lastView;
    private final RebalanceRecord record = new RebalanceRecord();
    private final PreviousOwnerWait previousOwners;
    private final MemberRegistrar registrar;
    private final OwnershipChanges changes;
    /** Handed over by a previous process with the session this member starts in: adopted on registering. */
    private SessionOwnership adoptable;

    // --- scheduling and lifecycle (any thread: see the note on threads) ----------------------------------
    private final AttemptSchedule attempts;
    private volatile boolean closing;
    private volatile long ownershipSession;
    private final HealthPublisher health;

    /**
     * @param client        a started Curator client; the member adds watches and a connection listener to it
     *                      and removes them on close, but does not close it
     * @param layout        where the 0.8 layout lives
     * @param topicMetadata where topics and partition counts come from (usually {@link ZkTopicMetadata})
     * @param listener      told about revoked, lost and assigned partitions, on the member's event loop
     * @throws IllegalArgumentException if the assignment strategy is unknown
     */
    public GroupMember(CuratorFramework client, ZkLayout layout, GroupMemberConfig config,
                       TopicMetadata topicMetadata, MembershipListener listener) {
        Objects.requireNonNull(client, "client cannot be null");
        this.config = Objects.requireNonNull(config, "config cannot be null");
        this.me = config.consumerId();
        this.health = new HealthPublisher(me);
        this.group = config.group();
        this.assignor = PartitionAssignor.forStrategy(config.assignmentStrategy());
        this.assignments = new AssignmentMemo(assignor);
        this.client = client.newWatcherRemoveCuratorFramework();
        this.registry = new ZkRegistry(this.client, Objects.requireNonNull(layout, "layout cannot be null"));
        this.topicMetadata = Objects.requireNonNull(topicMetadata, "topicMetadata cannot be null");
        this.backoff = new Backoff(config.initialBackoff(), config.maxBackoff());
        this.lease = new SessionLease(client, config.leaseMargin());
        this.fence = new OwnershipFence(lease);
        this.memberList = registry.members().memberList(group);
        this.viewReader = new GroupViewReader(config, this.topicMetadata, onChange);
        this.ledger = new OwnedPartitions(registry.owners(), group);
        this.previousOwners = new PreviousOwnerWait(registry, group, () -> request(OWNER_LET_GO));
        this.changes = new OwnershipChanges(me, fence, Objects.requireNonNull(listener, "listener cannot be null"), ledger,
                registry.znodes(), this::publishHealth);
        this.registrar = new MemberRegistrar(registry, config, assignor, this.topicMetadata, this::staleRegistrationWait);
        this.loop = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = daemon("zkgroups-member-" + me).newThread(runnable);
            loopThread = thread;
            return thread;
        });
        this.beats = Executors.newSingleThreadScheduledExecutor(daemon("zkgroups-lease-" + me));
        this.attempts = new AttemptSchedule(loop, this::attempt);
        publishHealth();
    }

    /** A member reading topics from {@code /brokers/topics} of the same layout. */
    public static GroupMember onZooKeeper(CuratorFramework client, ZkLayout layout, GroupMemberConfig config,
                                          MembershipListener listener) {
        return new GroupMember(client, layout, config, new ZkTopicMetadata(new ZkRegistry(client, layout).topics()), listener);
    }

    /**
     * Takes up what a previous process of this consumer owned in the session this member's client resumed, before
     * {@link #start()}: if the registration and owner znodes are still that session's, the member adopts them without
     * writing anything (no other member sees a change); what is no longer there it claims or leaves as the assignment
     * says. Ignored if the client's session is another one by the time the member registers.
     */
    public void adopt(SessionOwnership handedOver) {
        if (state.get() != MemberState.LATENT) {
            throw new IllegalStateException("ownership can be adopted only before start (state " + state.get() + ")");
        }
        this.adoptable = Objects.requireNonNull(handedOver, "handedOver cannot be null");
    }

    /** Joins the group: registers and runs the first rebalance on the event loop. */
    public void start() {
        if (!state.compareAndSet(MemberState.LATENT, MemberState.REBALANCING)) {
            throw new IllegalStateException("a GroupMember can be started only once (state " + state.get() + ")");
        }
        client.getConnectionStateListenable().addListener(connectionListener);
        lease.start(beats);
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
        return me;
    }

    public String group() {
        return group;
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
        long session = ownershipSession;
        return session != 0 && lease.isValid() && lease.session() == session;
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
    public void reportUnreadable(String source, List<io.zkgroups.registry.store.Unreadable> unreadable) {
        if (health.reportUnreadable(source, unreadable)) {
            onLoop(this::publishHealth); // health reads the loop's state: built there
        }
    }

    /** Asks for a rebalance attempt soon (e.g. after a failed commit made the caller doubt its view). */
    public void requestRebalance(String reason) {
        request(new RebalanceCause.Retry(reason));
    }

    // --- scheduling ---------------------------------------------------------------------------------

    /** For the membership watcher: a field initialiser cannot name {@code config} before the constructor set it. */
    private Duration debounce() {
        return config.debounce();
    }

    private void request(RebalanceCause cause) {
        // The last awaited owner letting go is a single event that gathers nothing: claim at once.
        request(cause, cause == OWNER_LET_GO ? Duration.ZERO : config.debounce());
    }

    private void request(RebalanceCause cause, Duration delay) {
        request(cause, delay, cause != OWNER_LET_GO);
    }

    /** @param staleView whether what caused it means the next attempt must read the group again */
    private void request(RebalanceCause cause, Duration delay, boolean staleView) {
        if (closing) {
            return;
        }
        if (staleView) {
            freshness.markStale();
        }
        attempts.request(cause, delay);
    }

    // --- the rebalance attempt (event loop) -----------------------------------------------------------

    private void attempt() {
        List<RebalanceCause> causes = attempts.begin();
        if (closing || isTerminal()) {
            return;
        }
        record.saw(causes);
        boolean stale = freshness.takeStale();
        PreviousOwnerWait.Parked waited = previousOwners.takeParked();
        boolean ownersLetGoOnly = !stale && !causes.isEmpty() && causes.stream().allMatch(c -> c == OWNER_LET_GO);
        MemberList.Read leaveOnly = null;
        try {
            if (ownersLetGoOnly && waited != null && registeredSession != 0
                    && registry.znodes().sessionId() == registeredSession) {
                // Nothing but previous owners letting go since the last attempt read the group and released what
                // moved away: the rest of that attempt is its claim. (A membership change the view has not seen
                // would have made it stale through the watch that read armed.)
                claimAfterWait(waited.view(), waited.toClaim());
                return;
            }
            boolean joining = registeredSession == 0;
            ensureRegistered(causes);
            ledger.releaseUntracked();
            if (joining && !config.debounce().isZero()) {
                // Our registration is news to everyone: they react after their debounce and hold what we would get
                // until then. Read the group after ours, with whoever joined together with us.
                publishHealth();
                attempts.putBack(causes);
                request(null);
                return;
            }
            // A single leave is all that happened: act on it at once, read the group after (confirmLeaveOnly).
            leaveOnly = memberList.afterLeaveHeard().orElse(null);
            MemberList.Read read = leaveOnly != null ? leaveOnly : memberList.read(membershipWatcher);
            if (leaveOnly == null) {
                freshness.read(read.pzxid());
            }
            GroupView view = viewOf(read.listing());
            List<RebalanceCause> changes = view.changesSince(lastView);
            causes.addAll(changes);
            record.saw(changes);
            if (view.refused().contains(me)) {
                refuse("group " + group + " is full: " + config.maxGroupSize() + " members are allowed and "
                        + me + " registered after them (members: " + view.members().keySet() + ")");
                return;
            }
            Map<TopicAndPartition, ThreadId> target = assignments.assign(view.snapshot()).forConsumer(me).owners();
            if (state.get() == MemberState.STABLE && target.equals(ledger.owned()) && lastView != null
                    && view.snapshot().equals(lastView.snapshot())) {
                lastView = view; // nothing that matters changed
                record.unchanged();
                publishHealth();
                return;
            }
            setState(MemberState.REBALANCING);
            LOG.info("[{}] rebalancing: {}", me, describe(causes));
            revokeMovedAway(target);
            Map<TopicAndPartition, ThreadId> toClaim = new TreeMap<>(target);
            toClaim.keySet().removeAll(ledger.owned().keySet());
            checkNotClosing();
            PreviousOwnerWait.OwnerWait wait = previousOwners.newWait();
            Set<TopicAndPartition> stillHeld = registry.owners().heldAmong(group, toClaim.keySet(), wait).orElse(Collections.emptySet());
            if (!stillHeld.isEmpty()) {
                // Previous owners still hold part of it (the owner directories' watches say so): release what moved
                // away now and claim when they let go, rather than send a claim that must fail. Who holds what is
                // read for health and for how long to wait.
                ledger.releaseHandedOver();
                previousOwners.park(view, toClaim);
                waitForOwners(ClaimConflictException.notSent(group, registry.owners().owners(group, stillHeld, wait)),
                        view, wait);
                return;
            }
            // One round trip releases what moved away and, unless someone else still holds part of it, claims
            // what is new; the owner znodes it found held are watched.
            Map<TopicAndPartition, PartitionOwner> held;
            try {
                held = ledger.releaseAndClaim(me, toClaim, wait);
            } catch (RuntimeException e) {
                throw claimUnknown(toClaim, e);
            }
            if (!held.isEmpty()) {
                previousOwners.park(view, toClaim);
                waitForOwners(new ClaimConflictException(group, held), view, wait);
                return;
            }
            claimed(view, toClaim);
        } catch (ClaimConflictException e) {
            waitForOwners(e, null, null);
        } catch (ClosingException e) {
            // close() takes it from here
        } catch (AssignmentRefusedException e) {
            failed("the assignment cannot be computed: " + e.getMessage(), config.maxBackoff());
        } catch (GroupRefusedException e) {
            refuse(e.getMessage());
        } catch (RuntimeException | Error e) {
            Optional<KeeperException.NoAuthException> denied = ZooKeeperDenial.in(e);
            if (denied.isPresent()) {
                refuse(ZooKeeperDenial.explain(group, denied.get()));
                return;
            }
            if (UnimplementedRequest.in(e).isPresent()) {
                refuse(UnimplementedRequest.explain(serverGeneration(), e));
                return;
            }
            if (e instanceof Error) {
                LOG.error("[{}] rebalance attempt failed with an error (it will be retried)", me, e);
            }
            failed(e.getMessage() == null ? e.toString() : e.getMessage(), null);
        } finally {
            if (leaveOnly != null) {
                confirmLeaveOnly(leaveOnly);
            }
        }
    }

    /**
     * After an attempt that acted on a leave without reading the group ({@link MemberList#afterLeaveHeard}): the read
     * it skipped, which arms the listing's watch again, and another attempt if the group was not what it assumed.
     */
    private void confirmLeaveOnly(MemberList.Read assumed) {
        if (closing || isTerminal()) {
            return;
        }
        try {
            // the same leave's listing event, heard meanwhile, needs no other read: a claim left waiting for the
            // partitions' previous owners may then be sent as soon as they let go
            freshness.readBegins();
            MemberList.Read read = memberList.read(membershipWatcher);
            freshness.read(read.pzxid());
            if (!read.listing().equals(assumed.listing())) {
                request(new RebalanceCause.Retry("the group changed beside a member's leave"), Duration.ZERO);
            }
        } catch (RuntimeException e) {
            request(new RebalanceCause.Retry("the group could not be read after a leave: " + e.getMessage()),
                    backoff.delay(1));
        }
    }

    /** The end of an attempt whose owners were waited for: claims what it computed then, or waits again. */
    private void claimAfterWait(GroupView view, Map<TopicAndPartition, ThreadId> toClaim) {
        PreviousOwnerWait.OwnerWait wait = previousOwners.current();
        previousOwners.park(view, toClaim);
        if (wait != null && !wait.allGone()) {
            attempts.within(backoff.delay(Math.max(1, record.failures()))); // some still held: keep waiting (and the safety net)
            return;
        }
        checkNotClosing();
        try {
            registry.owners().claim(group, me, toClaim);
        } catch (ClaimConflictException takenMeanwhile) {
            waitForOwners(takenMeanwhile, view, null);
            return;
        } catch (RuntimeException e) {
            throw claimUnknown(toClaim, e);
        }
        previousOwners.unpark();
        claimed(view, toClaim);
    }

    /** A claim failed: unless it collided, it may have been applied (see {@link OwnedPartitions#claimMayHaveLanded}). */
    private RuntimeException claimUnknown(Map<TopicAndPartition, ThreadId> toClaim, RuntimeException e) {
        if (!(e instanceof ClaimConflictException)) {
            ledger.claimMayHaveLanded(toClaim);
        }
        return e;
    }

    /** {@code toClaim} is ours now: the attempt that computed {@code view} succeeded. */
    private void claimed(GroupView view, Map<TopicAndPartition, ThreadId> toClaim) {
        previousOwners.done();
        if (registry.znodes().sessionId() != registeredSession) {
            // The attempt outlived its session (it stalled, or the claim went out on the new one): what it computed
            // is not ours, and the listener never hears of it. Claims that landed in the current session are
            // released by the next attempt (or claimed again, if they are still ours to take).
            ledger.toRelease(toClaim.keySet());
            throw new IllegalStateException("session 0x" + Long.toHexString(registeredSession)
                    + " ended during the rebalance");
        }
        changes.gain(toClaim, registeredSession);
        succeeded(view);
    }

    private void ensureRegistered(List<RebalanceCause> causes) {
        long session = registry.znodes().sessionId(); // never 0: it throws while the client is connecting
        if (registeredSession != 0 && session != registeredSession) {
            RebalanceCause expired = new RebalanceCause.SessionExpired(registeredSession, session);
            causes.add(expired);
            record.saw(Collections.singletonList(expired));
            loseEverything();
            registeredSession = 0;
        }
        if (registeredSession != 0) {
            return;
        }
        SessionOwnership handedOver = adoptable;
        adoptable = null; // once: after an expiry the member joins as any other
        if (handedOver != null && handedOver.session() == session && adopted(handedOver)) {
            return;
        }
        registrar.checkCanJoin();
        registrar.register();
        registeredIn(session);
    }

    /** Registered in {@code session}: what it owns from now on is owned in that session. */
    private void registeredIn(long session) {
        registeredSession = session;
        ownershipSession = session;
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
        LOG.info("[{}] resumed session 0x{}: kept registration and partitions {}", me, Long.toHexString(session), held.keySet());
        changes.gain(held, session);
        return true;
    }

    /** How long to wait for a registration of a previous session of ours to go: one session timeout, plus slack. */
    private Duration staleRegistrationWait() {
        try {
            return Duration.ofMillis(client.getZookeeperClient().getZooKeeper().getSessionTimeout() + 1_000L);
        } catch (Exception e) {
            return Duration.ofSeconds(30);
        }
    }

    private GroupView viewOf(Listing<Member> listing) {
        if (listing.entries().stream().noneMatch(m -> m.id().equals(me))) {
            registeredSession = 0; // our registration is gone: register again on the next attempt
            throw new IllegalStateException("own registration " + registry.layout().member(group, me) + " disappeared");
        }
        GroupView view = viewReader.read(listing);
        if (!view.malformed().isEmpty() && !view.malformed().equals(record.malformed())) {
            LOG.warn("[{}] left out of the assignment, unreadable registrations: {}", me, view.malformed());
        }
        record.malformed(view.malformed());
        reportUnreadable("topics", ImmutableList.copyOf(view.unreadableTopics().values()));
        return view;
    }

    private void revokeMovedAway(Map<TopicAndPartition, ThreadId> target) {
        Set<TopicAndPartition> moving = ledger.movedAway(target);
        if (!moving.isEmpty()) {
            letGo(moving); // the commit happens here, before the release
        }
    }


    /** Waits for the holders of a claim that collided to let go (see {@link PreviousOwnerWait#awaitHolders}). */
    private void waitForOwners(ClaimConflictException conflict, GroupView view, PreviousOwnerWait.OwnerWait armed) {
        boolean holderAlive = previousOwners.awaitHolders(conflict, view, armed);
        // A registered holder is releasing right now: the watch wakes us. An unregistered one is a dead member
        // whose session has not ended yet: that is waiting, not failing, so do not escalate the backoff.
        String reason = "waiting for previous owners: " + conflict.getMessage();
        if (holderAlive) {
            failed(reason, null, true);
        } else {
            record.error(reason);
            publishHealth();
            attempts.within(config.maxBackoff());
        }
    }

    private void succeeded(GroupView view) {
        lastView = view;
        long generation = record.succeeded();
        setState(MemberState.STABLE);
        LOG.info("[{}] stable (generation {}): owns {}", me, generation, ledger.owned().keySet());
    }

    private void failed(String error, Duration fixedDelay) {
        failed(error, fixedDelay, false);
    }

    /** {@code routine}: part of every handover (a previous owner still releasing), logged at debug level only. */
    private void failed(String error, Duration fixedDelay, boolean routine) {
        int failures = record.failed(error);
        Duration delay = fixedDelay != null ? fixedDelay : backoff.delay(failures);
        if (routine) {
            LOG.debug("[{}] rebalance attempt {} waits, retrying in {} ms at the latest: {}", me, failures, delay.toMillis(), error);
        } else {
            LOG.info("[{}] rebalance attempt {} failed, retrying in {} ms: {}", me, failures,
                    delay.toMillis(), error);
        }
        publishHealth();
        attempts.within(delay);
    }

    private void refuse(String error) {
        LOG.error("[{}] {}", me, error);
        previousOwners.clearAwaited();
        record.error(error);
        if (!ledger.isEmpty()) {
            Set<TopicAndPartition> mine = ledger.ownedCopy();
            letGo(mine);
        }
        try {
            ledger.releaseHandedOver();
            registry.members().unregister(group, me);
        } catch (RuntimeException e) {
            LOG.warn("[{}] could not unregister after being refused: {}", me, e.getMessage());
        }
        registeredSession = 0;
        ownershipSession = 0;
        setState(MemberState.REFUSED);
    }

    /** Tells the listener to stop using {@code partitions} (see {@link OwnershipChanges#letGo}). */
    private boolean letGo(Set<TopicAndPartition> partitions) {
        return changes.letGo(partitions, canDeliver());
    }

    /** Everything owned may belong to someone else now: report it lost, without committing. */
    private void loseEverything() {
        ownershipSession = 0;
        previousOwners.clearAwaited();
        // unreleased stays: their znodes usually went with the session, but a claim or release retried by the
        // client on the new session may have left some there; the release reads them and deletes only ours
        changes.loseAll();
    }

    // --- connection state -------------------------------------------------------------------------------

    private void connectionChanged(CuratorFramework ignored, ConnectionState newState) {
        if (closing) {
            return;
        }
        switch (newState) {
            case LOST:
                lease.reset();
                fence.withdrawAll(); // now, not when the event loop gets to it: the application may be committing
                loop.execute(() -> {
                    if (!closing && !isTerminal()) {
                        loseEverything();
                        setState(MemberState.SESSION_LOST);
                    }
                });
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
     * registration, and stops. Returns promptly even during a rebalance: attempts check for close between steps.
     */
    @Override
    public void close() {
        MemberState previous = state.getAndSet(MemberState.CLOSED);
        if (previous == MemberState.CLOSED) {
            return;
        }
        closing = true;
        attempts.stop();
        if (previous != MemberState.LATENT) {
            Future<?> leaving = loop.submit(this::leave);
            try {
                leaving.get(CLOSE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | TimeoutException e) {
                LOG.warn("[{}] leaving the group did not finish cleanly: {}", me, e.toString());
            }
        }
        stop(true);
    }

    /**
     * Stops for a restart without leaving: withdraws every grant of the fence (no hand-out or commit passes from now
     * on), waits for commits already authorised, deletes only the owner znodes of partitions it had handed over
     * already, and returns what it still owns in its session, for a successor that resumes the session. Its
     * registration and owner znodes stay as they are. Empty if it owns nothing in a live session (never started, not
     * registered, or closed already).
     */
    public Optional<SessionOwnership> handOff() {
        MemberState previous = state.getAndSet(MemberState.CLOSED);
        if (previous == MemberState.CLOSED) {
            return Optional.empty();
        }
        closing = true;
        fence.withdrawAll(); // at once, not when the event loop gets to it
        attempts.stop();
        Optional<SessionOwnership> handedOver = Optional.empty();
        if (previous != MemberState.LATENT) {
            try {
                handedOver = loop.submit(this::releaseForHandOff).get(CLOSE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | TimeoutException e) {
                LOG.warn("[{}] stopping for the hand-over did not finish cleanly: {}", me, e.toString());
            }
        }
        stop(false); // the connection is about to be dropped: its watches go with it, nothing to send
        return handedOver;
    }

    private Optional<SessionOwnership> releaseForHandOff() {
        Optional<SessionOwnership> result = changes.releaseForHandOff(registeredSession);
        registeredSession = 0;
        ownershipSession = 0;
        return result;
    }

    private void stop(boolean removeWatches) {
        loop.shutdownNow();
        awaitLoopEnd(); // from here on this thread may read the loop's state (the last health below)
        beats.shutdownNow();
        lease.close();
        client.getConnectionStateListenable().removeListener(connectionListener);
        if (removeWatches) {
            registry.owners().stopWatching(); // persistent watches: removeWatchers() forgets them once they fired
            if (serverHasWatchRemoval()) { // a 3.4 server would close the connection on checkWatches
                client.removeWatchers();
            }
        }
        publishHealth();
    }

    private String serverGeneration() {
        try {
            return ServerCapabilities.of(client).label();
        } catch (RuntimeException unknown) {
            return "(unknown: " + unknown.getMessage() + ")";
        }
    }

    private boolean serverHasWatchRemoval() {
        try {
            return ServerCapabilities.of(client).hasWatchRemoval();
        } catch (RuntimeException unknown) {
            return false; // its watches end with the session anyway
        }
    }

    private void leave() {
        previousOwners.clearAwaited();
        try {
            if (!ledger.isEmpty()) {
                Set<TopicAndPartition> mine = ledger.ownedCopy();
                boolean revoked = letGo(mine);
                if (!revoked) {
                    ledger.keepUntilSessionEnds(mine); // as before: a lost partition's znode is left to the session's end
                }
            }
            if (registeredSession != 0) {
                // one transaction; no read first when our watches vouch for the registration and the claims
                ledger.releaseAndUnregister(me, registeredSession, memberList.vouchesFor(me, registeredSession));
            } else {
                ledger.releaseHandedOver();
            }
        } catch (RuntimeException e) {
            LOG.warn("[{}] error while leaving group {} (the session's end will clean up): {}", me, group, e.getMessage());
        } finally {
            registeredSession = 0;
            ownershipSession = 0;
        }
    }

    // --- helpers -------------------------------------------------------------------------------------------

    private void checkNotClosing() {
        if (closing) {
            throw new ClosingException();
        }
    }

    /** Runs {@code task} on the event loop, unless it has stopped (then the member's health is final already). */
    private void onLoop(Runnable task) {
        try {
            loop.execute(task);
        } catch (java.util.concurrent.RejectedExecutionException stopped) {
            // closed: stop() published the last health
        }
    }

    private void awaitLoopEnd() {
        if (Thread.currentThread() == loopThread) {
            return; // closed from a callback on the loop itself: nothing else runs on it
        }
        try {
            if (!loop.awaitTermination(CLOSE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warn("[{}] the event loop did not stop within {}", me, CLOSE_TIMEOUT);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private boolean isTerminal() {
        MemberState s = state.get();
        return s == MemberState.CLOSED || s == MemberState.REFUSED;
    }

    private void setState(MemberState newState) {
        state.getAndUpdate(current -> current == MemberState.CLOSED || current == MemberState.REFUSED ? current : newState);
        publishHealth();
    }

    private void publishHealth() {
        health.publish(() -> {
            SortedSet<TopicAndPartition> ownedSnapshot = ledger.snapshot();
            List<io.zkgroups.registry.store.Unreadable> alarms = health.alarms();
            return record.health(state.get(), ownedSnapshot, alarms, previousOwners);
        });
    }

    private static String describe(List<RebalanceCause> causes) {
        return causes.isEmpty() ? "(no visible change)" : String.join("; ", causes.stream().map(RebalanceCause::describe).collect(Collectors.toList()));
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }

    /** Thrown inside an attempt when close() has begun. */
    private static final class ClosingException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ClosingException() {
            super("closing", null, false, false);
        }
    }
}
