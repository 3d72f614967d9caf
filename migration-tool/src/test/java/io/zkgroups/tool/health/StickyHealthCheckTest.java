package io.zkgroups.tool.health;

import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.store.PartitionOwner;
import io.zkgroups.rebalancer.assign.PartitionAssignor;
import io.zkgroups.tool.ExitCode;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** A sticky group is judged by validity and balance; a mixed one still by equality with range. */
class StickyHealthCheckTest {

    private static final ConsumerId C1 = new ConsumerId("g_c1");
    private static final ConsumerId C2 = new ConsumerId("g_c2");
    private static final Map<ConsumerId, Map<String, Integer>> TWO_MEMBERS = Map.of(C1, Map.of("A", 1), C2, Map.of("A", 1));

    private static PartitionOwner owner(int p, String thread) {
        return new PartitionOwner(new TopicAndPartition("A", p), thread, 1L);
    }

    private static HealthReport evaluate(Set<ConsumerId> sticky, PartitionOwner... owners) {
        return HealthCheck.evaluate(new HealthInput("g", TWO_MEMBERS, List.of(), Map.of("A", 4), List.of(owners),
                List.of(), List.of(), List.of(), PartitionAssignor.forStrategy("sticky"), null, null, sticky));
    }

    @Test
    void aBalancedStickyGroupIsHealthyWhateverThreadsHoldTheExtras() {
        // Not range's answer (c1-0: 0,1; c2-0: 2,3) but valid and balanced.
        HealthReport report = evaluate(Set.of(C1, C2), owner(0, "g_c2-0"), owner(1, "g_c1-0"), owner(2, "g_c2-0"),
                owner(3, "g_c1-0"));

        assertThat(report.findings()).isEmpty();
        assertThat(report.strategy()).isEqualTo("sticky");
    }

    @Test
    void anUnbalancedStickyGroupIsNot() {
        HealthReport report = evaluate(Set.of(C1, C2), owner(0, "g_c1-0"), owner(1, "g_c1-0"), owner(2, "g_c1-0"),
                owner(3, "g_c2-0"));

        assertThat(report.exitCode()).isEqualTo(ExitCode.HEALTH_ASSIGNMENT);
        assertThat(report.findings().get(0).message()).contains("A is unbalanced: g_c1-0 owns 3 partitions and g_c2-0 owns 1");
    }

    @Test
    void anOwnerThreadItsMemberDoesNotHaveMakesAStickyGroupInvalid() {
        HealthReport report = evaluate(Set.of(C1, C2), owner(0, "g_c1-0"), owner(1, "g_c1-1"), owner(2, "g_c2-0"),
                owner(3, "g_c2-0"));

        assertThat(report.exitCode()).isEqualTo(ExitCode.HEALTH_ASSIGNMENT);
        assertThat(report.findings().get(0).message()).contains("[A,1] is owned by g_c1-1, which does not consume A");
    }

    @Test
    void aMemberThatDoesNotAdvertiseStickyMeansExactlyRange() {
        HealthReport balancedButNotRange = evaluate(Set.of(C1), owner(0, "g_c2-0"), owner(1, "g_c1-0"),
                owner(2, "g_c2-0"), owner(3, "g_c1-0"));
        HealthReport range = evaluate(Set.of(C1), owner(0, "g_c1-0"), owner(1, "g_c1-0"), owner(2, "g_c2-0"),
                owner(3, "g_c2-0"));

        assertThat(balancedButNotRange.exitCode()).isEqualTo(ExitCode.HEALTH_ASSIGNMENT);
        assertThat(balancedButNotRange.strategy()).isEqualTo("range");
        assertThat(range.findings()).isEmpty();
    }
}
