package io.zkgroups.rebalancer.group;

import io.zkgroups.rebalancer.assign.AssignmentRefusedException;
import io.zkgroups.rebalancer.assign.GroupSnapshot;
import io.zkgroups.registry.model.MemberRegistration;
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
 * group's time when it happened after registering.
 */
final class JoinPreparation {

    private JoinPreparation() {
    }

    /** Reads ahead, arming {@code membershipWatcher} on the member list and {@code onChange} on the topics. */
    static void run(GroupMemberConfig config, MemberList members, Watcher membershipWatcher, TopicMetadata topicMetadata,
                    Runnable onChange, OwnerRegistry owners, AssignmentMemo assignments) {
        Listing<Member> listing = members.read(membershipWatcher).listing();
        List<String> topics = GroupView.needsTopicList(listing.entries(), config.subscription())
                ? topicMetadata.topics(onChange) : List.of();
        Set<String> own = config.subscription().topicStreams(topics, config.excludeInternalTopics()).keySet();
        Map<String, Integer> counts = topicMetadata.counts(own, onChange).partitionCounts();
        owners.prepareClaims(config.group(), counts.keySet());
        try {
            assignments.assign(expected(config, listing, topics, counts)).forConsumer(config.consumerId());
        } catch (AssignmentRefusedException e) {
            // only an expectation: the join decides (a round-robin member may be refused before it registers)
        }
    }

    /** The snapshot the first rebalance will read if nobody else joins or leaves meanwhile (as GroupMember builds it). */
    private static GroupSnapshot expected(GroupMemberConfig config, Listing<Member> listing, List<String> topics,
                                          Map<String, Integer> counts) {
        // the youngest registration: a size cap admits it after everyone already there
        Member self = new Member(config.consumerId(), MemberRegistration.of(config.subscription(), 0), Long.MAX_VALUE, 0);
        List<Member> all = new ArrayList<>(listing.entries());
        all.removeIf(m -> m.id().equals(self.id()));
        all.add(self);
        return new GroupSnapshot(GroupView.expand(GroupView.admitted(all, config.maxGroupSize()), topics,
                config.excludeInternalTopics()), counts);
    }
}
