package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.MemberRegistration;
import io.zkgroups.registry.model.Subscription;
import io.zkgroups.registry.store.Listing;
import io.zkgroups.registry.store.Member;
import io.zkgroups.registry.store.Unreadable;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

class GroupViewReaderTest {

    private static final ConsumerId ME = ConsumerId.ofOverride("g", "me");
    private static final Runnable ON_CHANGE = () -> { };

    /** Topic metadata from fixed maps, recording what it is asked. */
    private static final class FixedTopics implements TopicMetadata {
        final Map<String, Integer> counts;
        final Map<String, Unreadable> unreadable;
        final List<Collection<String>> countsAsked = new ArrayList<>();
        int topicListsRead;

        FixedTopics(Map<String, Integer> counts, Map<String, Unreadable> unreadable) {
            this.counts = counts;
            this.unreadable = unreadable;
        }

        @Override
        public Map<String, Integer> partitionCounts(Collection<String> topics, Runnable onChange) {
            return counts(topics, onChange).partitionCounts();
        }

        @Override
        public TopicCounts counts(Collection<String> topics, Runnable onChange) {
            countsAsked.add(List.copyOf(topics));
            Map<String, Integer> found = new TreeMap<>(counts);
            found.keySet().retainAll(topics);
            Map<String, Unreadable> bad = new TreeMap<>(unreadable);
            bad.keySet().retainAll(topics);
            return new TopicCounts(found, bad);
        }

        @Override
        public List<String> topics(Runnable onChange) {
            topicListsRead++;
            return List.copyOf(counts.keySet());
        }
    }

    private static Member member(String id, Subscription subscription, long czxid) {
        return new Member(ConsumerId.ofOverride("g", id), MemberRegistration.of(subscription, 0), czxid, 0);
    }

    private static GroupMemberConfig config(Subscription own) {
        return GroupMemberConfig.of("g", ME, own);
    }

    @Test
    void aMemberSubscribedByNameReadsItsTopicsAheadOfItsRegistrationAndAPatternReadsNothing() {
        FixedTopics topics = new FixedTopics(Map.of("t1", 4, "t2", 6), Map.of());
        new GroupViewReader(config(Subscription.topics(Map.of("t1", 1, "t2", 2))), topics, ON_CHANGE).readTopicsAhead();
        assertThat(topics.countsAsked).hasSize(1);
        assertThat(topics.countsAsked.get(0)).containsExactlyInAnyOrder("t1", "t2");

        FixedTopics none = new FixedTopics(Map.of("t1", 4), Map.of());
        new GroupViewReader(config(Subscription.whitelist("t.*", 1)), none, ON_CHANGE).readTopicsAhead();
        assertThat(none.countsAsked).as("a pattern's topics are known only from the topic list").isEmpty();
        assertThat(none.topicListsRead).isZero();
    }

    @Test
    void staticSubscriptionsNeedNoTopicListAndOnlyTheOwnTopicsCounts() {
        Subscription own = Subscription.topics(Map.of("t1", 1));
        FixedTopics topics = new FixedTopics(Map.of("t1", 4, "t2", 6), Map.of());
        Listing<Member> listing = new Listing<>(List.of(member("me", own, 1),
                member("a", Subscription.topics(Map.of("t2", 1)), 2)), List.of());

        GroupView view = new GroupViewReader(config(own), topics, ON_CHANGE).read(listing);

        assertThat(topics.topicListsRead).isZero();
        assertThat(topics.countsAsked).containsExactly(List.of("t1"));
        assertThat(view.partitionCounts()).isEqualTo(Map.of("t1", 4));
        assertThat(view.members()).containsOnlyKeys(ME, ConsumerId.ofOverride("g", "a"));
        assertThat(view.snapshot().subscriptionOf(ConsumerId.ofOverride("g", "a"))).isEqualTo(Map.of("t2", 1));
    }

