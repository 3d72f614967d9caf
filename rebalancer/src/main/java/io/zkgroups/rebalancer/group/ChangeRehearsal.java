package io.zkgroups.rebalancer.group;

import io.zkgroups.rebalancer.assign.GroupSnapshot;
import io.zkgroups.rebalancer.assign.PartitionAssignor;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.MemberRegistration;
import io.zkgroups.registry.model.Subscription;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.store.Member;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The pure part of a member's reaction to a change in its group, run once before it registers, on the group it read
 * and one more member of its own making: the change list, the assignment of a changed group, what moves, and the
 * equality and hashing of the views, snapshots, causes and assignments compared along the way. Nothing is read or
 * written, and nothing it computes is kept.
 * <p>
 * Why: a member's first reaction to someone else's join or leave is where these calls first run in its process. In
 * a fresh JVM every record's {@code equals}, {@code hashCode} and {@code toString} is linked on its first call
 * (invokedynamic, mostly inside the VM), and the rebalance path is made of records; measured, a reacting member took
 * 100–150 ms longer than the others to its first log line of a rebalance, while the whole group waited for it. Done
 * here, the cost falls on the member's own start, before anyone waits for it.
 */
final class ChangeRehearsal {

    private static final Logger LOG = LoggerFactory.getLogger(ChangeRehearsal.class);

    /** The made-up member's id: a valid override id that is never registered. */
    private static final String REHEARSAL_ID = "zkgroups-rehearsal";

    private ChangeRehearsal() {
    }

    /**
     * @param group the members read before registering, this member included
     * @param was   this member's rows of the assignment of {@code group}, as the join preparation computed it
     * @return whether it ran to the end (false: it warmed less, nothing else; the real attempt will say what is wrong)
     */
    static boolean run(GroupMemberConfig config, PartitionAssignor assignor, List<Member> group, List<String> topics,
                       Map<String, Integer> counts, Map<TopicAndPartition, ThreadId> was) {
        try {
            List<Member> more = new ArrayList<>(group);
            Subscription subscription = config.subscription();
            more.add(new Member(ConsumerId.ofOverride(config.group(), REHEARSAL_ID),
                    MemberRegistration.of(subscription, 0), Long.MAX_VALUE, 0));
            GroupView before = view(config, group, topics, counts);
            GroupView after = view(config, more, topics, counts);
            Set<RebalanceCause> causes = new LinkedHashSet<>(after.changesSince(before));
            causes.addAll(before.changesSince(after));
            ConsumerId me = config.consumerId();
            Map<TopicAndPartition, ThreadId> now = assignor.assign(after.snapshot()).forConsumer(me).owners();
            SortedSet<TopicAndPartition> moving = new TreeSet<>(was.keySet());
            moving.removeAll(now.keySet());
            Map<TopicAndPartition, ThreadId> toClaim = new TreeMap<>(now);
            toClaim.keySet().removeAll(was.keySet());
            boolean unchanged = now.equals(was) && after.snapshot().equals(before.snapshot()) && after.equals(before);
            int hashes = causes.hashCode() + before.snapshot().hashCode() + after.hashCode() + toClaim.hashCode();
            LOG.trace("[{}] rehearsed {} (moving {}, claiming {}; unchanged {}, {})", me, causes, moving,
                    toClaim.values(), unchanged, hashes);
            return true;
        } catch (RuntimeException e) {
            LOG.debug("[{}] rehearsing a change of the group failed: {}", config.consumerId(), e.toString());
            return false;
        }
    }

    /** A view of {@code members} as {@link GroupMember} builds one from a listing, with nothing unreadable. */
    private static GroupView view(GroupMemberConfig config, List<Member> members, List<String> topics,
                                  Map<String, Integer> counts) {
        Map<ConsumerId, Member> admitted = GroupView.admitted(members, config.maxGroupSize());
        Map<ConsumerId, Member> byId = new TreeMap<>();
        members.forEach(m -> byId.put(m.id(), m));
        return new GroupView(byId, List.of(), GroupView.refused(members, admitted), topics, counts, Map.of(),
                new GroupSnapshot(GroupView.expand(admitted, topics, config.excludeInternalTopics()), counts,
                        GroupView.advertisingSticky(admitted)));
    }
}
