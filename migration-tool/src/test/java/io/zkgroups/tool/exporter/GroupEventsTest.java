package io.zkgroups.tool.exporter;

import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.tool.group.MigrationPhase;
import io.zkgroups.tool.group.PhaseInference;
import io.zkgroups.tool.lag.GroupSample;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class GroupEventsTest {

    private static final Instant T0 = Instant.parse("2024-05-01T10:00:00Z");
    private static final TopicAndPartition P0 = new TopicAndPartition("t", 0);
    private static final PhaseInference.Result ZK = new PhaseInference.Result(MigrationPhase.ZOOKEEPER_ONLY, "test");

    private static GroupSample sample(long second, List<String> members, String owner, long offset) {
        return new GroupSample("g", T0.plusSeconds(second), members.size(), ZK, List.of(new GroupSample.PartitionRead(P0,
                offset, T0.plusSeconds(second), null, 0L, 100L, owner, owner != null)), List.of(), true, members);
    }

    @Test
    void joinsLeavesRebalancesAndRewindsAreCountedBetweenReads() {
        GroupEvents events = new GroupEvents(Duration.ofMinutes(2));
        events.add(sample(0, List.of("g_a"), "g_a-0", 10));
        events.add(sample(10, List.of("g_a", "g_b"), null, 10));
        events.add(sample(20, List.of("g_a", "g_b"), "g_b-0", 10));
        events.add(sample(30, List.of("g_a", "g_b"), "g_b-0", 4));
        events.add(sample(40, List.of("g_a", "g_b"), "g_b-0", 4));
        GroupEvents.Counts c = events.counts().get("g");
        assertThat(c.joined).isEqualTo(1);
        assertThat(c.left).isZero();
        assertThat(c.rebalances).isEqualTo(1);
        assertThat(c.lastRebalanceSeconds).as("from the read that saw the join to the read that saw the claim").isEqualTo(10.0);
        assertThat(c.rewinds).isEqualTo(1);
    }

    @Test
    void auditEntriesAreCountedOnceEach() {
        GroupEvents events = new GroupEvents(Duration.ofMinutes(2));
        events.audit("g", List.of("e-0000000001", "e-0000000002"));
        events.audit("g", List.of("e-0000000001", "e-0000000002"));
        events.audit("g", List.of("e-0000000002", "e-0000000003", "e-0000000004"));
        assertThat(events.counts().get("g").auditEntries).isEqualTo(4);
    }
}
