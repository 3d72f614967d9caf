package io.zkgroups.tool.health;

import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.store.Listing;
import io.zkgroups.registry.store.Member;
import io.zkgroups.registry.store.PartitionOwner;
import io.zkgroups.tool.group.KafkaCoordination;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The health of a group on Kafka's group coordinator (docs/cutover.md): judged by Kafka's group (its state, members
 * and assignment) and by the owner znodes its zkgroups members keep as fences, not by ZooKeeper registrations (a
 * member on Kafka has none). Healthy when Kafka's group is stable with the expected members, assigns every partition
 * of the topics the group touches, each partition Kafka gives a zkgroups member has its owner znode, and no owner znode
 * is held for a partition Kafka gives no zkgroups member (a member that has not crossed, or a 0.8.2.2 consumer), and
 * nobody is registered under {@code /consumers/G/ids}: a registration there takes part in no rebalance of Kafka's group
 * and claims nothing while the fences are held, so each one is named. Pure.
 */
public final class KafkaGroupHealth {

    /** What a member that can cross advertises in its registration (GroupMemberConfig; migrate coordination). */
    private static final String CUTOVER_CAPABILITY = "cutover";

    private KafkaGroupHealth() {
    }

    /** How {@code health} names the coordinator of a group on Kafka. */
    public static String coordinator(KafkaCoordination kafka) {
        return "kafka (group " + kafka.state() + (kafka.broker() == null ? "" : ", coordinator broker " + kafka.broker())
                + "; owner znodes are the fences)";
    }

    /**
     * @param registered      the registrations under {@code /consumers/G/ids} (a member on Kafka has none)
     * @param owners          every owner znode of the group
     * @param partitionCounts partition counts of the topics the group touches (subscribed, owned, with offsets)
     * @param expectMembers   {@code --expect-members}, or null
     */
    public static HealthReport evaluate(KafkaCoordination kafka, Listing<Member> registered, List<PartitionOwner> owners,
                                        Map<String, Integer> partitionCounts, Integer expectMembers) {
        List<HealthReport.Finding> findings = new ArrayList<>();
        String group = kafka.group();
        registrations(group, registered).ifPresent(findings::add);
        int members = kafka.members().size();
        if (members == 0) {
            findings.add(new HealthReport.Finding(HealthCondition.MEMBERS, "group " + group
                    + " is coordinated by Kafka, and Kafka's group has no member (state " + kafka.state() + ")"));
        } else if (expectMembers != null && members != expectMembers) {
            findings.add(new HealthReport.Finding(HealthCondition.MEMBERS, members + " members in Kafka's group, expected "
                    + expectMembers + ": " + HealthCheck.shortList(kafka.members().stream()
                    .map(m -> m.memberId() + " (" + m.clientId() + ")").toList())));
        }
        if (members > 0 && !kafka.stable()) {
            findings.add(new HealthReport.Finding(HealthCondition.ASSIGNMENT, "Kafka's group is " + kafka.state()
                    + ", not stable"));
        }

        Set<TopicAndPartition> partitions = new TreeSet<>();
        partitionCounts.forEach((topic, n) -> {
            for (int p = 0; p < n; p++) {
                partitions.add(new TopicAndPartition(topic, p));
            }
        });
        Map<TopicAndPartition, KafkaCoordination.KafkaMember> assignee = new TreeMap<>();
        kafka.members().forEach(m -> m.assignment().forEach(tp -> assignee.put(tp, m)));
        partitions.addAll(assignee.keySet());
        Map<TopicAndPartition, PartitionOwner> fences = new TreeMap<>();
        owners.forEach(o -> fences.put(o.partition(), o));

        List<String> unassigned = new ArrayList<>();
        List<String> unfenced = new ArrayList<>();
        for (TopicAndPartition tp : partitions) {
            KafkaCoordination.KafkaMember m = assignee.get(tp);
            if (m == null) {
                unassigned.add(tp.toString());
            } else if (m.zkgroups() && !fences.containsKey(tp)) {
                unfenced.add(tp + " (" + m.clientId() + ")");
            }
        }
        List<String> outside = new ArrayList<>();
        fences.forEach((tp, o) -> {
            KafkaCoordination.KafkaMember m = assignee.get(tp);
            if (m == null || !m.zkgroups()) {
                outside.add(tp + " by " + o.value() + (m == null ? "" : " (Kafka assigns it to " + m.clientId() + ")"));
            }
        });
        if (members > 0 && !unassigned.isEmpty()) {
            findings.add(new HealthReport.Finding(HealthCondition.UNOWNED, unassigned.size()
                    + " partitions are assigned to no member of Kafka's group: " + HealthCheck.shortList(unassigned)));
        }
        if (!outside.isEmpty()) {
            findings.add(new HealthReport.Finding(HealthCondition.FOREIGN_OWNER, outside.size() + " owner znodes are held "
                    + "for partitions Kafka gives no zkgroups member (a member that has not crossed yet, or a 0.8.2.2 "
                    + "consumer): " + HealthCheck.shortList(outside)));
        }
        if (!unfenced.isEmpty()) {
            findings.add(new HealthReport.Finding(HealthCondition.ASSIGNMENT, unfenced.size() + " partitions assigned "
                    + "to zkgroups members wait for their owner znode (the hand-off fence): "
                    + HealthCheck.shortList(unfenced)));
        }
        int owned = (int) partitions.stream().filter(assignee::containsKey).count();
        String strategy = "kafka" + (kafka.assignor().isEmpty() ? "" : ":" + kafka.assignor());
        return new HealthReport(group, strategy, members, partitions.size(), owned, findings,
                "not checked (the group is coordinated by Kafka)", List.of());
    }

    /**
     * Registrations in the ZooKeeper group of a group on Kafka: a zkgroups member that has not crossed yet, or a
     * consumer that cannot cross (0.8.2.2, kafka-node) started after the switch. The latter waits for partitions it can
     * never claim while the zkgroups members keep their owner znodes, and nothing else would tell of it.
     */
    private static Optional<HealthReport.Finding> registrations(String group, Listing<Member> registered) {
        List<String> named = new ArrayList<>();
        for (Member m : registered.entries()) {
            boolean canCross = "1".equals(m.registration().capabilities().get(CUTOVER_CAPABILITY));
            named.add(m.id().value() + (canCross ? " (a zkgroups member that has not crossed yet)"
                    : " (a 0.8.2.2 or kafka-node consumer, or a zkgroups member that cannot cross: it claims nothing)"));
        }
        registered.unreadable().forEach(u -> named.add(u.path() + " (registration unreadable: " + u.reason() + ")"));
        if (named.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new HealthReport.Finding(HealthCondition.MEMBERS, named.size() + " consumers are registered "
                + "in ZooKeeper (/consumers/" + group + "/ids) while the group is coordinated by Kafka: "
                + String.join(", ", named)));
    }
}
