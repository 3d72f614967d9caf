package io.zkgroups.rebalancer.assign;

import io.zkgroups.registry.Immutable;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.IntStream;

/**
 * What an assignor needs to know about a group at one moment: who subscribes to what, and how many
 * partitions each topic has.
 * <p>
 * Both maps are copied into immutable, sorted maps, so iteration order never depends on how the caller
 * built them.
 */
public final class GroupSnapshot {

    private final NavigableMap<ConsumerId, Map<String, Integer>> subscriptions;
    /** The keys of {@link #subscriptions}. */
    private final SortedSet<ConsumerId> members;
    private final Map<String, Integer> partitionCounts;
    private final SortedSet<ConsumerId> stickyMembers;
    /** {@link #subscribedTopics()}, computed once: every claim and every topic-by-topic assignment asks for it. */
    private volatile SortedSet<String> subscribedTopics;

    /**
     * Copies and sorts the maps and the set.
     *
     * @param subscriptions   every member's topic → stream count, wildcard subscriptions already expanded against
     *                        the existing topics; a member may subscribe to nothing (a wildcard matching no topic)
     * @param partitionCounts topic → number of partitions, numbered {@code 0..n-1}; a topic that is absent has no
     *                        partitions (vector V10 of docs/compatibility.md#assignment-vectors: its subscribers
     *                        simply get nothing)
     * @param stickyMembers   the members whose registration advertises {@link StickyCapability the sticky assignor};
     *                        only when it holds every member may the group be assigned by {@link StickyAssignor}
     * @throws NullPointerException     if a map, id, topic or count is null
     * @throws IllegalArgumentException if a topic is empty, a stream count is below 1 or a partition count is
     *                                  negative; the message names the member and topic
     */
    public GroupSnapshot(Map<ConsumerId, Map<String, Integer>> subscriptions, Map<String, Integer> partitionCounts,
                         Set<ConsumerId> stickyMembers) {
        this(copySubscriptions(subscriptions), copyPartitionCounts(partitionCounts), copyStickyMembers(stickyMembers));
    }

    /** Takes the copies as they are. */
    private GroupSnapshot(NavigableMap<ConsumerId, Map<String, Integer>> subscriptions,
                          Map<String, Integer> partitionCounts, SortedSet<ConsumerId> stickyMembers) {
        this.subscriptions = subscriptions;
        this.members = subscriptions.navigableKeySet();
        this.partitionCounts = partitionCounts;
        this.stickyMembers = stickyMembers;
    }

    /** A snapshot in which no member advertises the sticky assignor (every 0.8.2.2 member's case). */
    public GroupSnapshot(Map<ConsumerId, Map<String, Integer>> subscriptions, Map<String, Integer> partitionCounts) {
        this(subscriptions, partitionCounts, Collections.emptySet());
    }

    /** The same snapshot with {@code members} as the members that advertise the sticky assignor. */
    public GroupSnapshot withStickyMembers(Set<ConsumerId> members) {
        return new GroupSnapshot(subscriptions, partitionCounts, copyStickyMembers(members));
    }

    /** True if the group has members and every one of them advertises the sticky assignor. */
    public boolean everyMemberSticky() {
        return !subscriptions.isEmpty() && stickyMembers.containsAll(subscriptions.keySet());
    }

    /** A snapshot of a group with no members and no topics. */
    public static GroupSnapshot empty() {
        return new GroupSnapshot(Collections.emptyMap(), Collections.emptyMap());
    }

    /** The same snapshot with {@code member} registered with {@code subscription}, replacing any earlier entry. */
    public GroupSnapshot withMember(ConsumerId member, Map<String, Integer> subscription) {
        Objects.requireNonNull(member, "member cannot be null");
        Map<ConsumerId, Map<String, Integer>> changed = new TreeMap<>(subscriptions);
        changed.put(member, subscription);
        return new GroupSnapshot(changed, partitionCounts, stickyMembers);
    }

    /** Every member's topic → stream count, ordered by member. */
    public Map<ConsumerId, Map<String, Integer>> subscriptions() {
        return subscriptions;
    }

    /** Topic → number of partitions, ordered by topic. */
    public Map<String, Integer> partitionCounts() {
        return partitionCounts;
    }

    /** The members that advertise the sticky assignor, in String order. */
    public Set<ConsumerId> stickyMembers() {
        return stickyMembers;
    }

    /** All members, in String order. */
    public SortedSet<ConsumerId> members() {
        return members;
    }

    /** Topic → stream count of {@code member}; empty if it subscribes to nothing or is not a member. */
    public Map<String, Integer> subscriptionOf(ConsumerId member) {
        return subscriptions.getOrDefault(member, Collections.emptySortedMap());
    }

    /** Every topic at least one member subscribes to, whether or not it exists, in String order. */
    public SortedSet<String> subscribedTopics() {
        SortedSet<String> topics = subscribedTopics;
        if (topics == null) { // a race computes it twice, alike: the snapshot is immutable
            SortedSet<String> union = new TreeSet<>();
            Map<String, Integer> added = null;
            for (Map<String, Integer> subscription : subscriptions.values()) {
                if (subscription != added) { // members of one subscription often share one map: added once
                    union.addAll(subscription.keySet());
                    added = subscription;
                }
            }
            topics = Collections.unmodifiableSortedSet(union);
            subscribedTopics = topics;
        }
        return topics;
    }

