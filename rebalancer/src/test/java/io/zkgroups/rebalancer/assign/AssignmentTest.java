package io.zkgroups.rebalancer.assign;

import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static io.zkgroups.rebalancer.assign.Groups.group;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AssignmentTest {

    private final Groups g = group("g_");
    private final Assignment assignment = g.rows("B-1 c1-0  A-0 c2-0  A-1 c1-1  B-0 c1-0");

    @Test
    void rowsAreOrderedByTopicThenPartition() {
        assertThat(assignment.owners().keySet()).containsExactly(TopicAndPartition.of("A", 0),
                TopicAndPartition.of("A", 1), TopicAndPartition.of("B", 0), TopicAndPartition.of("B", 1));
        assertThat(assignment.size()).isEqualTo(4);
        assertThat(assignment.isEmpty()).isFalse();
    }

    @Test
    void ownerOfAPartitionIfAny() {
        assertThat(assignment.owner(TopicAndPartition.of("A", 1))).contains(g.thread("c1", 1));
        assertThat(assignment.owner(TopicAndPartition.of("A", 7))).isEmpty();
    }

    @Test
    void forConsumerKeepsOnlyThatMembersRowsAcrossAllItsThreads() {
        assertThat(assignment.forConsumer(new ConsumerId("g_c1")))
                .isEqualTo(g.rows("A-1 c1-1  B-0 c1-0  B-1 c1-0"));
        assertThat(assignment.forConsumer(new ConsumerId("g_nobody"))).isEqualTo(Assignment.empty());
    }

    @Test
    void partitionsOfAThread() {
        assertThat(assignment.partitionsOf(g.thread("c1", 0)))
                .containsExactly(TopicAndPartition.of("B", 0), TopicAndPartition.of("B", 1));
        assertThat(assignment.partitionsOf(g.thread("c3", 0))).isEmpty();
    }

    @Test
    void isAnImmutableCopy() {
        Map<TopicAndPartition, ThreadId> owners = new HashMap<>(Map.of(TopicAndPartition.of("A", 0), g.thread("c1", 0)));
        Assignment copy = new Assignment(owners);
        owners.clear();

        assertThat(copy.size()).isEqualTo(1);
        assertThatThrownBy(() -> copy.owners().clear()).isInstanceOf(UnsupportedOperationException.class);
    }
}
