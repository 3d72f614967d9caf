package io.zkgroups.rebalancer.consumer;

import io.zkgroups.rebalancer.group.GroupMember;
import io.zkgroups.rebalancer.group.GroupMemberConfig;
import io.zkgroups.rebalancer.group.MemberHealth;
import io.zkgroups.rebalancer.group.MemberState;
import io.zkgroups.rebalancer.group.OwnershipFence;
import io.zkgroups.rebalancer.group.SessionOwnership;
import io.zkgroups.rebalancer.group.TopicMetadata;
import io.zkgroups.rebalancer.metrics.ConsumerMetrics;
import io.zkgroups.rebalancer.offsets.CommitPermit;
import io.zkgroups.rebalancer.offsets.FencedException;
import io.zkgroups.rebalancer.offsets.OffsetLookup;
import io.zkgroups.rebalancer.offsets.OffsetStore;
import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.Subscription;
import io.zkgroups.registry.model.TopicAndPartition;
import org.apache.curator.framework.CuratorFramework;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.BlockingDeque;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * The group side of a {@link ZkGroupConsumer}, on the poll thread: the subscription and the {@link GroupMember} behind
 * it, the ownership events the member sends ({@link RebalanceBridge}) and the application's rebalance callbacks, and
 * what this consumer was told it owns — with the fence epoch of each grant, which every hand-out and every commit
 * presents to the member's fence.
 * <p>
 * An assigned partition is <em>active</em> (fetched) once its committed offset is known. One whose offset cannot be
 * read (an unreadable znode, an unreachable store) is {@link HeldPartitions held}: owned, not fetched, not committed,
 * retried with backoff and reported in the member's health — it never holds up the other partitions or the events
 * behind it.
 */
final class GroupCoordinator implements OffsetCommitter.Ownership {

    private final ZkConsumerConfig config;
    private final ConsumerId consumerId;
    private final CuratorFramework curator;
    private final TopicMetadata topicMetadata;
    private final KafkaConsumer<?, ?> fetcher;
    private final OffsetStore store;
    private final OffsetCommitter committer;
    private final ConsumerMetrics metrics;
    private final BlockingDeque<RebalanceEvent> events = new LinkedBlockingDeque<>();

    private volatile GroupMember member;
    private RebalanceBridge bridge;
    private Set<String> subscription = Set.of();
    private Pattern subscribedPattern;
    private ConsumerRebalanceListener listener = NoOpListener.INSTANCE;
    /** Fetched partitions → the epoch of their grant. */
    private final Map<TopicPartition, Long> active = new HashMap<>();
    private final HeldPartitions held;
    /** Assigned partitions → the member's consumer thread (0.8 stream) the group gave each to. */
    private final Map<TopicPartition, Integer> streams = new HashMap<>();
    /** Handed over by the previous process with the session this consumer resumed: adopted by the first join. */
    private SessionOwnership resumed;
    private Subscription registered;

    GroupCoordinator(ZkConsumerConfig config, ConsumerId consumerId, CuratorFramework curator,
                     TopicMetadata topicMetadata, KafkaConsumer<?, ?> fetcher, OffsetStore store, ConsumerMetrics metrics) {
        this.config = config;
        this.consumerId = consumerId;
        this.curator = curator;
        this.topicMetadata = topicMetadata;
        this.fetcher = fetcher;
        this.store = store;
        this.metrics = metrics;
        this.committer = new OffsetCommitter(config, consumerId.toString(), store, this, metrics);
        this.held = new HeldPartitions(consumerId.toString(), config.groupId());
    }

    OffsetCommitter committer() {
        return committer;
    }

    /** The first {@link #join} adopts {@code ownership} instead of claiming it again (a restart by session hand-over). */
    void resumeOnJoin(SessionOwnership ownership) {
        this.resumed = ownership;
    }

    // --- subscription -------------------------------------------------------------------------------------

