package io.zkgroups.rebalancer.group;

import io.zkgroups.rebalancer.assign.GroupSnapshot;
import io.zkgroups.rebalancer.assign.StickyCapability;
import io.zkgroups.registry.Immutable;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.Subscription;
import io.zkgroups.registry.store.Member;
import io.zkgroups.registry.store.Unreadable;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One consistent look at a group, as a member reads it before computing an assignment.
 */
final class GroupView {
    private final Map<ConsumerId, Member> members;
    private final List<Unreadable> malformed;
    private final Set<ConsumerId> refused;
    private final List<String> topics;
    private final Map<String, Integer> partitionCounts;
    private final Map<String, Unreadable> unreadableTopics;
    private final GroupSnapshot snapshot;

    /** {@code members}: unmodifiable, by id ({@link #byId}); kept as it is, so the views of one listing share it. */
    GroupView(SortedMap<ConsumerId, Member> members, List<Unreadable> malformed, Set<ConsumerId> refused,
              List<String> topics, Map<String, Integer> partitionCounts, Map<String, Unreadable> unreadableTopics,
              GroupSnapshot snapshot) {
        this.malformed = Immutable.list(malformed);
        this.unreadableTopics = Collections.unmodifiableMap(new TreeMap<>(unreadableTopics));
        this.members = members;
        this.refused = refused;
        this.topics = topics;
        this.partitionCounts = partitionCounts;
        this.snapshot = snapshot;
    }

    static boolean needsTopicList(Iterable<Member> members, Subscription own) {
        if (own instanceof Subscription.Wildcard) {
            return true;
        }
        for (Member member : members) {
            if (member.registration().subscription() instanceof Subscription.Wildcard) {
                return true;
            }
        }
        return false;
    }

    /**
     * Members by id, sorted. Building it from {@code members} in id order (a member list read) takes linear time:
     * the sort only checks the order. A group of a thousand members is built on every rebalance by each of them.
     */
    static SortedMap<ConsumerId, Member> byId(Iterable<Member> members) {
        return Immutable.sortedByKey(members, Member::id);
    }

    /** Expands every admitted member's subscription against {@code topics} (0.8.2.2 re-evaluates at read time). */
    static Map<ConsumerId, Map<String, Integer>> expand(Map<ConsumerId, Member> admitted, List<String> topics,
                                                        boolean excludeInternal) {
        Map<ConsumerId, Map<String, Integer>> subscriptions = new LinkedHashMap<>(); // admitted's order: sorted
        admitted.forEach((id, member) -> subscriptions.put(id, expand(member, topics, excludeInternal)));
        return subscriptions;
    }

    /** {@code member}'s topics with a stream count above 0, its subscription expanded against {@code topics}. */
    static SortedMap<String, Integer> expand(Member member, List<String> topics, boolean excludeInternal) {
        SortedMap<String, Integer> streams = new TreeMap<>();
        member.registration().subscription().topicStreams(topics, excludeInternal).forEach((topic, count) -> {
            if (count > 0) {
                streams.put(topic, count);
            }
        });
        return Collections.unmodifiableSortedMap(streams); // built here: nobody else can change it
    }

    /** The members whose registration says they compute the sticky assignor (see {@link StickyCapability}). */
    static Set<ConsumerId> advertisingSticky(SortedMap<ConsumerId, Member> admitted) {
        if (admitted.values().stream().noneMatch(GroupView::advertisesSticky)) {
            return Collections.emptySortedSet(); // every 0.8.2.2 member's case
        }
        // copied and filtered in order, so the ids are not compared
        TreeMap<ConsumerId, Member> sticky = new TreeMap<>(admitted);
        sticky.values().removeIf(member -> !advertisesSticky(member));
        return Collections.unmodifiableSortedSet(sticky.navigableKeySet());
    }

    private static boolean advertisesSticky(Member member) {
        return StickyCapability.advertisedBy(member.registration().capabilities());
    }

    /**
     * The first {@code cap} members in registration order (czxid); everyone when {@code cap == 0}. {@code members}
     * come sorted by id, as a member list is read.
     */
    static SortedMap<ConsumerId, Member> admitted(List<Member> members, int cap) {
        if (cap == 0 || members.size() <= cap) {
            return byId(members);
        }
        List<Member> byAge = new ArrayList<>(members);
        byAge.sort(Comparator.comparingLong(Member::czxid).thenComparing(Member::id));
        return byId(byAge.subList(0, cap));
    }

