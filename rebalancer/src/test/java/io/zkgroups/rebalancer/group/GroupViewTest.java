package io.zkgroups.rebalancer.group;

import io.zkgroups.rebalancer.assign.GroupSnapshot;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.MemberRegistration;
import io.zkgroups.registry.model.Subscription;
import io.zkgroups.registry.store.Member;
import io.zkgroups.registry.store.Unreadable;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class GroupViewTest {

    private static GroupView view(Map<String, Integer> counts, Map<String, Unreadable> unreadableTopics) {
        return new GroupView(Collections.emptySortedMap(), List.of(), Set.of(), List.of(), counts, unreadableTopics,
                new GroupSnapshot(Map.of(), counts));
    }

    private static Member member(String name, long czxid, Map<String, Integer> subscription) {
        return new Member(new ConsumerId("g_" + name), MemberRegistration.of(Subscription.topics(subscription), 1L),
                czxid, 7L);
    }

    private static GroupView view(Member... members) {
        List<Member> shuffled = new ArrayList<>(List.of(members)); // in no particular order
        Collections.shuffle(shuffled, new Random(7));
        return new GroupView(GroupView.byId(shuffled), List.of(), Set.of(), List.of(), Map.of("t", 4), Map.of(),
                new GroupSnapshot(Map.of(), Map.of("t", 4)));
    }

    @Test
    void membersThatJoinedLeftCameBackOrChangedTheirSubscriptionAreCauses() {
        GroupView before = view(member("a", 1, Map.of("t", 1)), member("b", 2, Map.of("t", 1)),
                member("c", 3, Map.of("t", 1)), member("d", 4, Map.of("t", 1)), member("f", 5, Map.of("t", 1)));
        GroupView after = view(member("b", 2, Map.of("t", 2)), member("c", 9, Map.of("t", 1)),
                member("e", 10, Map.of("t", 1)), member("f", 5, Map.of("t", 1)), member("g", 11, Map.of("t", 1)));

        assertThat(after.changesSince(before)).containsExactly(
                new RebalanceCause.SubscriptionChanged(new ConsumerId("g_b")),
                new RebalanceCause.MemberJoined(new ConsumerId("g_c")),
                new RebalanceCause.MemberJoined(new ConsumerId("g_e")),
                new RebalanceCause.MemberJoined(new ConsumerId("g_g")),
                new RebalanceCause.MemberLeft(new ConsumerId("g_a")),
                new RebalanceCause.MemberLeft(new ConsumerId("g_d")));
        assertThat(after.changesSince(after)).isEmpty();
        assertThat(after.members().keySet()).extracting(ConsumerId::value)
                .containsExactly("g_b", "g_c", "g_e", "g_f", "g_g");
    }

    @Test
    void aTopicWhoseRegistrationTurnedUnreadableIsNotReportedAsDeleted() {
        GroupView before = view(Map.of("a", 2, "b", 3, "c", 1), Map.of());
        GroupView after = view(Map.of("a", 2), Map.of("b", new Unreadable("/brokers/topics/b", "not valid JSON")));

        assertThat(after.changesSince(before)).containsExactlyInAnyOrder(
                new RebalanceCause.TopicUnreadable("b"), new RebalanceCause.TopicDeleted("c"));
    }

    @Test
    void theSameMemberObjectsAreNoChangeAndANewOneAmongThemIsAJoin() {
        Member a = member("a", 1, Map.of("t", 1));
        Member b = member("b", 2, Map.of("t", 1));
        Member c = member("c", 3, Map.of("t", 1));

        assertThat(view(a, b, c).changesSince(view(a, c)))
                .containsExactly(new RebalanceCause.MemberJoined(b.id()));
        assertThat(view(a, c).changesSince(view(a, b, c)))
                .containsExactly(new RebalanceCause.MemberLeft(b.id()));
    }
}
