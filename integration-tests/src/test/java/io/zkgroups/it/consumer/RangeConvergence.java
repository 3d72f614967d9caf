package io.zkgroups.it.consumer;

import io.zkgroups.rebalancer.assign.GroupSnapshot;
import io.zkgroups.rebalancer.assign.RangeAssignor;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.store.Listing;
import io.zkgroups.registry.store.Member;
import io.zkgroups.registry.store.PartitionOwner;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Whether a group has converged to the assignment 0.8.2.2 computes (range) for exactly the members expected: the
 * registered members are those, and the owner znodes are exactly the range assignment of their subscriptions, every
 * partition owned. What 0.8.2.2 members act on, read from ZooKeeper alone.
 */
final class RangeConvergence {

    private final ZkRegistry registry;
    private final String group;
    private final Map<String, Integer> partitions;

    RangeConvergence(ZkRegistry registry, String group, Map<String, Integer> partitions) {
        this.registry = registry;
        this.group = group;
        this.partitions = Map.copyOf(partitions);
    }

    /** Empty when converged for {@code live} (consumer ids), else what differs. */
    String difference(Set<String> live) {
        Listing<Member> registered = registry.members().list(group);
        Set<String> ids = new TreeSet<>();
        registered.entries().forEach(m -> ids.add(m.id().value()));
        if (!registered.unreadable().isEmpty() || !ids.equals(new TreeSet<>(live))) {
            return "registered " + ids + ", expected " + new TreeSet<>(live);
        }
        Map<TopicAndPartition, String> expected = expected(registered.entries());
        Map<TopicAndPartition, String> owners = owners();
        return owners.equals(expected) ? "" : "owner znodes " + owners + ", expected " + expected;
    }

    /**
     * Whether every member of {@code members} (consumer ids, a subset of {@code live}) is where the assignment puts it:
     * the registered members are {@code live}, and every partition one of them owns, or is to own, has the owner it is to
     * have. The rest of the group may still be moving.
     */
    boolean settled(Set<String> live, Set<String> members) {
        Listing<Member> registered = registry.members().list(group);
        Set<String> ids = new TreeSet<>();
        registered.entries().forEach(m -> ids.add(m.id().value()));
        if (!registered.unreadable().isEmpty() || !ids.equals(new TreeSet<>(live))) {
            return false;
        }
        Map<TopicAndPartition, String> expected = expected(registered.entries());
        Map<TopicAndPartition, String> owners = owners();
        Set<TopicAndPartition> all = new TreeSet<>(expected.keySet());
        all.addAll(owners.keySet());
        for (TopicAndPartition tp : all) {
            String owner = owners.get(tp);
            String meant = expected.get(tp);
            boolean involvesMember = members.stream().anyMatch(id -> isThreadOf(owner, id) || isThreadOf(meant, id));
            if (involvesMember && !java.util.Objects.equals(owner, meant)) {
                return false;
            }
        }
        return true;
    }

    private static boolean isThreadOf(String thread, String consumerId) {
        return thread != null && thread.startsWith(consumerId + "-");
    }

    /** The owner znodes: partition to the consumer thread that claimed it. */
    Map<TopicAndPartition, String> owners() {
        Map<TopicAndPartition, String> owners = new TreeMap<>();
        for (PartitionOwner owner : registry.owners().owners(group).entries()) {
            owners.put(owner.partition(), owner.value());
        }
        return owners;
    }

    private Map<TopicAndPartition, String> expected(List<Member> registered) {
        List<String> topics = registry.topics().topics();
        Map<ConsumerId, Map<String, Integer>> subscriptions = new TreeMap<>();
        for (Member m : registered) {
            subscriptions.put(m.id(), m.registration().subscription().topicStreams(topics, true));
        }
        Map<TopicAndPartition, ThreadId> owners = new RangeAssignor()
                .assign(new GroupSnapshot(subscriptions, partitions)).owners();
        Map<TopicAndPartition, String> text = new TreeMap<>();
        owners.forEach((tp, thread) -> text.put(tp, thread.toString()));
        return text;
    }
}
