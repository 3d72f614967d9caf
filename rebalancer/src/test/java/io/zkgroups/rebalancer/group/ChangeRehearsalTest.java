package io.zkgroups.rebalancer.group;

import io.zkgroups.rebalancer.assign.GroupSnapshot;
import io.zkgroups.rebalancer.assign.PartitionAssignor;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.MemberRegistration;
import io.zkgroups.registry.model.Subscription;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;
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
            PartitionAssignor assignor = PartitionAssignor.forStrategy(strategy);
            assertThat(ChangeRehearsal.run(config, assignor, group, List.of(), Map.of("t", 8),
                    mine(config, assignor, group, 8))).as(strategy).isTrue();
        }
    }

    @Test
    void aMemberAloneInItsGroupRehearsesToo() {
        GroupMemberConfig config = GroupMemberConfig.of("g", ConsumerId.ofOverride("g", "me"), ONE_TOPIC);
        PartitionAssignor range = PartitionAssignor.forStrategy("range");
        List<Member> alone = List.of(member("g", "me", Long.MAX_VALUE));
        assertThat(ChangeRehearsal.run(config, range, alone, List.of(), Map.of("t", 3), mine(config, range, alone, 3)))
                .isTrue();
    }

    /** This member's rows of the group's assignment, as the join preparation hands them over. */
    private static Map<TopicAndPartition, ThreadId> mine(GroupMemberConfig config, PartitionAssignor assignor,
                                                         List<Member> group, int partitions) {
        Map<ConsumerId, Map<String, Integer>> subscriptions = GroupView.expand(
                GroupView.admitted(group, 0), List.of(), true);
        return assignor.assign(new GroupSnapshot(subscriptions, Map.of("t", partitions),
                GroupView.advertisingSticky(GroupView.admitted(group, 0)))).forConsumer(config.consumerId()).owners();
    }
}
