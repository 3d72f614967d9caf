package io.zkgroups.rebalancer.group;

import io.zkgroups.rebalancer.assign.PartitionAssignor;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.MemberRegistration;
import io.zkgroups.registry.model.Subscription;
import io.zkgroups.registry.store.Member;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ChangeRehearsalTest {

    private static final Subscription ONE_TOPIC = Subscription.topics(Map.of("t", 1));

    private static Member member(String group, String id, long czxid) {
        return new Member(ConsumerId.ofOverride(group, id), MemberRegistration.of(ONE_TOPIC, 0), czxid, 0);
    }

    @Test
    void rehearsesAChangeOfEveryStrategyWithoutFailing() {
        // a rehearsal that throws warms nothing past the point where it failed; it must run to the end
        for (String strategy : List.of("range", "roundrobin", "sticky")) {
            GroupMemberConfig config = GroupMemberConfig.of("g", ConsumerId.ofOverride("g", "me"), ONE_TOPIC)
                    .withAssignmentStrategy(strategy);
            List<Member> group = List.of(member("g", "a", 1), member("g", "me", Long.MAX_VALUE));
            assertThat(ChangeRehearsal.run(config, PartitionAssignor.forStrategy(strategy), group, List.of(),
                    Map.of("t", 8))).as(strategy).isTrue();
        }
    }

    @Test
    void aMemberAloneInItsGroupRehearsesToo() {
        GroupMemberConfig config = GroupMemberConfig.of("g", ConsumerId.ofOverride("g", "me"), ONE_TOPIC);
        assertThat(ChangeRehearsal.run(config, PartitionAssignor.forStrategy("range"),
                List.of(member("g", "me", Long.MAX_VALUE)), List.of(), Map.of("t", 3))).isTrue();
    }
}
