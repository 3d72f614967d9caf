package io.zkgroups.tool.health;

import io.zkgroups.registry.codec.MemberAlarmsCodec;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.store.PartitionOwner;
import io.zkgroups.registry.store.Unreadable;
import io.zkgroups.rebalancer.assign.Assignment;
import io.zkgroups.rebalancer.assign.AssignmentRefusedException;
import io.zkgroups.rebalancer.assign.BalanceCheck;
import io.zkgroups.rebalancer.assign.GroupSnapshot;
import io.zkgroups.rebalancer.assign.PartitionAssignor;
import io.zkgroups.rebalancer.assign.RendezvousAssignor;
import io.zkgroups.rebalancer.assign.StickyAssignor;
import io.zkgroups.tool.group.MigrationPhase;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Decides whether a group is healthy. Pure: a {@link HealthInput} in, a {@link HealthReport} out.
 * <ol>
 *   <li>every znode that can stop part of the group is readable: registrations (one malformed registration makes
 *       every 0.8.2.2 member's rebalance fail), owners, the offsets of the partitions the group owns or must own
 *       (a member cannot resume a partition from an unreadable offset, so it stops there while it owns it) and the
 *       subscribed topics' registrations (their partitions are assigned to nobody); each is named with its
 *       reason;</li>
 *   <li>members: at least one registered member, and exactly {@code --expect-members} if given;</li>
 *   <li>the assignor can assign the group (round-robin refuses unequal subscriptions, as 0.8.2.2 does);</li>
 *   <li>every partition of every subscribed topic has an owner znode;</li>
 *   <li>every owner is a thread of a registered member;</li>
 *   <li>every owner is the thread the assignor gives the partition for the registered members — the
 *       assignment is complete and no rebalance is pending; in a sticky group (every member advertises the
 *       sticky assignor) instead: every owner is a thread of a member subscribed to the topic, and per topic the
 *       threads' counts differ by at most one;</li>
 *   <li>in the {@code dual-commit} phase (when the store check is on): for every partition of the subscribed
 *       topics, ZooKeeper and Kafka both hold an offset, or neither does, and they differ by at most the
 *       tolerance.</li>
 * </ol>
 */
public final class HealthCheck {

    private static final int SHOWN = 5;

    private HealthCheck() {
    }

    public static HealthReport evaluate(HealthInput in) {
        List<HealthReport.Finding> findings = new ArrayList<>();
        Set<ConsumerId> members = new TreeSet<>(in.subscriptions().keySet());
        int memberCount = members.size() + in.unreadableMembers().size();
        if (memberCount == 0) {
            findings.add(finding(HealthCondition.MEMBERS, "no member is registered under /consumers/" + in.group() + "/ids"));
        } else if (in.expectMembers() != null && memberCount != in.expectMembers()) {
            findings.add(finding(HealthCondition.MEMBERS, memberCount + " members registered, expected "
                    + in.expectMembers() + ": " + shortList(members.stream().map(ConsumerId::value).toList())));
        }
        List<Unreadable> unreadable = in.unreadable();
        if (!unreadable.isEmpty()) {
            findings.add(finding(HealthCondition.UNREADABLE, unreadable.size() + " znodes cannot be read, each stops what "
                    + "it names until it is repaired or deleted: " + String.join("; ", unreadable.stream()
                    .map(u -> u.path() + " (" + u.reason() + ")").toList())));
        }

        Map<TopicAndPartition, PartitionOwner> owners = new TreeMap<>();
        in.owners().forEach(o -> owners.put(o.partition(), o));

        GroupSnapshot snapshot = in.snapshot();
        PartitionAssignor assignor = in.assignor() instanceof StickyAssignor sticky ? sticky.inEffect(snapshot)
                : in.assignor();
        // A sticky group promises validity and balance, not one exact answer; a mixed group is range exactly.
        boolean byBalance = assignor instanceof RendezvousAssignor;
        Assignment expected = null;
        if (!members.isEmpty()) {
            try {
                expected = assignor.assign(snapshot);
            } catch (AssignmentRefusedException e) {
                findings.add(finding(HealthCondition.ASSIGNOR_REFUSED, "the " + assignor.name()
                        + " assignor refuses this group: " + e.getMessage()));
            }
        }

        List<String> unowned = new ArrayList<>();
        List<String> foreign = new ArrayList<>();
        List<String> misplaced = new ArrayList<>();
        Map<TopicAndPartition, ThreadId> ownedByMembers = new TreeMap<>();
        int owned = 0;
        if (expected != null) {
            for (Map.Entry<TopicAndPartition, ThreadId> e : expected.owners().entrySet()) {
                if (!owners.containsKey(e.getKey())) {
                    unowned.add(label(e.getKey()));
                }
            }
        }
        for (PartitionOwner owner : owners.values()) {
            owned++;
            ThreadId thread = owner.threadAmong(members).orElse(null);
            if (thread == null || !members.contains(thread.consumer())) {
                foreign.add(label(owner.partition()) + " by '" + owner.value() + "'");
                continue;
            }
            if (expected == null) {
                continue;
            }
            ThreadId wanted = expected.owners().get(owner.partition());
            if (wanted == null) {
                misplaced.add(label(owner.partition()) + " owned by " + owner.value() + ", which no member should own");
            } else if (byBalance) {
                ownedByMembers.put(owner.partition(), thread); // judged as a whole below
            } else if (!wanted.equals(thread)) {
                misplaced.add(label(owner.partition()) + " owned by " + owner.value() + ", the " + assignor.name()
                        + " assignor gives it to " + wanted);
            }
        }
        if (expected != null && byBalance) {
            misplaced.addAll(BalanceCheck.problems(snapshot, ownedByMembers));
        }
        if (!unowned.isEmpty()) {
            findings.add(finding(HealthCondition.UNOWNED, unowned.size() + " partitions have no owner: " + shortList(unowned)));
        }
        if (!foreign.isEmpty()) {
            findings.add(finding(HealthCondition.FOREIGN_OWNER, foreign.size()
                    + " partitions are owned by threads of no registered member: " + shortList(foreign)));
        }
        if (!misplaced.isEmpty()) {
            findings.add(finding(HealthCondition.ASSIGNMENT, byBalance
                    ? "the owners are not a valid, balanced sticky assignment of the registered members: "
                    + shortList(misplaced)
                    : misplaced.size() + " owners differ from the assignment of the registered members: "
                    + shortList(misplaced)));
        }

        String storeStatus = checkStores(in, findings);
        int partitions = expected == null ? in.partitionCounts().values().stream().mapToInt(Integer::intValue).sum()
                : expected.size();
        return new HealthReport(in.group(), assignor.name(), memberCount, partitions, owned, findings, storeStatus,
                unreadable);
    }

    /**
     * Adds what registered zkgroups members publish they cannot do now ({@code /consumers/G/zkgroups-alarms}):
     * partitions Kafka does not let them fetch, offsets they cannot read. The group looks complete in ZooKeeper, but
     * those partitions do not progress. Rewinds a member already wrote back are no finding ({@link #restoredRewinds}).
     */
    public static HealthReport withMemberAlarms(HealthReport report, Map<ConsumerId, List<Unreadable>> alarms) {
        List<String> named = new ArrayList<>();
        int count = 0;
        for (Map.Entry<ConsumerId, List<Unreadable>> member : alarms.entrySet()) {
            List<Unreadable> current = member.getValue().stream().filter(a -> !MemberAlarmsCodec.isRestoredRewind(a)).toList();
            if (!current.isEmpty()) {
                count += current.size();
                named.add(member.getKey().value() + ": " + memberAlarmSummary(current));
            }
        }
        if (named.isEmpty()) {
            return report;
        }
        return report.withFindings(List.of(finding(HealthCondition.MEMBER_ALARMS, named.size()
                + " members report " + count + " partitions they cannot fetch or resume: " + String.join("; ", named))));
    }

    /**
     * The rewinds registered members wrote back within the alarm's hold (docs/fence.md): one line each, naming the
     * member, the offset znode and what was written. Notices: the offset is whole again, so the group stays healthy.
     */
    public static List<String> restoredRewinds(Map<ConsumerId, List<Unreadable>> alarms) {
        List<String> notices = new ArrayList<>();
        alarms.forEach((member, list) -> list.stream().filter(MemberAlarmsCodec::isRestoredRewind)
                .forEach(a -> notices.add(member.value() + ": " + a.path() + " " + a.reason())));
        return notices;
    }

    /**
     * One member's alarms in a line: the partitions grouped by reason ({@code kafka:t-0, kafka:t-1 (cannot be fetched:
     * no connection to any broker since ...)}), at most {@value #SHOWN} named per reason.
     */
    static String memberAlarmSummary(List<Unreadable> alarms) {
        Map<String, List<String>> byReason = new TreeMap<>();
        alarms.forEach(a -> byReason.computeIfAbsent(a.reason(), r -> new ArrayList<>()).add(a.path()));
        List<String> parts = new ArrayList<>();
        byReason.forEach((reason, paths) -> parts.add(shortList(paths) + " (" + reason + ")"));
        return String.join(", ", parts);
    }

    private static String checkStores(HealthInput in, List<HealthReport.Finding> findings) {
        HealthInput.StoreCheck check = in.stores();
        if (check == null) {
            return "not checked (--no-store-check)";
        }
        if (check.phase() != MigrationPhase.DUAL_COMMIT) {
            return "not applicable in the " + check.phase().label() + " phase";
        }
        if (check.kafka() == null) {
            return "not checked: Kafka was not queried";
        }
        Set<TopicAndPartition> partitions = new TreeSet<>();
        check.zk().keySet().stream().filter(tp -> in.partitionCounts().containsKey(tp.topic())).forEach(partitions::add);
        check.kafka().keySet().stream().filter(tp -> in.partitionCounts().containsKey(tp.topic())).forEach(partitions::add);
        List<String> disagree = new ArrayList<>();
        for (TopicAndPartition tp : partitions) {
            Long z = check.zk().get(tp);
            Long k = check.kafka().get(tp);
            if (z == null || k == null) {
                disagree.add(label(tp) + " zookeeper=" + (z == null ? "none" : z) + " kafka=" + (k == null ? "none" : k));
            } else if (Math.abs(k - z) > check.tolerance()) {
                disagree.add(label(tp) + " zookeeper=" + z + " kafka=" + k);
            }
        }
        if (!disagree.isEmpty()) {
            findings.add(finding(HealthCondition.STORES, disagree.size() + " partitions differ between ZooKeeper and Kafka"
                    + " by more than " + check.tolerance() + ": " + shortList(disagree)));
            return disagree.size() + " of " + partitions.size() + " partitions differ";
        }
        return "ZooKeeper and Kafka agree on " + partitions.size() + " partitions (tolerance " + check.tolerance() + ")";
    }

    private static HealthReport.Finding finding(HealthCondition c, String message) {
        return new HealthReport.Finding(c, message);
    }

    static String label(TopicAndPartition tp) {
        return tp.topic() + ":" + tp.partition();
    }

    static String shortList(List<String> items) {
        if (items.size() <= SHOWN) {
            return String.join(", ", items);
        }
        return String.join(", ", items.subList(0, SHOWN)) + " and " + (items.size() - SHOWN) + " more";
    }
}
