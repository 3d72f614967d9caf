package io.zkgroups.tool.health;

import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.store.PartitionOwner;
import io.zkgroups.registry.store.Unreadable;
import io.zkgroups.rebalancer.assign.GroupSnapshot;
import io.zkgroups.rebalancer.assign.PartitionAssignor;
import io.zkgroups.tool.group.MigrationPhase;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Everything {@link HealthCheck} looks at, read at one moment.
 *
 * @param subscriptions      every readable member's topic → stream count, wildcards expanded
 * @param unreadableMembers  registrations that could not be decoded
 * @param partitionCounts    partition counts of the subscribed topics that exist
 * @param owners             every owner znode
 * @param unreadableOwners   owner znodes that could not be read
 * @param unreadableOffsets  offset znodes that could not be read, of the partitions the group owns or must own
 * @param unreadableTopics   registrations of subscribed topics that could not be read
 * @param expectMembers      {@code --expect-members}, or null
 * @param stores             the store check, or null when it is off
 * @param stickyMembers      the members whose registration advertises the sticky assignor
 */
public record HealthInput(String group, Map<ConsumerId, Map<String, Integer>> subscriptions,
                          List<Unreadable> unreadableMembers, Map<String, Integer> partitionCounts,
                          List<PartitionOwner> owners, List<Unreadable> unreadableOwners,
                          List<Unreadable> unreadableOffsets, List<Unreadable> unreadableTopics,
                          PartitionAssignor assignor, Integer expectMembers, StoreCheck stores,
                          Set<ConsumerId> stickyMembers) {

    /** An input in which no member advertises the sticky assignor. */
    public HealthInput(String group, Map<ConsumerId, Map<String, Integer>> subscriptions,
                       List<Unreadable> unreadableMembers, Map<String, Integer> partitionCounts,
                       List<PartitionOwner> owners, List<Unreadable> unreadableOwners,
                       List<Unreadable> unreadableOffsets, List<Unreadable> unreadableTopics,
                       PartitionAssignor assignor, Integer expectMembers, StoreCheck stores) {
        this(group, subscriptions, unreadableMembers, partitionCounts, owners, unreadableOwners, unreadableOffsets,
                unreadableTopics, assignor, expectMembers, stores, Set.of());
    }

    /** What the assignor sees: subscriptions, partition counts and who advertises sticky. */
    public GroupSnapshot snapshot() {
        return new GroupSnapshot(subscriptions, partitionCounts, stickyMembers);
    }

    /**
     * The dual-commit agreement check.
     *
     * @param phase     the inferred phase; only {@code dual-commit} is checked
     * @param tolerance largest allowed |kafka − zookeeper| per partition
     */
    public record StoreCheck(MigrationPhase phase, Map<TopicAndPartition, Long> zk, Map<TopicAndPartition, Long> kafka,
                             long tolerance) {
        public StoreCheck {
            Objects.requireNonNull(phase, "phase");
            zk = Map.copyOf(zk);
            kafka = kafka == null ? null : Map.copyOf(kafka);
        }
    }

    /** Every unreadable znode: registrations, owners, offsets, topics. */
    public List<Unreadable> unreadable() {
        List<Unreadable> all = new java.util.ArrayList<>(unreadableMembers);
        all.addAll(unreadableOwners);
        all.addAll(unreadableOffsets);
        all.addAll(unreadableTopics);
        return all;
    }

    public HealthInput {
        Objects.requireNonNull(group, "group");
        subscriptions = Map.copyOf(subscriptions);
        unreadableMembers = List.copyOf(unreadableMembers);
        partitionCounts = Map.copyOf(partitionCounts);
        owners = List.copyOf(owners);
        unreadableOwners = List.copyOf(unreadableOwners);
        unreadableOffsets = List.copyOf(unreadableOffsets);
        unreadableTopics = List.copyOf(unreadableTopics);
        Objects.requireNonNull(assignor, "assignor");
        stickyMembers = Set.copyOf(stickyMembers);
    }
}
