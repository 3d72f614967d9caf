package io.zkgroups.rebalancer.group;

import io.zkgroups.rebalancer.assign.AssignmentRefusedException;
import io.zkgroups.rebalancer.assign.GroupSnapshot;
import io.zkgroups.rebalancer.assign.PartitionAssignor;
import io.zkgroups.registry.model.MemberRegistration;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.store.Listing;
import io.zkgroups.registry.store.Member;
import io.zkgroups.registry.store.MemberList;
import io.zkgroups.registry.store.OwnerRegistry;
import org.apache.zookeeper.Watcher;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a member does before it registers: everything its first rebalance reads or creates that does not depend on its
 * own registration. From the moment it registers the whole group waits for its claim; the work it does first costs
 * only its own start. That is the member list (watched: the read after registering fetches only what is new, its
 * own registration included), the partition counts of its topics (kept while their watch holds), and the owner
 * directories its claims go to, and the assignment it expects: that of the group it read plus itself, which its first
 * rebalance reuses ({@link AssignmentMemo}) when the group it reads after registering is that one. For a fresh process
 * it is also where these paths' classes are loaded and linked for the first time (Curator's builders, the async
 * pipeline, the registration codec's JSON deserializers, the assignor), which took a few hundred milliseconds of the
 * group's time when it happened after registering. Last, it rehearses the pure part of reacting to someone else's
 * join or leave ({@link ChangeRehearsal}), which a member otherwise does for the first time while the group waits.
 */
final class JoinPreparation {

    private JoinPreparation() {
    }

    /** Reads ahead, arming {@code membershipWatcher} on the member list and {@code onChange} on the topics. */
    static void run(GroupMemberConfig config, MemberList members, Watcher membershipWatcher, TopicMetadata topicMetadata,
                    Runnable onChange, OwnerRegistry owners, PartitionAssignor assignor, AssignmentMemo assignments) {
        Listing<Member> listing = members.read(membershipWatcher).listing();
        List<String> topics = GroupView.needsTopicList(listing.entries(), config.subscription())
                ? topicMetadata.topics(onChange) : List.of();
        Set<String> own = config.subscription().topicStreams(topics, config.excludeInternalTopics()).keySet();
        Map<String, Integer> counts = topicMetadata.counts(own, onChange).partitionCounts();
        owners.prepareClaims(config.group(), counts.keySet());
        List<Member> expected = withSelf(config, listing);
        Map<TopicAndPartition, ThreadId> mine;
        try {
            mine = assignments.assign(expected(config, expected, topics, counts)).forConsumer(config.consumerId())
                    .owners();
        } catch (AssignmentRefusedException e) {
            return; // only an expectation: the join decides (a round-robin member may be refused before it registers)
        }
        ChangeRehearsal.run(config, assignor, expected, topics, counts, mine);
    }

    /** The members the first rebalance will read if nobody else joins or leaves meanwhile. */
    private static List<Member> withSelf(GroupMemberConfig config, Listing<Member> listing) {
        // the youngest registration: a size cap admits it after everyone already there
        Member self = new Member(config.consumerId(), MemberRegistration.of(config.subscription(), 0), Long.MAX_VALUE, 0);
        List<Member> all = new ArrayList<>(listing.entries());
        all.removeIf(m -> m.id().equals(self.id()));
        all.add(self);
        return all;
    }

    /** The snapshot of {@code members} as GroupMember builds it. */
    private static GroupSnapshot expected(GroupMemberConfig config, List<Member> members, List<String> topics,
                                          Map<String, Integer> counts) {
        return new GroupSnapshot(GroupView.expand(GroupView.admitted(members, config.maxGroupSize()), topics,
                config.excludeInternalTopics()), counts);
    }
}
