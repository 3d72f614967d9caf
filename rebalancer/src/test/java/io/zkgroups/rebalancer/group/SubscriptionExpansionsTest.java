package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.MemberRegistration;
import io.zkgroups.registry.model.Subscription;
import io.zkgroups.registry.store.Member;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.SortedMap;

import static org.assertj.core.api.Assertions.assertThat;

class SubscriptionExpansionsTest {

    private static Member member(String name, Subscription subscription) {
        return new Member(new ConsumerId("g_" + name), MemberRegistration.of(subscription, 1L), 1, 7);
    }

    private static SortedMap<ConsumerId, Member> byId(Member... members) {
        return GroupView.byId(List.of(members));
    }

    @Test
    void keepsTheExpansionOfTheSameMemberObjectAndExpandsOnlyNewOnes() {
        SubscriptionExpansions expansions = new SubscriptionExpansions(true);
        Member a = member("a", Subscription.topics(Map.of("t", 1)));
        Member b = member("b", Subscription.whitelist("t.*", 2));

        Map<ConsumerId, Map<String, Integer>> first = expansions.expand(byId(a, b), List.of("t", "t2", "x"));
        Member c = member("c", Subscription.topics(Map.of("x", 1)));
        Map<ConsumerId, Map<String, Integer>> afterJoin = expansions.expand(byId(a, b, c), List.of("t", "t2", "x"));

        assertThat(expansions.expanded()).isEqualTo(3);
        assertThat(afterJoin.get(b.id())).isSameAs(first.get(b.id())).isEqualTo(Map.of("t", 2, "t2", 2));
        assertThat(afterJoin.get(c.id())).isEqualTo(Map.of("x", 1));
        assertThat(afterJoin.keySet()).containsExactly(a.id(), b.id(), c.id());
    }

    @Test
    void expandsAgainAMemberReadAgainAndEveryMemberWhenTheTopicsChange() {
        SubscriptionExpansions expansions = new SubscriptionExpansions(true);
        Member a = member("a", Subscription.topics(Map.of("t", 1)));
        Member b = member("b", Subscription.whitelist("t.*", 1));

        expansions.expand(byId(a, b), List.of("t"));
        Member aReadAgain = member("a", Subscription.topics(Map.of("t", 1))); // equal, another object
        expansions.expand(byId(aReadAgain, b), List.of("t"));
        assertThat(expansions.expanded()).isEqualTo(3);

        Map<ConsumerId, Map<String, Integer>> withNewTopic = expansions.expand(byId(aReadAgain, b), List.of("t", "t2"));
        assertThat(expansions.expanded()).isEqualTo(5);
        assertThat(withNewTopic.get(b.id())).isEqualTo(Map.of("t", 1, "t2", 1));
    }

    @Test
    void membersWithEqualSubscriptionsShareOneExpansion() {
        SubscriptionExpansions expansions = new SubscriptionExpansions(true);
        Member a = member("a", Subscription.topics(Map.of("t", 1)));
        Member b = member("b", Subscription.topics(Map.of("t", 1)));
        Member c = member("c", Subscription.topics(Map.of("t", 2)));

        Map<ConsumerId, Map<String, Integer>> expanded = expansions.expand(byId(a, b, c), List.of("t"));

        assertThat(expanded.get(b.id())).isSameAs(expanded.get(a.id()));
        assertThat(expanded.get(c.id())).isNotSameAs(expanded.get(a.id())).isEqualTo(Map.of("t", 2));
    }
}
