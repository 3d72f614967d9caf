package io.zkgroups.tool.reset;

import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.tool.group.MigrationPhase;
import io.zkgroups.tool.group.Store;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ResetPlannerTest {

    private static final TopicAndPartition T0 = new TopicAndPartition("t", 0);
    private static final TopicAndPartition T1 = new TopicAndPartition("t", 1);

    private static PartitionFacts facts(TopicAndPartition tp, Long zk, Long kafka) {
        return new PartitionFacts(tp, zk, kafka, 10L, 100L, null);
    }

    @Test
    void earliestAndLatestComeFromTheLog() {
        ResetPlan earliest = ResetPlanner.plan("g", new ResetStrategy.ToEarliest(), MigrationPhase.ZOOKEEPER_ONLY, null,
                List.of(facts(T0, 50L, null)));
        ResetPlan latest = ResetPlanner.plan("g", new ResetStrategy.ToLatest(), MigrationPhase.ZOOKEEPER_ONLY, null,
                List.of(facts(T0, 50L, null)));
        assertThat(earliest.writes(Store.ZOOKEEPER)).containsExactly(Map.entry(T0, 10L));
        assertThat(latest.writes(Store.ZOOKEEPER)).containsExactly(Map.entry(T0, 100L));
        assertThat(earliest.writes(Store.KAFKA)).isEmpty();
    }

    @Test
    void dualCommitPhaseWritesBothStoresAndSaysWhy() {
        ResetPlan plan = ResetPlanner.plan("g", new ResetStrategy.ToOffset(20), MigrationPhase.DUAL_COMMIT, null,
                List.of(facts(T0, 50L, 50L)));
        assertThat(plan.writes(Store.ZOOKEEPER)).containsEntry(T0, 20L);
        assertThat(plan.writes(Store.KAFKA)).containsEntry(T0, 20L);
        assertThat(plan.storeRule()).contains("dual-commit").contains("max(ZooKeeper, Kafka)");
    }

    @Test
    void singleStorePhaseAlsoRewritesTheOtherStoreWhereItHoldsAnOffset() {
        ResetPlan plan = ResetPlanner.plan("g", new ResetStrategy.ToOffset(20), MigrationPhase.ZOOKEEPER_ONLY, null,
                List.of(facts(T0, 50L, 60L), facts(T1, 50L, null)));
        assertThat(plan.writes(Store.ZOOKEEPER)).containsOnlyKeys(T0, T1);
        assertThat(plan.writes(Store.KAFKA)).containsOnlyKeys(T0);
    }

    @Test
    void storeOverrideWritesOnlyThoseStores() {
        ResetPlan plan = ResetPlanner.plan("g", new ResetStrategy.ToOffset(20), MigrationPhase.DUAL_COMMIT,
                EnumSet.of(Store.KAFKA), List.of(facts(T0, 50L, 50L)));
        assertThat(plan.writes(Store.ZOOKEEPER)).isEmpty();
        assertThat(plan.writes(Store.KAFKA)).containsEntry(T0, 20L);
        assertThat(plan.storeRule()).contains("--store");
    }

    @Test
    void shiftByStartsFromTheOffsetMembersWouldReadAndIsClamped() {
        List<PartitionFacts> f = List.of(facts(T0, 50L, 70L), facts(T1, 95L, null));
        ResetPlan dual = ResetPlanner.plan("g", new ResetStrategy.ShiftBy(-5), MigrationPhase.DUAL_COMMIT, null, f);
        ResetPlan zkOnly = ResetPlanner.plan("g", new ResetStrategy.ShiftBy(-5), MigrationPhase.ZOOKEEPER_ONLY, null, f);
        ResetPlan forward = ResetPlanner.plan("g", new ResetStrategy.ShiftBy(10), MigrationPhase.ZOOKEEPER_ONLY, null, f);

        assertThat(dual.rows().get(0).target()).isEqualTo(65L); // max(50, 70) - 5
        assertThat(zkOnly.rows().get(0).target()).isEqualTo(45L);
        assertThat(forward.rows().get(1).target()).isEqualTo(100L);
        assertThat(forward.rows().get(1).note()).contains("beyond the log end 100: clamped");
    }

    @Test
    void toOffsetBelowTheLogStartIsClampedAndPartitionsWithoutOffsetsCannotBeShifted() {
        ResetPlan plan = ResetPlanner.plan("g", new ResetStrategy.ToOffset(3), MigrationPhase.ZOOKEEPER_ONLY, null,
                List.of(facts(T0, 50L, null)));
        assertThat(plan.rows().get(0).target()).isEqualTo(10L);
        assertThat(plan.rows().get(0).note()).contains("below the log start");

        ResetPlan shift = ResetPlanner.plan("g", new ResetStrategy.ShiftBy(1), MigrationPhase.ZOOKEEPER_ONLY, null,
                List.of(facts(T0, null, null)));
        assertThat(shift.rows().get(0).target()).isNull();
        assertThat(shift.rows().get(0).note()).startsWith("skipped");
        assertThat(shift.isNoop()).isTrue();
    }

    @Test
    void timestampWithoutAMessageThatRecentGoesToTheLogEnd() {
        ResetStrategy ts = new ResetStrategy.ToTimestamp(Instant.parse("2030-01-01T00:00:00Z"), "to-datetime x");
        ResetPlan plan = ResetPlanner.plan("g", ts, MigrationPhase.ZOOKEEPER_ONLY, null,
                List.of(new PartitionFacts(T0, 5L, null, 0L, 40L, null), new PartitionFacts(T1, 5L, null, 0L, 40L, 17L)));
        assertThat(plan.rows()).extracting(ResetRow::target).containsExactly(40L, 17L);
        assertThat(plan.rows().get(0).note()).contains("log end");
    }

    @Test
    void fromFileResetsOnlyTheFilesPartitionsAndUnchangedStoresAreNotRewritten() {
        ResetStrategy file = new ResetStrategy.FromFile("f", Map.of(T0, 50L));
        ResetPlan plan = ResetPlanner.plan("g", file, MigrationPhase.DUAL_COMMIT, null,
                List.of(facts(T0, 50L, 40L), facts(T1, 1L, 1L)));
        assertThat(plan.writes(Store.ZOOKEEPER)).isEmpty();
        assertThat(plan.writes(Store.KAFKA)).containsExactly(Map.entry(T0, 50L));
        assertThat(plan.rows().get(1).note()).contains("not in the file");
    }

    @Test
    void toCurrentMakesBothStoresAgreeOnTheMaximum() {
        ResetPlan plan = ResetPlanner.plan("g", new ResetStrategy.ToCurrent(), MigrationPhase.DUAL_COMMIT, null,
                List.of(facts(T0, 50L, 70L)));
        assertThat(plan.writes(Store.ZOOKEEPER)).containsExactly(Map.entry(T0, 70L));
        assertThat(plan.writes(Store.KAFKA)).isEmpty();
    }

    @Test
    void theCurrentOffsetOfAPartitionWithoutOffsetsIsUnknownInEveryPhase() {
        for (MigrationPhase phase : MigrationPhase.values()) {
            assertThat(ResetPlanner.currentOffset(facts(T0, null, null), phase)).isNull();
            assertThat(ResetPlanner.currentOffset(facts(T0, null, 4L), phase)).isIn(null, 4L);
        }
        ResetPlan plan = ResetPlanner.plan("g", new ResetStrategy.FromFile("f", Map.of(T0, 50L)), MigrationPhase.NONE, null,
                List.of(facts(T0, null, null)));
        assertThat(plan.writes(Store.ZOOKEEPER)).containsExactly(Map.entry(T0, 50L));
    }

    @Test
    void topicScopeParsesTopicsAndPartitionLists() {
        assertThat(TopicScope.parse("orders")).isEqualTo(new TopicScope("orders", null));
        assertThat(TopicScope.parse("orders:0,2, 5").partitions()).containsExactly(0, 2, 5);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> TopicScope.parse("orders:x"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("invalid partition 'x'");
    }
}
