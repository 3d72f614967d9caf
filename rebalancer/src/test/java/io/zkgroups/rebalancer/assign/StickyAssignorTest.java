package io.zkgroups.rebalancer.assign;

import io.zkgroups.registry.model.ConsumerId;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class StickyAssignorTest {

    private static final ConsumerId A = new ConsumerId("g_a");
    private static final ConsumerId B = new ConsumerId("g_b");
    private static final ConsumerId C = new ConsumerId("g_c");

    private final StickyAssignor sticky = new StickyAssignor();

    private static GroupSnapshot group() {
        return new GroupSnapshot(Map.of(A, Map.of("T", 1), B, Map.of("T", 2), C, Map.of("T", 1, "U", 1)),
                Map.of("T", 24, "U", 5));
    }

    @Test
    void everyMemberAdvertisingStickyGetsTheRendezvousAssignment() {
        GroupSnapshot all = group().withStickyMembers(Set.of(A, B, C));

        assertThat(sticky.inEffect(all)).isInstanceOf(RendezvousAssignor.class);
        assertThat(sticky.assign(all)).isEqualTo(new RendezvousAssignor().assign(all))
                .isNotEqualTo(new RangeAssignor().assign(all));
    }

    @Test
    void oneMemberThatDoesNotAdvertiseStickyTurnsTheWholeGroupBackToRange() {
        GroupSnapshot mixed = group().withStickyMembers(Set.of(A, C));

        assertThat(sticky.inEffect(mixed)).isInstanceOf(RangeAssignor.class);
        assertThat(sticky.assign(mixed)).isEqualTo(new RangeAssignor().assign(mixed));
    }

    @Test
    void stickyMembersThatLeftDoNotCountForTheOnesStillThere() {
        GroupSnapshot onlyA = new GroupSnapshot(Map.of(A, Map.of("T", 1)), Map.of("T", 3), Set.of(A, B));

        assertThat(sticky.inEffect(onlyA)).isInstanceOf(RendezvousAssignor.class);
        assertThat(sticky.inEffect(GroupSnapshot.empty())).isInstanceOf(RangeAssignor.class);
    }

    @Test
    void theStrategyNameSticky() {
        assertThat(PartitionAssignor.forStrategy("sticky")).isInstanceOf(StickyAssignor.class);
        assertThat(StickyCapability.advertisedBy(Map.of("assignor", "range", "sticky", "1"))).isTrue();
        assertThat(StickyCapability.advertisedBy(Map.of("assignor", "range", "sticky", "2"))).isFalse();
        assertThat(StickyCapability.advertisedBy(Map.of("assignor", "range"))).isFalse();
    }

    @Test
    void balanceCheckNamesAnUnbalancedTopicAndAnOwnerThatDoesNotConsumeIt() {
        GroupSnapshot group = group();
        var owners = new java.util.TreeMap<>(new RangeAssignor().assign(group).owners());
        assertThat(BalanceCheck.problems(group, owners)).isEmpty();

        owners.replaceAll((partition, thread) -> partition.topic().equals("T") ? A.thread(0) : thread);
        owners.put(new io.zkgroups.registry.model.TopicAndPartition("U", 0), A.thread(0));
        assertThat(BalanceCheck.problems(group, owners)).containsExactly(
                "T is unbalanced: g_a-0 owns 24 partitions and g_b-0 owns 0 (at most one apart among its 4 threads)",
                "[U,0] is owned by g_a-0, which does not consume U");
    }
}
