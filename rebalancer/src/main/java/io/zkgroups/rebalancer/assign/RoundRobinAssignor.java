package io.zkgroups.rebalancer.assign;

import io.zkgroups.registry.Immutable;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;

/**
 * 0.8.2.2's {@code roundrobin} strategy (docs/compatibility.md#roundrobin): all partitions of all topics are
 * dealt, one by one, to the group's threads in turn.
 * <p>
 * Threads are sorted by the text of their id ({@code c-10 < c-2}). Partitions are sorted by the Java
 * {@code String.hashCode} of their {@code "[T,P]"} text, as a signed int, ascending. This scatters a topic's
 * partitions over the threads and is <em>not</em> topic-then-partition order.
 * <p>
 * Example (vector V11 of docs/compatibility.md#assignment-vectors): members {@code g11_a}, {@code g11_b},
 * {@code g11_c}, each {orders:1, clicks:1}; orders has 12 partitions, clicks 4.
 * The threads are a-0, b-0, c-0. The sort keys are
 * {@code [orders,0]} −1093576615 … {@code [orders,9]} −1093576336, then {@code [orders,10]} 458862962,
 * {@code [orders,11]} 458862993, then {@code [clicks,0]} 1627908499 … {@code [clicks,3]} 1627908592. Dealing
 * in that order:
 * <pre>
 *   a-0: [orders,0] [orders,3] [orders,6] [orders,9]  [clicks,0] [clicks,3]
 *   b-0: [orders,1] [orders,4] [orders,7] [orders,10] [clicks,1]
 *   c-0: [orders,2] [orders,5] [orders,8] [orders,11] [clicks,2]
 * </pre>
 * Range would instead give a-0 orders 0–3 and clicks 0–1 (V12).
 * <p>
 * Preconditions, checked on every call:
 * <ul>
 *   <li>Every member subscribes to the same topics with one stream count for all of them (members that subscribe
 *       to nothing are ignored, as in 0.8.2.2). Otherwise {@link IncompatibleSubscriptionException}: 0.8.2.2
 *       members fail every rebalance of such a group (V6, V7). Use {@link #validate} before joining.</li>
 *   <li>No exact hash collision between partitions of different topics changes the result. 0.8.2.2 breaks such
 *       ties by a Scala {@code HashMap} order we cannot reproduce, so we throw
 *       {@link AmbiguousAssignmentException} rather than guess. A collision is harmless within one topic (its
 *       partitions stay ascending) or when each colliding topic has a multiple of the thread count among the
 *       colliding partitions, e.g. with one thread. Collisions need crafted names such as topics {@code Aa} and
 *       {@code BB} (whose {@code [Aa,P]} and {@code [BB,P]} always collide).</li>
 * </ul>
 */
public final class RoundRobinAssignor implements PartitionAssignor {

    @Override
    public String name() {
        return ROUND_ROBIN;
    }

    /**
     * @throws IncompatibleSubscriptionException if the members' subscriptions are not uniform
     * @throws AmbiguousAssignmentException      if a cross-topic hash collision makes 0.8.2.2's result unknowable
     */
    @Override
    public Assignment assign(GroupSnapshot group) {
        Objects.requireNonNull(group, "group snapshot cannot be null");
        RoundRobinCompatibility.require(group);
        SortedSet<String> topics = group.subscribedTopics();
        if (topics.isEmpty()) {
            return Assignment.empty();
        }
        // Compatible subscriptions give every topic the same threads; 0.8.2.2 takes the first topic's.
        List<ThreadId> threads = group.threadsOf(topics.first());
        List<TopicAndPartition> partitions = RoundRobinOrder.sorted(
                topics.stream().flatMap(topic -> group.partitionsOf(topic).stream())
                        .collect(Immutable.toList()));
        RoundRobinOrder.requireUnambiguous(partitions, threads.size());

        SortedMap<TopicAndPartition, ThreadId> owners = new TreeMap<>();
        for (int i = 0; i < partitions.size(); i++) {
            owners.put(partitions.get(i), threads.get(i % threads.size()));
        }
        return new Assignment(owners);
    }

    /**
     * Checks that round robin can assign a group whose members have these subscriptions (topic → stream count).
     * Partition counts do not matter here; {@link #assign} additionally checks for hash collisions.
     *
     * @throws IncompatibleSubscriptionException naming every member whose subscription breaks the rule
     */
    public static void validate(Map<ConsumerId, Map<String, Integer>> subscriptions) {
        RoundRobinCompatibility.require(new GroupSnapshot(subscriptions, Collections.emptyMap()));
    }

    /**
     * Checks, before registering, whether {@code candidate} with {@code subscription} would be compatible with the
     * current {@code members}. An existing entry for {@code candidate} (a stale registration of its own) is
     * replaced, not compared against.
     *
     * @throws IncompatibleSubscriptionException if the group with the candidate in it could not be assigned;
     *                                           joining would make every round-robin member's rebalance fail
     */
    public static void validateJoin(ConsumerId candidate, Map<String, Integer> subscription,
                                    Map<ConsumerId, Map<String, Integer>> members) {
        RoundRobinCompatibility.require(new GroupSnapshot(members, Collections.emptyMap()).withMember(candidate, subscription));
    }
}
