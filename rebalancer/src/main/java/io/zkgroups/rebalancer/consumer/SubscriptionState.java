package io.zkgroups.rebalancer.consumer;

import io.zkgroups.rebalancer.group.OwnershipFence;
import io.zkgroups.registry.Time;
import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.model.Subscription;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.store.Unreadable;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.LogContext;
import org.slf4j.Logger;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiPredicate;
import java.util.regex.Pattern;

/**
 * What a {@link ZkGroupConsumer} subscribed to and was told it owns (the counterpart of Kafka's
 * {@code SubscriptionState}): the subscription and its rebalance listener, the fence of the member that gave the
 * grants, and per assigned partition the epoch of its grant, its stream, whether it is fetched or held, its position
 * and the offset last committed. The {@link GroupCoordinator} writes it as ownership changes, the
 * {@link PartitionFetcher} keeps the positions, and the {@link OffsetCommitter} reads it to commit.
 * <p>
 * An assigned partition is <em>fetched</em> once its committed offset is known. One whose offset cannot be read (an
 * unreadable znode, an unreachable store) is <em>held</em>: owned, not fetched, not committed, looked at again with
 * backoff (1 s doubling to 30 s), logged once when it starts being held or its reason changes, and reported in the
 * member's health ({@link #alarms}).
 * <p>
 * <b>Threading.</b> Everything here belongs to the thread inside the consumer (the single-thread guard of
 * {@link ZkGroupConsumer}), except {@link #fence()}: it is volatile, written on that thread when a member joins or
 * leaves and read by hand-outs on other threads ({@link HandOutFence#check}).
 */
final class SubscriptionState {

    /** This consumer's log: every line starts with its id. */
    private final Logger log;

    private final String memberName;
    private final String group;
    private final Time time;
    /** Every assigned partition, in order; {@link #byPartition} is the same, for lookups on the poll path. */
    private final SortedMap<TopicPartition, AssignedPartition> partitions = new TreeMap<>(KafkaPartitions.ORDER);
    private final Map<TopicPartition, AssignedPartition> byPartition = new HashMap<>();
    /** {@link #fetched()} as of the last change of what is fetched; null once stale. */
    private SortedSet<TopicPartition> fetchedView;
    private Set<String> topics = Collections.emptySet();
    private Pattern pattern;
    private Subscription registered;
    private ConsumerRebalanceListener listener = NoOpListener.INSTANCE;
    private volatile OwnershipFence fence;

    SubscriptionState(String memberName, String group, Time time) {
        this.memberName = memberName;
        this.log = new LogContext("[" + memberName + "] ").logger(SubscriptionState.class);
        this.group = group;
        this.time = time;
    }

    /** The consumer id, for log lines. */
    String memberName() {
        return memberName;
    }

    // --- the subscription ------------------------------------------------------------------------------------

    /** A member registered {@code registered} (topics, or a pattern) and hands out and commits through {@code fence}. */
    void subscribe(Subscription registered, Set<String> topics, Pattern pattern, ConsumerRebalanceListener listener,
                   OwnershipFence fence) {
        this.registered = registered;
        this.topics = Collections.unmodifiableSet(new TreeSet<>(topics));
        this.pattern = pattern;
        this.listener = listener;
        this.fence = fence;
    }

    /** The member left: no subscription, no fence (its partitions were revoked or lost before). */
    void unsubscribe() {
        this.registered = null;
        this.topics = Collections.emptySet();
        this.pattern = null;
        this.fence = null;
    }

    /** The subscription the member registered, null when not subscribed. */
    Subscription registered() {
        return registered;
    }

    /** The topics subscribed to; for a pattern, the topics of the partitions assigned. */
    Set<String> subscription() {
        if (pattern == null) {
            return topics;
        }
        Set<String> matched = new TreeSet<>();
        for (TopicPartition tp : partitions.keySet()) {
            matched.add(tp.topic());
        }
        return Collections.unmodifiableSet(matched);
    }

    /** The pattern subscribed to, null for topics (or when not subscribed). */
    Pattern pattern() {
        return pattern;
    }

    ConsumerRebalanceListener listener() {
        return listener;
    }

    /** The fence of the member this consumer is subscribed through; null when not subscribed. Any thread. */
    OwnershipFence fence() {
        return fence;
    }

    // --- what this consumer was told it owns -------------------------------------------------------------------

    /** {@code tp} is granted under {@code epoch} to {@code stream}, and fetched from {@code committed} (null: reset). */
    void fetch(TopicPartition tp, long epoch, int stream, Long committed) {
        AssignedPartition a = new AssignedPartition(tp, epoch, stream);
        a.fetchFrom(committed);
        put(tp, a);
    }

    /** {@code tp} is granted under {@code epoch} to {@code stream}, but held: its committed offset cannot be read. */
    void hold(TopicPartition tp, long epoch, int stream, String reason) {
        AssignedPartition a = new AssignedPartition(tp, epoch, stream);
        a.hold = AssignedPartition.Hold.first(reason, time.nanoseconds());
        put(tp, a);
        logHeld(tp, a.hold, null);
    }