    static Set<ConsumerId> refused(List<Member> members, Map<ConsumerId, Member> admitted) {
        if (admitted.size() == members.size()) {
            return Collections.emptySortedSet();
        }
        Set<ConsumerId> refused = new TreeSet<>();
        members.stream().map(Member::id).filter(id -> !admitted.containsKey(id)).forEach(refused::add);
        return refused;
    }

    /** What changed between {@code before} (may be null) and this view, as rebalance causes. */
    List<RebalanceCause> changesSince(GroupView before) {
        List<RebalanceCause> causes = new ArrayList<>();
        if (before == null || before == this) {
            return causes;
        }
        // both sorted by id: walked in step, without a lookup per member
        List<RebalanceCause> left = new ArrayList<>();
        Iterator<Member> was = before.members.values().iterator();
        Member next = nextOrNull(was); // the first of before's members not yet walked
        for (Member now : members.values()) {
            if (next == now) { // a member list hands out the same member while it is unchanged
                next = nextOrNull(was);
                continue;
            }
            while (next != null && next.id().compareTo(now.id()) < 0) {
                left.add(new RebalanceCause.MemberLeft(next.id()));
                next = nextOrNull(was);
            }
            Member old = null;
            if (next != null && next.id().equals(now.id())) {
                old = next;
                next = nextOrNull(was);
            }
            if (old == null) {
                causes.add(new RebalanceCause.MemberJoined(now.id()));
            } else if (!old.registration().subscription().equals(now.registration().subscription())) {
                causes.add(new RebalanceCause.SubscriptionChanged(now.id()));
            } else if (old.czxid() != now.czxid()) {
                causes.add(new RebalanceCause.MemberJoined(now.id())); // left and came back between two looks
            }
        }
        if (next != null) {
            left.add(new RebalanceCause.MemberLeft(next.id()));
            was.forEachRemaining(gone -> left.add(new RebalanceCause.MemberLeft(gone.id())));
        }
        causes.addAll(left);
        partitionCounts.forEach((topic, count) -> {
            Integer old = before.partitionCounts.get(topic);
            if (old == null) {
                causes.add(new RebalanceCause.TopicCreated(topic));
            } else if (!old.equals(count)) {
                causes.add(new RebalanceCause.PartitionsChanged(topic, old, count));
            }
        });
        before.partitionCounts.keySet().stream().filter(t -> !partitionCounts.containsKey(t))
                .forEach(t -> causes.add(unreadableTopics.containsKey(t) ? new RebalanceCause.TopicUnreadable(t)
                        : new RebalanceCause.TopicDeleted(t)));
        return causes;
    }

    private static Member nextOrNull(Iterator<Member> members) {
        return members.hasNext() ? members.next() : null;
    }

    /** Registered members with readable registrations, by id. */
    public Map<ConsumerId, Member> members() {
        return members;
    }

    /** Members whose registration could not be read: left out of the assignment. */
    public List<Unreadable> malformed() {
        return malformed;
    }

    /** Members beyond the group size cap (latest registrations first out). */
    public Set<ConsumerId> refused() {
        return refused;
    }

    /** Every existing topic (read only when a wildcard subscription needs it). */
    public List<String> topics() {
        return topics;
    }

    /** Partition counts of the topics this member subscribes to. */
    public Map<String, Integer> partitionCounts() {
        return partitionCounts;
    }

    /**
     * By topic, the subscribed topics whose registration cannot be read: they have no known partitions for this
     * look, so nobody is assigned any of them (see {@link ZkTopicMetadata}).
     */
    public Map<String, Unreadable> unreadableTopics() {
        return unreadableTopics;
    }

    /** The assignor's input: admitted members' expanded subscriptions and the counts. */
    public GroupSnapshot snapshot() {
        return snapshot;
    }

    @Override
    public boolean equals(Object other) {
        if (this == other) {
            return true;
        }
        if (!(other instanceof GroupView)) {
            return false;
        }
        GroupView that = (GroupView) other;
        return Objects.equals(members, that.members) && Objects.equals(malformed, that.malformed)
                && Objects.equals(refused, that.refused) && Objects.equals(topics, that.topics)
                && Objects.equals(partitionCounts, that.partitionCounts)
                && Objects.equals(unreadableTopics, that.unreadableTopics) && Objects.equals(snapshot, that.snapshot);
    }

    @Override
    public int hashCode() {
        return Objects.hash(members, malformed, refused, topics, partitionCounts, unreadableTopics, snapshot);
    }

    @Override
    public String toString() {
        return "GroupView[members=" + members + ", malformed=" + malformed + ", refused=" + refused
                + ", topics=" + topics + ", partitionCounts=" + partitionCounts
                + ", unreadableTopics=" + unreadableTopics + ", snapshot=" + snapshot + "]";
    }
}
