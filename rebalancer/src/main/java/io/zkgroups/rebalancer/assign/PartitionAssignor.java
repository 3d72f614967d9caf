package io.zkgroups.rebalancer.assign;

import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A 0.8.2.2 {@code partition.assignment.strategy}: a pure function from a group snapshot to the whole group's
 * assignment. Every member of a group must use the same strategy; 0.8.2.2 does not check this.
 */
public interface PartitionAssignor {

    /** The {@code partition.assignment.strategy} value of {@link RangeAssignor}, 0.8.2.2's default. */
    String RANGE = "range";

    /** The {@code partition.assignment.strategy} value of {@link RoundRobinAssignor}. */
    String ROUND_ROBIN = "roundrobin";

    /** The {@code partition.assignment.strategy} value of {@link StickyAssignor}: zkgroups only, never 0.8.2.2's. */
    String STICKY = "sticky";

    /** The strategy name as written in {@code partition.assignment.strategy}. */
    String name();

    /**
     * Assigns every partition of every subscribed, existing topic to exactly one thread of a member that
     * subscribes to that topic. The result is the union of what every 0.8.2.2 member would compute for itself.
     *
     * @throws AssignmentRefusedException when the strategy cannot assign this group the way 0.8.2.2 members would
     */
    Assignment assign(GroupSnapshot group);

    /**
     * What {@code member} gets of {@link #assign}: equal to {@code assign(group).forConsumer(member).owners()}. A
     * member computes only its own share on every rebalance; an assignor that can do that without the whole group's
     * assignment (range: one slice per topic) overrides this, so the work per member does not grow with the
     * partitions of others.
     *
     * @throws AssignmentRefusedException as {@link #assign} does
     */
    default Map<TopicAndPartition, ThreadId> assignTo(GroupSnapshot group, ConsumerId member) {
        return assign(group).forConsumer(member).owners();
    }

    /** How an assignor that treats each topic on its own assigns one topic's partitions to its threads. */
    @FunctionalInterface
    interface TopicAssigner {
        void assign(List<ThreadId> threads, List<TopicAndPartition> partitions, Map<TopicAndPartition, ThreadId> owners);
    }

    /** The group's assignment, each subscribed topic assigned on its own by {@code assigner} (range, sticky). */
    static Assignment topicByTopic(GroupSnapshot group, TopicAssigner assigner) {
        Objects.requireNonNull(group, "group snapshot cannot be null");
        SortedMap<TopicAndPartition, ThreadId> owners = new TreeMap<>();
        for (String topic : group.subscribedTopics()) {
            assigner.assign(group.threadsOf(topic), group.partitionsOf(topic), owners);
        }
        return new Assignment(owners);
    }

    /**
     * The assignor for a {@code partition.assignment.strategy} value registered in {@link Assignors}: 0.8.2.2's
     * {@code "range"} and {@code "roundrobin"}, zkgroups' {@code "sticky"} ({@link StickyAssignor}), compared exactly
     * (case-sensitive), like 0.8.2.2.
     * <p>
     * Deviation from 0.8.2.2: {@code PartitionAssignor.createInstance} maps <em>any</em> other string, including
     * typos such as {@code "RoundRobin"}, silently to range. We reject such values instead, because a member that
     * silently runs a different strategy than the rest of its group fights them over partitions.
     *
     * @throws NullPointerException     if {@code strategy} is null
     * @throws IllegalArgumentException if no assignor is registered under {@code strategy}; the message names the
     *                                  value and the allowed ones
     */
    static PartitionAssignor forStrategy(String strategy) {
        Objects.requireNonNull(strategy, "partition.assignment.strategy cannot be null");
        AssignorType type = Assignors.find(strategy);
        if (type == null) {
            throw new IllegalArgumentException("unknown partition.assignment.strategy '" + strategy
                    + "': allowed values are " + Assignors.namesQuoted() + " (exact, case-sensitive; "
                    + "0.8.2.2 would silently treat this value as '" + RANGE + "')");
        }
        return type.create();
    }
}
