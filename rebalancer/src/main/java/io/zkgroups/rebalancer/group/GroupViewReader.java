package io.zkgroups.rebalancer.group;

import io.zkgroups.rebalancer.assign.GroupSnapshot;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.store.Listing;
import io.zkgroups.registry.store.Member;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a rebalance attempt assigns from, built from a listing of the group's members: the admitted members'
 * subscriptions expanded against the topics (read only when a wildcard subscription needs them) and the partition
 * counts of this member's topics. The topic reads arm watches that run {@code onChange}. It keeps nothing between
 * attempts.
 */
final class GroupViewReader {

    private final GroupMemberConfig config;
    private final TopicMetadata topicMetadata;
    private final Runnable onChange;

    GroupViewReader(GroupMemberConfig config, TopicMetadata topicMetadata, Runnable onChange) {
        this.config = Objects.requireNonNull(config, "config cannot be null");
        this.topicMetadata = Objects.requireNonNull(topicMetadata, "topicMetadata cannot be null");
        this.onChange = Objects.requireNonNull(onChange, "onChange cannot be null");
    }

    /** The view of {@code listing}; the topics whose registration cannot be read are in its {@code unreadableTopics}. */
    GroupView read(Listing<Member> listing) {
        List<String> topics = GroupView.needsTopicList(listing.entries(), config.subscription())
                ? topicMetadata.topics(onChange) : Collections.<String>emptyList();
        Map<ConsumerId, Member> admitted = GroupView.admitted(listing.entries(), config.maxGroupSize());
        Map<ConsumerId, Map<String, Integer>> subscriptions =
                GroupView.expand(admitted, topics, config.excludeInternalTopics());
        TopicMetadata.TopicCounts topicCounts = topicMetadata.counts(
                subscriptions.getOrDefault(config.consumerId(), Collections.emptyMap()).keySet(), onChange);
        Map<String, Integer> counts = topicCounts.partitionCounts();
        Map<ConsumerId, Member> members = admitted.size() == listing.entries().size() ? admitted
                : GroupView.byId(listing.entries());
        return new GroupView(members, listing.unreadable(), GroupView.refused(listing.entries(), admitted), topics,
                counts, topicCounts.unreadable(),
                new GroupSnapshot(subscriptions, counts, GroupView.advertisingSticky(admitted)));
    }
}