    /** A held partition is still unreadable at its retry: look again later (twice as late, at most 30 s). */
    void stillUnreadable(TopicPartition tp, String reason) {
        AssignedPartition a = byPartition.get(tp);
        AssignedPartition.Hold before = a.hold;
        a.hold = before.again(reason, time.nanoseconds());
        logHeld(tp, a.hold, before);
    }

    /** A held partition's committed offset could be read: it is fetched from {@code committed} (null: reset). */
    void readable(TopicPartition tp, Long committed) {
        AssignedPartition a = byPartition.get(tp);
        a.fetchFrom(committed);
        fetchedView = null;
        log.info("the committed offset of {} is readable again: fetching it", tp);
    }

    /** {@code gone} left this consumer: nothing of them is remembered. Returns whether any of them was held. */
    boolean forget(Collection<TopicPartition> gone) {
        boolean wasHeld = false;
        for (TopicPartition tp : gone) {
            AssignedPartition a = partitions.remove(tp);
            byPartition.remove(tp);
            wasHeld |= a != null && a.isHeld();
        }
        fetchedView = null;
        return wasHeld;
    }

    private void put(TopicPartition tp, AssignedPartition a) {
        partitions.put(tp, a);
        byPartition.put(tp, a);
        fetchedView = null;
    }

    /** Every assigned partition, fetched or held. */
    SortedSet<TopicPartition> assigned() {
        SortedSet<TopicPartition> assigned = new TreeSet<>(KafkaPartitions.ORDER);
        assigned.addAll(partitions.keySet());
        return Collections.unmodifiableSortedSet(assigned);
    }

    /** The assigned partitions that are fetched: a copy the caller may change. */
    SortedSet<TopicPartition> fetched() {
        return new TreeSet<>(fetchedView());
    }

    /** The assigned partitions that are fetched, unmodifiable: the same set until what is fetched changes. */
    SortedSet<TopicPartition> fetchedView() {
        if (fetchedView == null) {
            SortedSet<TopicPartition> fetched = new TreeSet<>(KafkaPartitions.ORDER);
            partitions.forEach((tp, a) -> {
                if (a.isFetched()) {
                    fetched.add(tp);
                }
            });
            fetchedView = Collections.unmodifiableSortedSet(fetched);
        }
        return fetchedView;
    }

    /** Whether the fence lets some fetched partition hand out records now: the poll's question before it fetches. */
    boolean anyDeliverable(OwnershipFence fence) {
        for (AssignedPartition a : byPartition.values()) {
            if (a.isFetched() && fence.handOut(a.registryName, a.epoch) == OwnershipFence.HandOut.ALLOWED) {
                return true;
            }
        }
        return false;
    }

    boolean isFetched(TopicPartition tp) {
        AssignedPartition a = byPartition.get(tp);
        return a != null && a.isFetched();
    }

    /** Each assigned partition's stream: the consumer thread {@code CID-k} of the registration it was given to. */
    Map<TopicPartition, Integer> streams() {
        Map<TopicPartition, Integer> streams = new HashMap<>();
        partitions.forEach((tp, a) -> streams.put(tp, a.stream));
        return Collections.unmodifiableMap(streams);
    }

    /** The epoch of {@code tp}'s grant if it is assigned (fetched or held), else null. */
    Long epoch(TopicPartition tp) {
        AssignedPartition a = byPartition.get(tp);
        return a == null ? null : a.epoch;
    }

    /** The epoch of the grant {@code tp} is fetched under, 0 if it is not fetched. */
    long fetchedEpoch(TopicPartition tp) {
        AssignedPartition a = byPartition.get(tp);
        return a == null || a.isHeld() ? 0 : a.epoch;
    }

    /** Of {@code candidates}, the fetched ones with their grants' epochs, as the fence takes them. */
    Map<TopicAndPartition, Long> fetchedEpochs(Collection<TopicPartition> candidates) {
        Map<TopicAndPartition, Long> epochs = new HashMap<>();
        for (TopicPartition tp : candidates) {
            AssignedPartition a = byPartition.get(tp);
            if (a != null && a.isFetched()) {
                epochs.put(a.registryName, a.epoch);
            }
        }
        return epochs;
    }

    // --- positions and commits ---------------------------------------------------------------------------------

    /** The fetcher will hand out {@code tp} from {@code offset} next. Ignored unless {@code tp} is fetched. */
    void position(TopicPartition tp, long offset) {
        AssignedPartition a = byPartition.get(tp);
        if (a != null && a.isFetched()) {
            a.position = offset;
        }
    }

    /** The fetcher must look up where {@code reset} start (seekToBeginning/End, auto.offset.reset). */
    void positionUnknown(Collection<TopicPartition> reset) {
        for (TopicPartition tp : reset) {
            AssignedPartition a = byPartition.get(tp);
            if (a != null) {
                a.position = null;
            }
        }
    }

    /** The known positions of {@code candidates} that are fetched (Kafka's "all consumed"). */
    Map<TopicPartition, Long> positions(Collection<TopicPartition> candidates) {
        Map<TopicPartition, Long> positions = new HashMap<>();
        for (TopicPartition tp : candidates) {
            AssignedPartition a = byPartition.get(tp);
            if (a != null && a.isFetched() && a.position != null) {
                positions.put(tp, a.position);
            }
        }
        return positions;
    }

