package io.zkgroups.tool.group;

import io.zkgroups.registry.model.Coordinator;
import io.zkgroups.registry.model.CoordinationDecision;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.tool.io.Clients;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Kafka's side of a group whose decision znode says {@code kafka} (docs/cutover.md): the state, members and
 * assignment Kafka's group coordinator holds, read through the Admin API.
 *
 * @param state       Kafka's group state, lower case ({@code stable}, {@code preparing-rebalance}, {@code empty}, ...)
 * @param assignor    the partition assignor Kafka's group uses (empty when none was chosen yet)
 * @param broker      the coordinator broker, {@code host:port}, or null when unknown
 * @param members     Kafka's members, each with its assignment
 */
public record KafkaCoordination(String group, String state, String assignor, String broker, List<KafkaMember> members) {

    /** A zkgroups member's {@code client.id} in Kafka's group ends with this (docs/cutover.md). */
    public static final String ZKGROUPS_CLIENT_SUFFIX = "-zkgroups";

    public KafkaCoordination {
        members = List.copyOf(members);
    }

    /**
     * One member of Kafka's group.
     *
     * @param zkgroups whether it is a zkgroups member (keeps owner znodes as fences) rather than a plain client
     */
    public record KafkaMember(String memberId, String clientId, String host, Set<TopicAndPartition> assignment,
                              boolean zkgroups) {
        public KafkaMember {
            assignment = Set.copyOf(assignment);
        }
    }

    /** Which coordinator {@code group} follows: its decision znode, absent meaning ZooKeeper. */
    public static Coordinator decided(Clients clients, String group) {
        return clients.zk().registry().coordination().decision(group).map(CoordinationDecision::coordinator)
                .orElse(Coordinator.ZOOKEEPER);
    }

    /**
     * Kafka's group of {@code group} when its decision says {@code kafka}; empty when it follows ZooKeeper. Needs
     * Kafka (a {@link io.zkgroups.tool.CliException} naming what was asked when it is not configured or does not
     * answer).
     */
    public static Optional<KafkaCoordination> read(Clients clients, String group) {
        if (decided(clients, group) != Coordinator.KAFKA) {
            return Optional.empty();
        }
        Optional<ConsumerGroupDescription> d = clients.requireKafka("to read group " + group
                + ", which is coordinated by Kafka").describeGroup(group);
        return Optional.of(d.map(KafkaCoordination::of).orElse(new KafkaCoordination(group, "dead", "", null, List.of())));
    }

    /** Pure: the facts of a description. */
    public static KafkaCoordination of(ConsumerGroupDescription d) {
        List<KafkaMember> members = new ArrayList<>();
        for (MemberDescription m : d.members()) {
            Set<TopicAndPartition> assigned = new TreeSet<>();
            m.assignment().topicPartitions().forEach(tp -> assigned.add(new TopicAndPartition(tp.topic(), tp.partition())));
            String host = m.host() == null ? null : m.host().replaceFirst("^/", "");
            members.add(new KafkaMember(m.consumerId(), m.clientId(), host, assigned,
                    m.clientId() != null && m.clientId().endsWith(ZKGROUPS_CLIENT_SUFFIX)));
        }
        members.sort(java.util.Comparator.comparing(KafkaMember::clientId).thenComparing(KafkaMember::memberId));
        String broker = d.coordinator() == null ? null : d.coordinator().host() + ":" + d.coordinator().port();
        return new KafkaCoordination(d.groupId(), d.state().toString()
                .replaceAll("([a-z])([A-Z])", "$1-$2").toLowerCase(java.util.Locale.ROOT),
                d.partitionAssignor() == null ? "" : d.partitionAssignor(), broker, members);
    }

    /** The member Kafka assigns {@code tp} to, if any. */
    public Optional<KafkaMember> assigneeOf(TopicAndPartition tp) {
        return members.stream().filter(m -> m.assignment().contains(tp)).findFirst();
    }

    public boolean stable() {
        return state.equals("stable");
    }
}
