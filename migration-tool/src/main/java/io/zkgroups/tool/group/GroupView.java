package io.zkgroups.tool.group;

import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.store.Listing;
import io.zkgroups.registry.store.Member;
import io.zkgroups.registry.store.PartitionOwner;
import io.zkgroups.registry.store.MemberAlarmRegistry;
import io.zkgroups.registry.store.Unreadable;
import io.zkgroups.tool.io.ZkOffsetSnapshot;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * One group as read at one moment from ZooKeeper (and Kafka, if queried).
 *
 * @param existsInZk      {@code /consumers/G} exists
 * @param subscriptions   readable members' topic → stream count, wildcards expanded against the existing topics
 * @param partitionCounts partition counts of every topic the group touches (subscribed, owned, with offsets)
 *                        that exists and can be read
 * @param unreadableTopics by topic, the registrations of those topics that exist but cannot be read
 * @param kafka           Kafka offsets, null when Kafka was not queried
 * @param readAt          ZooKeeper's time of the read
 * @param kafkaProblem    why Kafka's half is missing when Kafka was asked and did not answer; null otherwise
 * @param memberAlarms    what zkgroups members publish they cannot do now (partitions Kafka does not let them fetch,
 *                        offsets they cannot read), by member
 */
public record GroupView(String group, boolean existsInZk, Listing<Member> members,
                        Map<ConsumerId, Map<String, Integer>> subscriptions, Listing<PartitionOwner> owners,
                        Map<String, Integer> partitionCounts, Map<String, Unreadable> unreadableTopics,
                        ZkOffsetSnapshot zk, Map<TopicAndPartition, Long> kafka, PhaseInference.Result phase,
                        Instant readAt, String kafkaProblem, MemberAlarmRegistry.Reading memberAlarms) {

    /** Topics at least one member subscribes to. */
    public Set<String> subscribedTopics() {
        Set<String> topics = new TreeSet<>();
        subscriptions.values().forEach(s -> topics.addAll(s.keySet()));
        return topics;
    }

    /** Partition counts of the subscribed topics only (the input of the assignor). */
    public Map<String, Integer> subscribedPartitionCounts() {
        Map<String, Integer> counts = new java.util.TreeMap<>();
        for (String topic : subscribedTopics()) {
            Integer n = partitionCounts.get(topic);
            if (n != null) {
                counts.put(topic, n);
            }
        }
        return counts;
    }

    /** The alarms of registered members only: a znode left by a member gone is not the group's. */
    public Map<ConsumerId, List<Unreadable>> registeredMembersAlarms() {
        Map<ConsumerId, List<Unreadable>> alarms = new java.util.TreeMap<>(memberAlarms.alarms());
        alarms.keySet().retainAll(members.entries().stream().map(Member::id).toList());
        alarms.values().removeIf(List::isEmpty);
        return alarms;
    }

    public boolean hasMembers() {
        return !members.entries().isEmpty() || !members.unreadable().isEmpty();
    }

    /** Whether either store holds an offset, or a member or owner exists: the group is known. */
    public boolean isKnown() {
        return existsInZk || (kafka != null && !kafka.isEmpty());
    }
}
