package io.zkgroups.tool.migrate;

import io.zkgroups.registry.model.TopicAndPartition;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class MigrationPlanTest {

    private static TopicAndPartition tp(int p) {
        return new TopicAndPartition("t", p);
    }

    @Test
    void copiesMissingAdvancesBehindKeepsEqualAndNeverRewindsByDefault() {
        Map<TopicAndPartition, Long> zk = Map.of(tp(0), 100L, tp(1), 100L, tp(2), 100L, tp(3), 100L);
        Map<TopicAndPartition, Long> kafka = Map.of(tp(1), 90L, tp(2), 100L, tp(3), 120L);

        MigrationPlan plan = MigrationPlan.compute("g", Direction.ZOOKEEPER_TO_KAFKA, zk, kafka, null, false);

        assertThat(plan.moves()).extracting(MigrationPlan.Move::action)
                .containsExactly(MoveAction.COPY, MoveAction.ADVANCE, MoveAction.IN_SYNC, MoveAction.SKIP_REWIND);
        assertThat(plan.writes()).containsExactlyInAnyOrderEntriesOf(Map.of(tp(0), 100L, tp(1), 100L));
        assertThat(plan.skipsRewinds()).isTrue();
    }

    @Test
    void offsetsAreCopiedUnchangedBecauseBothStoresHoldTheNextOffsetToConsume() {
        MigrationPlan plan = MigrationPlan.compute("g", Direction.ZOOKEEPER_TO_KAFKA, Map.of(tp(0), 286894308L), Map.of(),
                null, false);
        assertThat(plan.writes()).containsEntry(tp(0), 286894308L);
    }

    @Test
    void allowRewindMovesTargetsBackwards() {
        MigrationPlan plan = MigrationPlan.compute("g", Direction.KAFKA_TO_ZOOKEEPER, Map.of(tp(0), 5L), Map.of(tp(0), 9L),
                null, true);
        assertThat(plan.moves()).extracting(MigrationPlan.Move::action).containsExactly(MoveAction.REWIND);
        assertThat(plan.writes()).containsEntry(tp(0), 5L);
    }

    @Test
    void rerunningAfterExecutingIsANoop() {
        Map<TopicAndPartition, Long> zk = Map.of(tp(0), 7L, tp(1), 8L);
        MigrationPlan first = MigrationPlan.compute("g", Direction.ZOOKEEPER_TO_KAFKA, zk, Map.of(tp(1), 3L), null, false);
        Map<TopicAndPartition, Long> kafkaAfter = new java.util.HashMap<>(Map.of(tp(1), 3L));
        kafkaAfter.putAll(first.writes());

        MigrationPlan second = MigrationPlan.compute("g", Direction.ZOOKEEPER_TO_KAFKA, zk, kafkaAfter, null, false);

        assertThat(second.isNoop()).isTrue();
        assertThat(second.count(MoveAction.IN_SYNC)).isEqualTo(2);
    }

    @Test
    void partitionsThatDoNotExistNegativeSourcesAndTargetOnlyOffsetsAreLeftAlone() {
        Map<TopicAndPartition, Long> zk = Map.of(tp(0), 1L, tp(1), -1L, new TopicAndPartition("gone", 0), 4L);
        Map<TopicAndPartition, Long> kafka = Map.of(tp(2), 6L);

        MigrationPlan plan = MigrationPlan.compute("g", Direction.ZOOKEEPER_TO_KAFKA, zk, kafka,
                List.of(tp(0), tp(1), tp(2)), false);

        assertThat(plan.counts()).containsEntry(MoveAction.COPY, 1).containsEntry(MoveAction.SKIP_INVALID, 1)
                .containsEntry(MoveAction.SKIP_NO_PARTITION, 1).containsEntry(MoveAction.TARGET_ONLY, 1);
        assertThat(plan.writes()).containsOnlyKeys(tp(0));
    }

    @Test
    void verifyReportsMissingBehindAndAheadAsDivergentUnlessWithinTolerance() {
        Map<TopicAndPartition, Long> zk = Map.of(tp(0), 10L, tp(1), 10L, tp(2), 10L, tp(3), 10L);
        Map<TopicAndPartition, Long> kafka = Map.of(tp(1), 9L, tp(2), 12L, tp(3), 10L, tp(4), 1L);

        VerifyReport strict = VerifyReport.compute("g", Direction.ZOOKEEPER_TO_KAFKA, zk, kafka, null, 0);
        VerifyReport lenient = VerifyReport.compute("g", Direction.ZOOKEEPER_TO_KAFKA, zk, kafka, null, 2);

        assertThat(strict.rows()).extracting(VerifyReport.Row::status)
                .containsExactly("missing", "behind", "ahead", "ok", "target-only");
        assertThat(strict.divergentCount()).isEqualTo(3);
        assertThat(lenient.divergentCount()).isEqualTo(1);
        assertThat(lenient.rows().get(1).status()).isEqualTo("within-tolerance");
        assertThat(VerifyReport.compute("g", Direction.ZOOKEEPER_TO_KAFKA, zk, zk, null, 0).isClean()).isTrue();
    }
}
