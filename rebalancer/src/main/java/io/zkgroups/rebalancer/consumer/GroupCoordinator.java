package io.zkgroups.rebalancer.consumer;

import io.zkgroups.rebalancer.group.GroupMemberConfig;
import io.zkgroups.rebalancer.group.MemberHealth;
import io.zkgroups.rebalancer.group.MemberState;
import io.zkgroups.rebalancer.group.OwnershipFence;
import io.zkgroups.rebalancer.group.SessionOwnership;
import io.zkgroups.rebalancer.group.TopicMetadata;
import io.zkgroups.rebalancer.group.ZkGroupMember;
import io.zkgroups.rebalancer.metrics.ConsumerMetrics;
import io.zkgroups.rebalancer.offsets.OffsetLookup;
import io.zkgroups.rebalancer.offsets.OffsetStore;
import io.zkgroups.registry.Time;
import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.Subscription;
import io.zkgroups.registry.model.TopicAndPartition;
import org.apache.curator.framework.CuratorFramework;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.utils.LogContext;
import org.slf4j.Logger;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.BlockingDeque;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * The group side of a {@link ZkGroupConsumer} (the counterpart of Kafka's {@code ConsumerCoordinator}): the
 * {@link ZkGroupMember} behind a subscription, the ownership events it sends ({@link RebalanceRelay}), and the
 * application's rebalance callbacks, run on the poll thread. Each event is carried out on the
 * {@link SubscriptionState} (grants, held partitions), the {@link PartitionFetcher} (what is fetched, from where) and
 * the {@link OffsetCommitter} (the commit before a revocation).
 * <p>
 * <b>Note on threading.</b> Everything here runs on the thread inside the consumer (its single-thread guard), except:
 * the event queue, which the member's event loop fills ({@link RebalanceRelay}) and {@link #wake} may fill from any
 * thread (a {@link LinkedBlockingDeque}); {@code member}, volatile, written here and read by {@link #member()} callers
 * on any thread ({@code enforceRebalance}, {@code groupHealth}). The member and its fence are thread-safe themselves.
 */
final class GroupCoordinator {

    /** This consumer's log: every line starts with its id. */
    private final Logger log;

    private final Time time;
    private final ZkConsumerConfig config;
    private final ConsumerId consumerId;
    private final CuratorFramework curator;
    private final TopicMetadata topicMetadata;
    private final OffsetStore store;
    private final SubscriptionState state;
    private final PartitionFetcher<?, ?> fetcher;
    private final OffsetCommitter committer;
    private final ConsumerMetrics metrics;
    private final BlockingDeque<RebalanceEvent> events = new LinkedBlockingDeque<>();
    /** Lookups of held partitions' offsets, off this thread. */
    private final HeldOffsetLookups heldLookups;

    private volatile ZkGroupMember member;
    private RebalanceRelay bridge;
    /** Handed over by the previous process with the session this consumer resumed: adopted by the first join. */
    private SessionOwnership resumed;
    /** What {@link #reportKafka} told the member last. */
    private KafkaReachability.Snapshot reportedKafka = KafkaReachability.Snapshot.REACHABLE;

    GroupCoordinator(ZkConsumerConfig config, ConsumerId consumerId, CuratorFramework curator, TopicMetadata topicMetadata,
                     OffsetStore store, SubscriptionState state, PartitionFetcher<?, ?> fetcher, OffsetCommitter committer,
                     ConsumerMetrics metrics, Time time) {
        this.time = time;
        this.config = config;
        this.consumerId = consumerId;
        this.log = new LogContext("[" + consumerId + "] ").logger(GroupCoordinator.class);
        this.curator = curator;
        this.topicMetadata = topicMetadata;
        this.store = store;
        this.state = state;
        this.fetcher = fetcher;
        this.committer = committer;
        this.metrics = metrics;
        this.heldLookups = new HeldOffsetLookups(store, config.groupId(), config.rebalanceKafkaTimeout(),
                "zkgroups-offset-lookup-" + consumerId);
    }

    /** The first {@link #join} adopts {@code ownership} instead of claiming it again (a restart by session hand-over). */
    void resumeOnJoin(SessionOwnership ownership) {
        this.resumed = ownership;
    }

    // --- membership ---------------------------------------------------------------------------------------------

    /**
     * Registers {@code sub} and starts a member for it. A consumer already subscribed first leaves (revoking
     * everything, within {@code leaveDeadline}): a new subscription is a new registration.
     */
    void join(Subscription sub, Set<String> topics, Pattern pattern, ConsumerRebalanceListener listener,
              Deadline leaveDeadline) {
        if (member != null) {
            leave(leaveDeadline);
        }
        GroupMemberConfig memberConfig = config.memberConfig(consumerId, sub);
        bridge = new RebalanceRelay(events, config.revokeTimeout(), fetcher::news, metrics, time);
        ZkGroupMember joining = new ZkGroupMember(curator, ZkLayout.root(), memberConfig, topicMetadata, bridge, time);
        bridge.attach(joining.fence());
        state.subscribe(sub, topics, pattern, listener, joining.fence());
        member = joining;
        reportedKafka = KafkaReachability.Snapshot.REACHABLE;
        metrics.attach(joining);
        committer.restartTimers();
        if (resumed != null) {
            joining.adopt(resumed);
            resumed = null;
        }
        joining.start();
    }

    /**
     * Revokes everything on this thread (listener, commit by {@code deadline}), then lets the member release and
     * unregister.
     */
    void leave(Deadline deadline) {
        leave(deadline, false);
    }

    /** {@link #leave}, for a consumer that closes its ZooKeeper client next: the member's watches end with it. */
    void leaveBeforeClosing(Deadline deadline) {
        leave(deadline, true);
    }

    private void leave(Deadline deadline, boolean clientClosing) {
        if (member == null) {
            return;
        }
        try {
            processEvents(false, deadline);
            SortedSet<TopicPartition> assigned = state.assigned();
            if (!assigned.isEmpty()) {
                revoke(assigned, deadline);
            }
        } finally {
            // a failing listener (or a wakeup) must not leave the member running after the consumer closed
            bridge.pollThreadGone();
            if (clientClosing) {
                member.closeBeforeClient();
            } else {
                member.close();
            }
            forgetMember();
        }
    }

    /**
     * Stops for a restart on this thread: no more hand-outs, the application's {@code onPartitionsRevoked} and the
     * commit of what was handed out (by {@code deadline}), then the member withdraws every grant and stops without
     * leaving. Returns what the member still owns in its session (empty if not subscribed, or if the session is not
     * alive).
     */
    Optional<SessionOwnership> handOver(Deadline deadline) {
        if (member == null) {
            return Optional.empty();
        }
        processEvents(false, deadline);
        member.fence().beginRevoke(member.owned()); // no more hand-outs; the revoke's commit may still pass
        SortedSet<TopicPartition> assigned = state.assigned();
        if (!assigned.isEmpty()) {
            revoke(assigned, deadline);
        }
        bridge.pollThreadGone();
        Optional<SessionOwnership> handedOver = member.handOver();
        forgetMember();
        return handedOver;
    }

    /** After the member left or handed its session off: no member, no subscription, no events for it. */
    private void forgetMember() {
        heldLookups.close();
        metrics.detach(member);
        for (Iterator<RebalanceEvent> it = events.iterator(); it.hasNext(); ) {
            if (!(it.next() instanceof RebalanceEvent.Wakeup)) {
                it.remove();
            }
        }
        member = null;
        bridge = null;
        state.unsubscribe();
    }

    /** The subscription the member registered (null when not subscribed). */
    Subscription registeredSubscription() {
        return member == null ? null : state.registered();
    }

    boolean subscribed() {
        return member != null;
    }

    /** The member behind the subscription, null when not subscribed. Any thread. */
    ZkGroupMember member() {
        return member;
    }

    /** Throws if the group refused this member; it will not own anything. */
    void checkMember() {
        MemberHealth health = member.health();
        if (health.state() == MemberState.REFUSED) {
            throw new KafkaException("consumer " + consumerId + " was refused by group " + config.groupId() + ": "
                    + health.lastError().orElse("(no reason given)"));
        }
    }

    // --- events -------------------------------------------------------------------------------------------------

    /** Wakes a poll waiting in {@link #awaitEvent}. Any thread. */
    void wake() {
        events.add(new RebalanceEvent.Wakeup());
    }

    /** Drops pending wake-ups: the wakeup they were for has been delivered. */
    void clearWakeups() {
        for (Iterator<RebalanceEvent> it = events.iterator(); it.hasNext(); ) {
            if (it.next() instanceof RebalanceEvent.Wakeup) {
                it.remove();
            }
        }
    }

    /** Waits up to {@code nanos} for an event, leaving it queued. */
    void awaitEvent(long nanos) {
        try {
            RebalanceEvent event = events.pollFirst(nanos, TimeUnit.NANOSECONDS);
            if (event != null) {
                events.addFirst(event);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptException(e);
        }
    }

    /**
     * Processes the ownership changes the member sent, in order, and retries held partitions that are due. Returns
     * whether a wakeup was among the events.
     */
    boolean processEvents() {
        return processEvents(true, null);
    }

    /**
     * {@code assigning}: false while leaving (new partitions are not taken up). A revocation's commit has until the
     * member stops waiting for it, and until {@code bound} if not null.
     */
    private boolean processEvents(boolean assigning, Deadline bound) {
        boolean wakeup = false;
        KafkaException callbackError = null;
        RebalanceEvent event;
        while ((event = events.pollFirst()) != null) {
            try {
                if (event instanceof RebalanceEvent.Revoke) {
                    RebalanceEvent.Revoke revoke = (RebalanceEvent.Revoke) event;
                    if (revoke.done().isDone()) {
                        lose(revoke.partitions()); // the member stopped waiting for us: they are gone already
                    } else {
                        try {
                            revoke(revoke.partitions(), bound == null ? revoke.deadline() : revoke.deadline().earlier(bound));
                        } finally {
                            revoke.done().complete(null);
                        }
                    }
                } else if (event instanceof RebalanceEvent.Lose) {
                    lose(((RebalanceEvent.Lose) event).partitions());
                } else if (event instanceof RebalanceEvent.Assign) {
                    if (assigning) {
                        assign(((RebalanceEvent.Assign) event).grants());
                    }
                } else if (event instanceof RebalanceEvent.Wakeup) {
                    wakeup = true;
                }
            } catch (KafkaException e) {
                callbackError = e;
            }
        }
        if (assigning) {
            retryHeld();
            reportKafka();
        }
        if (callbackError != null) {
            throw callbackError;
        }
        return wakeup;
    }

    private void revoke(Set<TopicPartition> partitions, Deadline deadline) {
        Set<TopicPartition> mine = mine(partitions);
        RuntimeException listenerError = null;
        try {
            state.listener().onPartitionsRevoked(mine);
        } catch (RuntimeException e) {
            listenerError = e;
        }
        if (committer.commitsOnRevoke()) {
            // A position not known here (an offset reset the fetcher has not looked up yet) is not looked up now: a
            // release never waits on Kafka (0.8.2.2 peers give up on a claim after rebalance.max.retries). Nothing
            // of such a partition was handed out since its position was last known, so its committed offset stands.
            SortedSet<TopicPartition> unknown = state.unknownPositions();
            unknown.retainAll(mine);
            if (!unknown.isEmpty()) {
                log.info("releasing {} without a commit: their position is not known yet (nothing of them was "
                        + "delivered since the last commit)", unknown);
            }
        }
        committer.beforeRevoke(mine, deadline);
        unassign(mine);
        if (listenerError != null) {
            throw new KafkaException("onPartitionsRevoked of the rebalance listener failed", listenerError);
        }
    }

    private void lose(Set<TopicPartition> partitions) {
        Set<TopicPartition> mine = mine(partitions);
        unassign(mine);
        if (!mine.isEmpty()) {
            try {
                state.listener().onPartitionsLost(mine);
            } catch (RuntimeException e) {
                throw new KafkaException("onPartitionsLost of the rebalance listener failed", e);
            }
        }
    }

    /** Of {@code partitions}, those this consumer was told it owns, as the listener is shown them. */
    private Set<TopicPartition> mine(Set<TopicPartition> partitions) {
        Set<TopicPartition> mine = new TreeSet<>(KafkaPartitions.ORDER);
        mine.addAll(partitions);
        mine.retainAll(state.assigned());
        return Collections.unmodifiableSet(mine);
    }

    private void unassign(Set<TopicPartition> partitions) {
        if (partitions.isEmpty()) {
            return;
        }
        boolean wasHeld = state.forget(partitions);
        fetcher.follow();
        if (wasHeld) {
            reportHeld();
        }
    }

    /** Reads the committed offsets of newly granted partitions: known ones are fetched, the rest held. */
    private void assign(Map<TopicPartition, OwnershipFence.Grant> grants) {
        if (grants.isEmpty()) {
            return;
        }
        // bounded: the poll thread must get to the next revocation (a store on Kafka that does not answer holds them)
        OffsetLookup lookup = store.lookup(config.groupId(), KafkaPartitions.toRegistry(grants.keySet()),
                config.rebalanceKafkaTimeout());
        List<TopicPartition> started = new ArrayList<>();
        boolean anyHeld = false;
        for (Map.Entry<TopicPartition, OwnershipFence.Grant> granted : grants.entrySet()) {
            TopicPartition tp = granted.getKey();
            OwnershipFence.Grant grant = granted.getValue();
            TopicAndPartition zk = KafkaPartitions.toRegistry(tp);
            String unknown = lookup.unknown().get(zk);
            if (unknown == null) {
                state.fetch(tp, grant.epoch(), grant.thread().thread(), committedOffset(lookup, zk));
                started.add(tp);
            } else {
                state.hold(tp, grant.epoch(), grant.thread().thread(), unknown);
                anyHeld = true;
            }
        }
        fetcher.start(started);
        if (anyHeld) {
            reportHeld();
        }
        try {
            Set<TopicPartition> assigned = new TreeSet<>(KafkaPartitions.ORDER);
            assigned.addAll(grants.keySet());
            state.listener().onPartitionsAssigned(Collections.unmodifiableSet(assigned));
        } catch (RuntimeException e) {
            throw new KafkaException("onPartitionsAssigned of the rebalance listener failed", e);
        }
    }

    /**
     * Picks up the last lookup of held partitions (those now readable start fetching) and starts the next one when
     * some are due. The lookups run off this thread ({@link HeldOffsetLookups}): a revocation never waits for one.
     */
    private void retryHeld() {
        heldLookups.finished().ifPresent(this::applyHeldLookup);
        if (heldLookups.busy()) {
            return;
        }
        Map<TopicPartition, Long> due = new java.util.HashMap<>();
        for (TopicPartition tp : state.dueForRetry()) {
            due.put(tp, state.heldEpoch(tp));
        }
        if (!due.isEmpty()) {
            heldLookups.start(due);
        }
    }

    private void applyHeldLookup(HeldOffsetLookups.Done done) {
        List<TopicPartition> readable = new ArrayList<>();
        for (Map.Entry<TopicPartition, Long> looked : done.epochs().entrySet()) {
            TopicPartition tp = looked.getKey();
            if (state.heldEpoch(tp) != looked.getValue()) {
                continue; // revoked, lost or granted again since: what was read may be older than its hold
            }
            TopicAndPartition zk = KafkaPartitions.toRegistry(tp);
            String unknown = done.lookup().unknown().get(zk);
            if (unknown == null) {
                state.readable(tp, committedOffset(done.lookup(), zk));
                readable.add(tp);
            } else {
                state.stillUnreadable(tp, unknown);
            }
        }
        fetcher.start(readable);
        reportHeld();
    }

    /** The committed offset the lookup found, null when there is none (auto.offset.reset applies). */
    private static Long committedOffset(OffsetLookup lookup, TopicAndPartition zk) {
        Long offset = lookup.offsets().get(zk);
        return offset != null && offset >= 0 ? offset : null;
    }

    /** The partitions the fetcher cannot fetch because Kafka does not answer, in the member's health (source kafka). */
    private void reportKafka() {
        KafkaReachability.Snapshot now = fetcher.reachability().snapshot();
        ZkGroupMember current = member;
        if (current != null && now != reportedKafka) {
            current.reportUnreadable(KafkaReachability.SOURCE, now.alarms());
            reportedKafka = now;
        }
    }

    private void reportHeld() {
        ZkGroupMember current = member;
        if (current != null) {
            current.reportUnreadable("offsets", state.alarms());
        }
    }
}
