package io.zkgroups.rebalancer.group;

import io.zkgroups.rebalancer.assign.Assignment;
import io.zkgroups.rebalancer.assign.GroupSnapshot;
import io.zkgroups.rebalancer.assign.PartitionAssignor;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class AssignmentMemoTest {

    private static final ConsumerId A = new ConsumerId("g_a");

    /** The range assignor, recording the snapshots it was asked about. */
    private static final class Recording implements PartitionAssignor {
        final List<GroupSnapshot> asked = new ArrayList<>();
        private final PartitionAssignor range = PartitionAssignor.forStrategy(RANGE);

        @Override
        public String name() {
            return range.name();
        }

        @Override
        public Assignment assign(GroupSnapshot group) {
            return range.assign(group);
        }

        @Override
        public Map<TopicAndPartition, ThreadId> assignTo(GroupSnapshot group, ConsumerId member) {
            asked.add(group);
            return range.assignTo(group, member);
        }
    }

    private static GroupSnapshot group(String... members) {
        GroupSnapshot snapshot = new GroupSnapshot(Map.of(), Map.of("t", 6));
        for (String m : members) {
            snapshot = snapshot.withMember(new ConsumerId("g_" + m), Map.of("t", 1));
        }
        return snapshot;
    }

    @Test
    void anEqualSnapshotGetsTheAnswerComputedBefore() {
        Recording assignor = new Recording();
        AssignmentMemo memo = new AssignmentMemo(assignor, A);

        Map<TopicAndPartition, ThreadId> expected = memo.share(group("a", "b"));
        Map<TopicAndPartition, ThreadId> afterRegistering = memo.share(group("b", "a")); // equal, not the same object

        assertThat(afterRegistering).isSameAs(expected);
        assertThat(assignor.asked).hasSize(1);
    }

    @Test
    void aDifferentSnapshotIsAssignedAgain() {
        Recording assignor = new Recording();
        AssignmentMemo memo = new AssignmentMemo(assignor, A);

        memo.share(group("a", "b"));
        Map<TopicAndPartition, ThreadId> withC = memo.share(group("a", "b", "c"));

        assertThat(assignor.asked).hasSize(2);
        assertThat(withC).isEqualTo(PartitionAssignor.forStrategy(PartitionAssignor.RANGE)
                .assign(group("a", "b", "c")).forConsumer(A).owners())
                .containsOnlyKeys(new TopicAndPartition("t", 0), new TopicAndPartition("t", 1));
    }
}