    /**
     * All thread ids of all members subscribed to {@code topic}, sorted by their text like 0.8.2.2
     * ({@code c-10 < c-2}, {@code c10-0 < c2-0}). Empty if nobody subscribes to it.
     */
    public List<ThreadId> threadsOf(String topic) {
        List<ThreadId> threads = new ArrayList<>(subscriptions.size());
        Map<String, Integer> looked = null;
        int streams = 0;
        for (Map.Entry<ConsumerId, Map<String, Integer>> entry : subscriptions.entrySet()) {
            Map<String, Integer> subscription = entry.getValue();
            if (subscription != looked) { // members of one subscription often share one map: looked up once
                streams = subscription.getOrDefault(topic, 0);
                looked = subscription;
            }
            for (int n = 0; n < streams; n++) {
                threads.add(entry.getKey().thread(n));
            }
        }
        Collections.sort(threads);
        return Collections.unmodifiableList(threads);
    }

    /** Number of partitions of {@code topic}; 0 if the topic does not exist. */
    public int partitionCount(String topic) {
        return partitionCounts.getOrDefault(topic, 0);
    }

    /** The partitions of {@code topic} in ascending order; empty if the topic does not exist. */
    public List<TopicAndPartition> partitionsOf(String topic) {
        return IntStream.range(0, partitionCount(topic)).mapToObj(p -> new TopicAndPartition(topic, p))
                .collect(Immutable.toList());
    }

    @Override
    public boolean equals(Object other) {
        if (this == other) {
            return true;
        }
        if (!(other instanceof GroupSnapshot)) {
            return false;
        }
        GroupSnapshot that = (GroupSnapshot) other;
        // both sorted alike: compared in step, without a lookup per member
        return subscriptions.size() == that.subscriptions.size()
                && inStepEqual(subscriptions.entrySet().iterator(), that.subscriptions.entrySet().iterator())
                && partitionCounts.equals(that.partitionCounts) && stickyMembers.equals(that.stickyMembers);
    }

    @Override
    public int hashCode() {
        return Objects.hash(subscriptions, partitionCounts, stickyMembers);
    }

    @Override
    public String toString() {
        return "GroupSnapshot[subscriptions=" + subscriptions + ", partitionCounts=" + partitionCounts
                + ", stickyMembers=" + stickyMembers + "]";
    }

    /** Whether both iterators hand out equal elements, in the same order, and as many. */
    private static boolean inStepEqual(Iterator<?> one, Iterator<?> other) {
        while (one.hasNext() && other.hasNext()) {
            if (!one.next().equals(other.next())) {
                return false;
            }
        }
        return !one.hasNext() && !other.hasNext();
    }

    /**
     * Sorted by member. Without a comparison of ids when {@code subscriptions} is a sorted map in their natural order
     * (as a member's rebalance builds it: ids share the group's prefix, so each comparison is costly, and there are
     * thousands per snapshot of a large group). Each distinct stream count map is checked and copied once, and
     * members that shared one share its copy.
     */
    private static NavigableMap<ConsumerId, Map<String, Integer>> copySubscriptions(
            Map<ConsumerId, Map<String, Integer>> subscriptions) {
        Objects.requireNonNull(subscriptions, "subscriptions cannot be null");
        TreeMap<ConsumerId, Map<String, Integer>> copy;
        if (subscriptions instanceof SortedMap && Immutable.inNaturalOrder((SortedMap<?, ?>) subscriptions)) {
            copy = new TreeMap<>((SortedMap<ConsumerId, Map<String, Integer>>) subscriptions); // no comparison
        } else {
            copy = new TreeMap<>();
            subscriptions.forEach((member, subscription) ->
                    copy.put(Objects.requireNonNull(member, "subscriptions contain a null consumer id"), subscription));
        }
        Map<Map<String, Integer>, Map<String, Integer>> copied = new IdentityHashMap<>();
        copy.replaceAll((member, subscription) -> {
            Map<String, Integer> counts = copied.get(subscription);
            if (counts == null) {
                counts = copySubscription(member, subscription);
                copied.put(subscription, counts);
            }
            return counts;
        });
        return Collections.unmodifiableNavigableMap(copy);
    }

    private static SortedSet<ConsumerId> copyStickyMembers(Set<ConsumerId> stickyMembers) {
        Objects.requireNonNull(stickyMembers, "sticky members cannot be null");
        return Collections.unmodifiableSortedSet(new TreeSet<>(stickyMembers)); // from a sorted set: no comparison
    }

    private static Map<String, Integer> copySubscription(ConsumerId member, Map<String, Integer> subscription) {
        Objects.requireNonNull(member, "subscriptions contain a null consumer id");
        Objects.requireNonNull(subscription, () -> "subscription of member " + member + " cannot be null");
        return copyCounts(subscription, 1, "stream count", member);
    }

    private static Map<String, Integer> copyPartitionCounts(Map<String, Integer> partitionCounts) {
        Objects.requireNonNull(partitionCounts, "partition counts cannot be null");
        return copyCounts(partitionCounts, 0, "partition count", null);
    }

    /** {@code member} is null for the partition counts. */
    private static SortedMap<String, Integer> copyCounts(Map<String, Integer> counts, int minimum, String what,
                                                         ConsumerId member) {
        for (Map.Entry<String, Integer> entry : counts.entrySet()) {
            String topic = entry.getKey();
            Integer count = entry.getValue();
            if (topic == null) {
                throw new NullPointerException(owner(member) + ": topic cannot be null");
            }
            if (topic.isEmpty()) {
                throw new IllegalArgumentException(owner(member) + ": topic cannot be empty");
            }
            if (count == null) {
                throw new NullPointerException(owner(member) + ": " + what + " of topic " + topic + " cannot be null");
            }
            if (count < minimum) {
                throw new IllegalArgumentException(owner(member) + ": " + what + " of topic " + topic + " must be >= "
                        + minimum + ", got " + count);
            }
        }
        return Immutable.sortedMap(counts);
    }

    private static String owner(ConsumerId member) {
        return member == null ? "partition counts" : "member " + member;
    }
}
