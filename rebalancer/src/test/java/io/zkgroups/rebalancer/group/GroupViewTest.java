package io.zkgroups.rebalancer.group;

import io.zkgroups.rebalancer.assign.GroupSnapshot;
import io.zkgroups.registry.store.Unreadable;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class GroupViewTest {

    private static GroupView view(Map<String, Integer> counts, Map<String, Unreadable> unreadableTopics) {
        return new GroupView(Map.of(), List.of(), Set.of(), List.of(), counts, unreadableTopics,
                new GroupSnapshot(Map.of(), counts));
    }

    @Test
    void aTopicWhoseRegistrationTurnedUnreadableIsNotReportedAsDeleted() {
        GroupView before = view(Map.of("a", 2, "b", 3, "c", 1), Map.of());
        GroupView after = view(Map.of("a", 2), Map.of("b", new Unreadable("/brokers/topics/b", "not valid JSON")));

        assertThat(after.changesSince(before)).containsExactlyInAnyOrder(
                new RebalanceCause.TopicUnreadable("b"), new RebalanceCause.TopicDeleted("c"));
    }
}