    /** The known positions of every fetched partition. */
    Map<TopicPartition, Long> positions() {
        return positions(partitions.keySet());
    }

    /**
     * The fetched partitions with a known position for which {@code test} accepts (where their uncommitted records
     * begin, as {@link #uncommittedFrom}, their position).
     */
    SortedSet<TopicPartition> fetchedWhere(BiPredicate<Long, Long> test) {
        SortedSet<TopicPartition> matching = new TreeSet<>(KafkaPartitions.ORDER);
        partitions.forEach((tp, a) -> {
            if (a.isFetched() && a.position != null && test.test(a.uncommittedFrom(), a.position)) {
                matching.add(tp);
            }
        });
        return matching;
    }

    /** Whether some fetched partition's position is not known now. */
    boolean anyUnknownPosition() {
        for (AssignedPartition a : byPartition.values()) {
            if (a.isFetched() && a.position == null) {
                return true;
            }
        }
        return false;
    }

    /** The fetched partitions whose position is not known now. */
    SortedSet<TopicPartition> unknownPositions() {
        SortedSet<TopicPartition> unknown = new TreeSet<>(KafkaPartitions.ORDER);
        partitions.forEach((tp, a) -> {
            if (a.isFetched() && a.position == null) {
                unknown.add(tp);
            }
        });
        return unknown;
    }

    /** The offset last committed of an assigned partition (or read at its start), null if none. */
    Long committed(TopicPartition tp) {
        AssignedPartition a = byPartition.get(tp);
        return a == null ? null : a.committed;
    }

    /** {@code offset} of {@code tp} was written. Ignored if {@code tp} left meanwhile. */
    void committed(TopicPartition tp, long offset) {
        AssignedPartition a = byPartition.get(tp);
        if (a != null) {
            a.committed = offset;
            a.committedHere = true;
        }
    }

    /** Whether this consumer wrote a commit of {@code tp} in its current tenure. */
    boolean committedHere(TopicPartition tp) {
        AssignedPartition a = byPartition.get(tp);
        return a != null && a.committedHere;
    }

    /**
     * Where the uncommitted records of {@code tp} begin: the offset last committed (or read at the start), else the
     * first offset handed out in this tenure; null if neither is known or {@code tp} is not fetched.
     */
    Long uncommittedFrom(TopicPartition tp) {
        AssignedPartition a = byPartition.get(tp);
        return a == null || a.isHeld() ? null : a.uncommittedFrom();
    }

    /** Records of {@code tp} from {@code offset} go out: without a commit, the first such offset is remembered. */
    void handingOut(TopicPartition tp, long offset) {
        AssignedPartition a = byPartition.get(tp);
        if (a != null && a.isFetched() && a.committed == null && a.firstHandedOut == null) {
            a.firstHandedOut = offset;
        }
    }

    /** The committed offsets of the fetched partitions (what the idle refresh writes again). */
    Map<TopicPartition, Long> committedOfFetched() {
        Map<TopicPartition, Long> committed = new HashMap<>();
        partitions.forEach((tp, a) -> {
            if (a.isFetched() && a.committed != null) {
                committed.put(tp, a.committed);
            }
        });
        return committed;
    }

    // --- held partitions ---------------------------------------------------------------------------------------

    boolean anyHeld() {
        for (AssignedPartition a : partitions.values()) {
            if (a.isHeld()) {
                return true;
            }
        }
        return false;
    }

    /** The grant epoch of {@code tp} while it is held; -1 when it is not assigned here or is fetched. */
    long heldEpoch(TopicPartition tp) {
        AssignedPartition a = byPartition.get(tp);
        return a != null && a.isHeld() ? a.epoch : -1;
    }

    /** Held partitions whose retry is due. */
    SortedSet<TopicPartition> dueForRetry() {
        long now = time.nanoseconds();
        SortedSet<TopicPartition> due = new TreeSet<>(KafkaPartitions.ORDER);
        partitions.forEach((tp, a) -> {
            if (a.isHeld() && now - a.hold.retryAtNanos >= 0) {
                due.add(tp);
            }
        });
        return due;
    }

    /** The alarms for the member's health: each held partition's offset znode and why. */
    List<Unreadable> alarms() {
        List<Unreadable> alarms = new ArrayList<>();
        partitions.forEach((tp, a) -> {
            if (a.isHeld()) {
                alarms.add(new Unreadable(ZkLayout.root().offset(group, KafkaPartitions.toRegistry(tp)), a.hold.reason));
            }
        });
        return alarms;
    }

    private void logHeld(TopicPartition tp, AssignedPartition.Hold now, AssignedPartition.Hold before) {
        if (before == null || !before.reason.equals(now.reason)) {
            log.warn("holding {} (owned, not fetched, not committed) until its committed offset can be read: {}. "
                    + "Fix or delete that znode (then auto.offset.reset applies), e.g. with `zkgroups offsets reset`.", tp, now.reason);
        }
    }
}
