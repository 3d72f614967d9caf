package io.zkgroups.tool.group;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code groups describe --members}, as Kafka's {@code --describe --members}: per registered member its consumer
 * id, host, thread count and the partitions it owns. Pure.
 */
public record GroupMembersView(String group, List<Member> members) {

    /** One member; {@code assignment} is topic → owned partitions. */
    public record Member(String consumerId, String host, int threads, int partitions, String subscription,
                         Map<String, List<Integer>> assignment) {

        /** {@code orders:0,1;payments:2} ({@code -} for none). */
        public String assignmentText() {
            List<String> parts = new ArrayList<>();
            assignment.forEach((topic, ps) -> parts.add(topic + ":" + String.join(",", ps.stream().map(String::valueOf).toList())));
            return parts.isEmpty() ? "-" : String.join(";", parts);
        }
    }

    public static GroupMembersView of(GroupDescription d) {
        List<Member> members = new ArrayList<>();
        for (GroupDescription.MemberRow m : d.members()) {
            Map<String, List<Integer>> assignment = new TreeMap<>();
            d.partitions().stream().filter(p -> m.consumerId().equals(p.consumerId()))
                    .forEach(p -> assignment.computeIfAbsent(p.topic(), t -> new ArrayList<>()).add(p.partition()));
            members.add(new Member(m.consumerId(), m.host(), m.threads(), m.ownedPartitions(), m.subscription(), assignment));
        }
        return new GroupMembersView(d.group(), members);
    }
}
