package io.zkgroups.rebalancer.group;

import io.zkgroups.rebalancer.assign.GroupSnapshot;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.Subscription;
import io.zkgroups.registry.store.Listing;
import io.zkgroups.registry.store.Member;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;

/**
 * What a rebalance attempt assigns from, built from a listing of the group's members: the admitted members'
 * subscriptions expanded against the topics (read only when a wildcard subscription needs them) and the partition
 * counts of this member's topics. The topic reads arm watches that run {@code onChange}.
 * <p>
 * A member list hands out the same listing, of the same members, for as long as the group is unchanged: it keeps
 * what it derived from the last listing and each member's expanded subscription, and gives the last view again when
 * the listing is the same object and the topics and counts are equal. At a thousand members, deriving it all again
 * on every attempt made most of each member's work per change of the group. Event loop only.
 */
final class GroupViewReader {

    /** What a view takes from its listing alone. */
    private static final class Admission {
        final Listing<Member> listing;
        final SortedMap<ConsumerId, Member> admitted;
        final SortedMap<ConsumerId, Member> members;
        final Set<ConsumerId> refused;
        final Set<ConsumerId> sticky;
        final boolean needsTopicList;

        Admission(Listing<Member> listing, GroupMemberConfig config) {
            int cap = config.maxGroupSize();
            this.listing = listing;
            this.needsTopicList = GroupView.needsTopicList(listing.entries(), config.subscription());
            this.admitted = GroupView.admitted(listing.entries(), cap);
            this.members = admitted.size() == listing.entries().size() ? admitted : GroupView.byId(listing.entries());
            this.refused = GroupView.refused(listing.entries(), admitted);
            this.sticky = GroupView.advertisingSticky(admitted);
        }
    }

    private final GroupMemberConfig config;
    private final TopicMetadata topicMetadata;
    private final Runnable onChange;
    private final SubscriptionExpansions expansions;
    private Admission last;
    private GroupView lastView;
    private int built;

    GroupViewReader(GroupMemberConfig config, TopicMetadata topicMetadata, Runnable onChange) {
        this.config = Objects.requireNonNull(config, "config cannot be null");
        this.topicMetadata = Objects.requireNonNull(topicMetadata, "topicMetadata cannot be null");
        this.onChange = Objects.requireNonNull(onChange, "onChange cannot be null");
        this.expansions = new SubscriptionExpansions(config.excludeInternalTopics());
    }

    /** The view of {@code listing}; the topics whose registration cannot be read are in its {@code unreadableTopics}. */
    GroupView read(Listing<Member> listing) {
        boolean sameListing = last != null && last.listing == listing;
        Admission admission = sameListing ? last : new Admission(listing, config);
        List<String> topics = admission.needsTopicList ? topicMetadata.topics(onChange)
                : Collections.<String>emptyList();
        SortedMap<ConsumerId, Map<String, Integer>> subscriptions =
                expansions.expand(admission.admitted, topics);
        TopicMetadata.TopicCounts topicCounts = topicMetadata.counts(
                subscriptions.getOrDefault(config.consumerId(), Collections.<String, Integer>emptyMap()).keySet(),
                onChange);
        Map<String, Integer> counts = topicCounts.partitionCounts();
        if (sameListing && lastView.topics().equals(topics) && lastView.partitionCounts().equals(counts)
                && lastView.unreadableTopics().equals(topicCounts.unreadable())) {
            return lastView;
        }
        lastView = new GroupView(admission.members, listing.unreadable(), admission.refused, topics, counts,
                topicCounts.unreadable(), new GroupSnapshot(subscriptions, counts, admission.sticky));
        last = admission; // only with the view built from it
        built++;
        return lastView;
    }

    /**
     * Reads the partition counts of the topics this member subscribes to by name (none for a pattern) ahead of its
     * registration, while nobody waits for it yet: the read after the registration finds them kept under their
     * watches ({@link TopicMetadata#counts}) instead of asking ZooKeeper while the group waits for the claim.
     */
    void readTopicsAhead() {
        if (config.subscription() instanceof Subscription.Static) {
            topicMetadata.counts(((Subscription.Static) config.subscription()).streamsPerTopic().keySet(), onChange);
        }
    }

    /** How many views it has built so far (the others were given again): for tests. */
    int built() {
        return built;
    }
}