    void join(Subscription sub, Set<String> topics, Pattern pattern, ConsumerRebalanceListener rebalanceListener) {
        if (member != null) {
            leave(); // a new subscription is a new registration: revoke everything, then join again
        }
        this.subscription = topics;
        this.registered = sub;
        this.subscribedPattern = pattern;
        this.listener = rebalanceListener;
        GroupMemberConfig memberConfig = GroupMemberConfig.of(config.groupId(), consumerId, sub)
                .withAssignmentStrategy(config.assignmentStrategy())
                .withExcludeInternalTopics(config.excludeInternalTopics())
                .withMaxGroupSize(config.maxGroupSize())
                .withDebounce(config.rebalanceDebounce())
                .withBackoff(Duration.ofMillis(Math.min(50, config.rebalanceBackoff().toMillis())), config.rebalanceBackoff())
                .withAdvertisedCapabilities(config.advertiseCapabilities());
        bridge = new RebalanceBridge(events, config.revokeTimeout(), metrics);
        member = new GroupMember(curator, ZkLayout.root(), memberConfig, topicMetadata, bridge);
        bridge.attach(member.fence());
        metrics.attach(member);
        committer.restartTimers();
        if (resumed != null) {
            member.adopt(resumed);
            resumed = null;
        }
        member.start();
    }

    /** Revokes everything on this thread (listener, commit), then lets the member release and unregister. */
    void leave() {
        if (member == null) {
            return;
        }
        processEvents(false);
        Set<TopicPartition> assigned = assignment();
        if (!assigned.isEmpty()) {
            revoke(assigned);
        }
        bridge.pollThreadGone();
        member.close();
        forgetMember();
    }

    /** After the member left or handed its session off: no member, no subscription, no events for it. */
    private void forgetMember() {
        metrics.detach(member);
        events.removeIf(e -> !(e instanceof RebalanceEvent.Wakeup));
        member = null;
        bridge = null;
        subscription = Set.of();
        subscribedPattern = null;
    }

    /**
     * Stops for a restart on this thread: no more hand-outs, the application's {@code onPartitionsRevoked} and the
     * commit of what was handed out, then the member withdraws every grant and stops without leaving. Returns what the
     * member still owns in its session (empty if not subscribed, or if the session is not alive).
     */
    Optional<SessionOwnership> handOff() {
        if (member == null) {
            return Optional.empty();
        }
        processEvents(false);
        member.fence().beginRevoke(member.owned()); // no more hand-outs; the revoke's commit may still pass
        Set<TopicPartition> assigned = assignment();
        if (!assigned.isEmpty()) {
            revoke(assigned);
        }
        bridge.pollThreadGone();
        Optional<SessionOwnership> handedOver = member.handOff();
        forgetMember();
        return handedOver;
    }

    /** The subscription the member registered (null when not subscribed). */
    Subscription registeredSubscription() {
        return member == null ? null : registered;
    }

    boolean subscribed() {
        return member != null;
    }

    Set<String> subscription() {
        if (subscribedPattern != null) {
            Set<String> matched = new HashSet<>();
            assignment().forEach(tp -> matched.add(tp.topic()));
            return Collections.unmodifiableSet(matched);
        }
        return Collections.unmodifiableSet(new HashSet<>(subscription));
    }

    /** Everything this consumer owns, fetched or held. */
    Set<TopicPartition> assignment() {
        Set<TopicPartition> all = new HashSet<>(active.keySet());
        all.addAll(held.partitions());
        return all;
    }

    /** Each assigned partition's stream: the consumer thread {@code CID-k} of the registration it was given to. */
    Map<TopicPartition, Integer> streams() {
        return Collections.unmodifiableMap(streams);
    }

    GroupMember member() {
        return member;
    }

    // --- events -------------------------------------------------------------------------------------------------

    /** Throws if the group refused this member; it will not own anything. */
    void checkMember() {
        MemberHealth health = member.health();
        if (health.state() == MemberState.REFUSED) {
            throw new KafkaException("consumer " + consumerId + " was refused by group " + config.groupId() + ": "
                    + health.lastError().orElse("(no reason given)"));
        }
    }

    /** Wakes a poll waiting in {@link #awaitEvent}. */
    void wake() {
        events.add(new RebalanceEvent.Wakeup());
    }