    @Test
    void aWildcardMemberMakesItReadTheTopicListAndExpandAgainstIt() {
        Subscription own = Subscription.topics(Map.of("t1", 1));
        FixedTopics topics = new FixedTopics(Map.of("t1", 4, "t2", 6, "other", 1), Map.of());
        Listing<Member> listing = new Listing<>(List.of(member("me", own, 1),
                member("w", Subscription.whitelist("t.*", 1), 2)), List.of());

        GroupView view = new GroupViewReader(config(own), topics, ON_CHANGE).read(listing);

        assertThat(topics.topicListsRead).isEqualTo(1);
        assertThat(view.topics()).containsExactlyInAnyOrder("t1", "t2", "other");
        assertThat(view.snapshot().subscriptionOf(ConsumerId.ofOverride("g", "w"))).containsOnlyKeys("t1", "t2");
    }

    @Test
    void membersBeyondTheCapAreRefusedAndLeftOutOfTheSnapshot() {
        Subscription own = Subscription.topics(Map.of("t1", 1));
        FixedTopics topics = new FixedTopics(Map.of("t1", 4), Map.of());
        Listing<Member> listing = new Listing<>(List.of(member("late", own, 9), member("me", own, 1)), List.of());

        GroupView view = new GroupViewReader(config(own).withMaxGroupSize(1), topics, ON_CHANGE).read(listing);

        assertThat(view.refused()).containsExactly(ConsumerId.ofOverride("g", "late"));
        assertThat(view.snapshot().subscriptions()).containsOnlyKeys(ME);
    }

    @Test
    void unreadableRegistrationsAndTopicsAreCarriedIntoTheView() {
        Subscription own = Subscription.topics(Map.of("t1", 1, "t2", 1));
        Unreadable badTopic = new Unreadable("/brokers/topics/t2", "not valid JSON");
        Unreadable badMember = new Unreadable("/consumers/g/ids/x", "not valid JSON");
        FixedTopics topics = new FixedTopics(Map.of("t1", 4), Map.of("t2", badTopic));
        Listing<Member> listing = new Listing<>(List.of(member("me", own, 1)), List.of(badMember));

        GroupView view = new GroupViewReader(config(own), topics, ON_CHANGE).read(listing);

        assertThat(view.malformed()).containsExactly(badMember);
        assertThat(view.unreadableTopics()).isEqualTo(Map.of("t2", badTopic));
        assertThat(view.partitionCounts()).isEqualTo(Map.of("t1", 4));
    }

    @Test
    void theSameListingWithTheSameTopicsGivesTheLastViewAgainButStillReadsTheCounts() {
        Subscription own = Subscription.topics(Map.of("t1", 1));
        FixedTopics topics = new FixedTopics(Map.of("t1", 4), Map.of());
        Listing<Member> listing = new Listing<>(List.of(member("a", own, 2), member("me", own, 1)), List.of());
        GroupViewReader reader = new GroupViewReader(config(own), topics, ON_CHANGE);

        GroupView first = reader.read(listing);
        GroupView again = reader.read(listing);

        assertThat(again).isSameAs(first);
        assertThat(reader.built()).isEqualTo(1);
        assertThat(topics.countsAsked).hasSize(2); // the counts' watches are armed by every read
    }

    @Test
    void aNewListingOrOtherCountsBuildANewView() {
        Subscription own = Subscription.topics(Map.of("t1", 1));
        FixedTopics topics = new FixedTopics(new TreeMap<>(Map.of("t1", 4)), Map.of());
        Member me = member("me", own, 1);
        Listing<Member> alone = new Listing<>(List.of(me), List.of());
        Listing<Member> equalButAnother = new Listing<>(List.of(me), List.of());
        Listing<Member> joined = new Listing<>(List.of(member("a", own, 2), me), List.of());
        GroupViewReader reader = new GroupViewReader(config(own), topics, ON_CHANGE);

        GroupView first = reader.read(alone);
        GroupView fromAnother = reader.read(equalButAnother);
        GroupView afterJoin = reader.read(joined);
        topics.counts.put("t1", 8);
        GroupView afterPartitionsAdded = reader.read(joined);

        assertThat(reader.built()).isEqualTo(4);
        assertThat(fromAnother).isNotSameAs(first).isEqualTo(first);
        assertThat(afterJoin.members()).containsOnlyKeys(ME, ConsumerId.ofOverride("g", "a"));
        assertThat(afterPartitionsAdded.partitionCounts()).isEqualTo(Map.of("t1", 8));
        assertThat(afterPartitionsAdded.members()).isSameAs(afterJoin.members());
    }
}
