package io.zkgroups.rebalancer.assign;

import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The example of {@link RendezvousAssignor}'s javadoc, pinned: the weights are part of the protocol between members
 * (version {@value StickyCapability#VERSION}), so a change that moves these rows must come with a new version.
 */
class RendezvousAssignorTest {

    private static final ConsumerId A = new ConsumerId("g_a");
    private static final ConsumerId B = new ConsumerId("g_b");
    private static final ConsumerId C = new ConsumerId("g_c");

    private final RendezvousAssignor sticky = new RendezvousAssignor();

    @Test
    void twoMembersThenAThirdJoinsAndTakesOnlyItsShare() {
        GroupSnapshot two = new GroupSnapshot(Map.of(A, Map.of("T", 1), B, Map.of("T", 1)), Map.of("T", 6));

        assertThat(sticky.assign(two).owners()).isEqualTo(rows(B, A, A, B, A, B));
        assertThat(sticky.assign(two.withMember(C, Map.of("T", 1))).owners()).isEqualTo(rows(B, A, A, B, C, C));
    }

    @Test
    void theWeightFunctionOfVersionOne() {
        assertThat(RendezvousAssignor.fnv1a("")).isEqualTo(0xCBF29CE484222325L);
        assertThat(RendezvousAssignor.fnv1a("a")).isEqualTo(0xAF63DC4C8601EC8CL);
        assertThat(RendezvousAssignor.weight(RendezvousAssignor.fnv1a("[T,0]"), RendezvousAssignor.fnv1a("g_a-0")))
                .isEqualTo(0x8563F1F02CFE5B51L);
    }

    /** Partition {@code i} of T owned by thread 0 of {@code owners[i]}. */
    private static Map<TopicAndPartition, ThreadId> rows(ConsumerId... owners) {
        Map<TopicAndPartition, ThreadId> rows = new TreeMap<>();
        for (int p = 0; p < owners.length; p++) {
            rows.put(new TopicAndPartition("T", p), owners[p].thread(0));
        }
        return rows;
    }
}