    /** Drops pending wake-ups: the wakeup they were for has been delivered. */
    void clearWakeups() {
        events.removeIf(e -> e instanceof RebalanceEvent.Wakeup);
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
     * whether a wakeup was among the events. {@code assigning}: false while leaving (new partitions are not taken up).
     */
    boolean processEvents(boolean assigning) {
        boolean wakeup = false;
        KafkaException callbackError = null;
        RebalanceEvent event;
        while ((event = events.pollFirst()) != null) {
            try {
                if (event instanceof RebalanceEvent.Revoke revoke) {
                    if (revoke.done().isDone()) {
                        lose(revoke.partitions()); // the member stopped waiting for us: they are gone already
                    } else {
                        try {
                            revoke(revoke.partitions());
                        } finally {
                            revoke.done().complete(null);
                        }
                    }
                } else if (event instanceof RebalanceEvent.Lose lose) {
                    lose(lose.partitions());
                } else if (event instanceof RebalanceEvent.Assign assign) {
                    if (assigning) {
                        assign(assign.grants());
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
        }
        if (callbackError != null) {
            throw callbackError;
        }
        return wakeup;
    }

    private void revoke(Set<TopicPartition> partitions) {
        Set<TopicPartition> mine = new HashSet<>(partitions);
        mine.retainAll(assignment());
        RuntimeException listenerError = null;
        try {
            listener.onPartitionsRevoked(Collections.unmodifiableSet(mine));
        } catch (RuntimeException e) {
            listenerError = e;
        }
        committer.beforeRevoke(mine);
        unassign(mine);
        if (listenerError != null) {
            throw new KafkaException("onPartitionsRevoked of the rebalance listener failed", listenerError);
        }
    }

    private void lose(Set<TopicPartition> partitions) {
        Set<TopicPartition> mine = new HashSet<>(partitions);
        mine.retainAll(assignment());
        unassign(mine);
        if (!mine.isEmpty()) {
            try {
                listener.onPartitionsLost(Collections.unmodifiableSet(mine));
            } catch (RuntimeException e) {
                throw new KafkaException("onPartitionsLost of the rebalance listener failed", e);
            }
        }
    }

    private void unassign(Set<TopicPartition> partitions) {
        if (partitions.isEmpty()) {
            return;
        }
        boolean wasHeld = held.forget(partitions);
        active.keySet().removeAll(partitions);
        streams.keySet().removeAll(partitions);
        committer.forget(partitions);
        fetcher.assign(new ArrayList<>(active.keySet()));
        if (wasHeld) {
            reportHeld();
        }
    }

    /** Reads the committed offsets of newly granted partitions: known ones are fetched, the rest held. */
    private void assign(Map<TopicPartition, OwnershipFence.Grant> grants) {
        if (grants.isEmpty()) {
            return;
        }
        Map<TopicPartition, Long> epochs = new HashMap<>();
        grants.forEach((tp, grant) -> {
            epochs.put(tp, grant.epoch());
            streams.put(tp, grant.thread().thread());
        });
        OffsetLookup lookup = store.lookup(config.groupId(), zk(epochs.keySet()));
        Map<TopicPartition, Long> known = new HashMap<>();
        epochs.forEach((tp, epoch) -> {
            String unknown = lookup.unknown().get(zk(tp));
            if (unknown == null) {
                known.put(tp, epoch);
            } else {
                held.hold(tp, epoch, unknown);
            }
        });
        activate(known, lookup);
        if (known.size() < epochs.size()) {
            reportHeld();
        }
        try {
            listener.onPartitionsAssigned(Collections.unmodifiableSet(new HashSet<>(epochs.keySet())));
        } catch (RuntimeException e) {
            throw new KafkaException("onPartitionsAssigned of the rebalance listener failed", e);
        }
    }

    /** Starts fetching {@code epochs}' partitions at their committed offsets (or where auto.offset.reset says). */
    private void activate(Map<TopicPartition, Long> epochs, OffsetLookup lookup) {
        if (epochs.isEmpty()) {
            return;
        }
        active.putAll(epochs);
        fetcher.assign(new ArrayList<>(active.keySet()));
        List<TopicPartition> withoutOffset = new ArrayList<>();
        for (TopicPartition tp : epochs.keySet()) {
            Long offset = lookup.offsets().get(zk(tp));
            if (offset != null && offset >= 0) {
                fetcher.seek(tp, offset);
                committer.started(tp, offset);
            } else {
                withoutOffset.add(tp);
            }
        }
        if (!withoutOffset.isEmpty()) {
            switch (config.resetPolicy()) {
                case EARLIEST -> fetcher.seekToBeginning(withoutOffset);
                case LATEST -> fetcher.seekToEnd(withoutOffset);
                case NONE -> {
                    // the inner consumer has auto.offset.reset=none: its poll throws NoOffsetForPartitionException
                }
            }
        }
    }

    /** Looks again at held partitions whose retry is due; those now readable start fetching. */
    private void retryHeld() {
        Map<TopicPartition, Long> due = held.isEmpty() ? Map.of() : held.due();
        if (due.isEmpty()) {
            return;
        }
        OffsetLookup lookup = store.lookup(config.groupId(), zk(due.keySet()));
        Map<TopicPartition, Long> readable = new HashMap<>();
        due.keySet().forEach(tp -> {
            String unknown = lookup.unknown().get(zk(tp));
            if (unknown == null) {
                readable.put(tp, held.readable(tp));
            } else {
                held.stillUnreadable(tp, unknown);
            }
        });
        activate(readable, lookup);
        reportHeld();
    }

    private void reportHeld() {
        if (member != null) {
            member.reportUnreadable("offsets", held.alarms());
        }
    }

    // --- the fence -----------------------------------------------------------------------------------------------

    /** The fence for hand-outs made after poll returned, on other threads ({@link HandOutFence}). */
    HandOutFence handOutFence() {
        return new HandOutFence() {
            @Override
            public long epochOf(TopicPartition partition) {
                return active.getOrDefault(partition, 0L);
            }

            @Override
            public OwnershipFence.HandOut check(TopicPartition partition, long epoch) {
                GroupMember current = member;
                return current == null ? OwnershipFence.HandOut.NEVER : current.fence().handOut(zk(partition), epoch);
            }

            @Override
            public void awaitChange(long maxNanos) throws InterruptedException {
                GroupMember current = member;
                if (current != null) {
                    current.fence().awaitChange(maxNanos);
                }
            }
        };
    }

    /** Whether some fetched partition may hand out records now. */
    boolean canFetch() {
        return !active.isEmpty() && !member.fence().deliverable(epochsOf(active.keySet())).isEmpty();
    }

    /**
     * The records the fence lets out now: of partitions this consumer owns under the current grant, not being revoked,
     * with the lease of their session holding. The rest are put back (the fetcher seeks to their first offset).
     */
    <K, V> ConsumerRecords<K, V> deliverable(ConsumerRecords<K, V> records) {
        if (records.isEmpty()) {
            return records;
        }
        Set<TopicAndPartition> allowed = member.fence().deliverable(epochsOf(records.partitions()));
        if (allowed.size() == records.partitions().size()) {
            return records;
        }
        Map<TopicPartition, List<ConsumerRecord<K, V>>> out = new HashMap<>();
        for (TopicPartition tp : records.partitions()) {
            List<ConsumerRecord<K, V>> list = records.records(tp);
            if (allowed.contains(zk(tp))) {
                out.put(tp, list);
            } else if (active.containsKey(tp)) {
                fetcher.seek(tp, list.get(0).offset());
            }
        }
        return out.isEmpty() ? ConsumerRecords.empty() : new ConsumerRecords<>(out);
    }

    @Override
    public Set<TopicPartition> active() {
        return Collections.unmodifiableSet(active.keySet());
    }

    @Override
    public long position(TopicPartition partition) {
        return fetcher.position(partition);
    }

    @Override
    public CommitPermit authorize(Set<TopicPartition> partitions) {
        Map<TopicAndPartition, Long> epochs = new TreeMap<>();
        Map<TopicAndPartition, String> foreign = new TreeMap<>();
        for (TopicPartition tp : partitions) {
            Long epoch = active.containsKey(tp) ? active.get(tp) : held.epochOf(tp);
            if (epoch == null) {
                foreign.put(zk(tp), "not assigned to " + consumerId + " in group " + config.groupId());
            } else {
                epochs.put(zk(tp), epoch);
            }
        }
        if (!foreign.isEmpty()) {
            throw new FencedException(foreign);
        }
        if (member == null) {
            throw new FencedException("not subscribed: " + consumerId + " owns nothing");
        }
        return member.fence().authorize(epochs);
    }

    private Map<TopicAndPartition, Long> epochsOf(Set<TopicPartition> partitions) {
        Map<TopicAndPartition, Long> epochs = new HashMap<>();
        for (TopicPartition tp : partitions) {
            Long epoch = active.get(tp);
            if (epoch != null) {
                epochs.put(zk(tp), epoch);
            }
        }
        return epochs;
    }

    static TopicAndPartition zk(TopicPartition tp) {
        return new TopicAndPartition(tp.topic(), tp.partition());
    }

    static List<TopicAndPartition> zk(Set<TopicPartition> partitions) {
        return partitions.stream().map(GroupCoordinator::zk).toList();
    }
}
