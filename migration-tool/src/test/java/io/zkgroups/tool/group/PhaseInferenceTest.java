package io.zkgroups.tool.group;

import io.zkgroups.registry.model.TopicAndPartition;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class PhaseInferenceTest {

    private static final Instant NOW = Instant.parse("2025-01-01T12:00:00Z");
    private static final Instant FRESH = NOW.minusSeconds(30);
    private static final Instant OLD = NOW.minus(Duration.ofHours(3));
    private static final Duration STALE = Duration.ofMinutes(5);
    private static final TopicAndPartition A = new TopicAndPartition("t", 0);
    private static final TopicAndPartition B = new TopicAndPartition("t", 1);

    private static MigrationPhase infer(Map<TopicAndPartition, Long> zk, Map<TopicAndPartition, Instant> mtimes,
                                       Map<TopicAndPartition, Long> kafka) {
        return PhaseInference.infer(zk, mtimes, kafka, NOW, STALE).phase();
    }

    @Test
    void offsetsInOneStoreOnly() {
        assertThat(infer(Map.of(), Map.of(), Map.of())).isEqualTo(MigrationPhase.NONE);
        assertThat(infer(Map.of(A, 5L), Map.of(A, FRESH), Map.of())).isEqualTo(MigrationPhase.ZOOKEEPER_ONLY);
        assertThat(infer(Map.of(), Map.of(), Map.of(A, 5L))).isEqualTo(MigrationPhase.KAFKA_ONLY);
        assertThat(infer(Map.of(A, 5L), Map.of(A, FRESH), null)).isEqualTo(MigrationPhase.UNKNOWN);
    }

    @Test
    void storesThatAgreeAreDualCommit() {
        assertThat(infer(Map.of(A, 5L, B, 6L), Map.of(A, FRESH, B, OLD), Map.of(A, 5L, B, 6L)))
                .isEqualTo(MigrationPhase.DUAL_COMMIT);
    }

    @Test
    void kafkaAheadWithStaleZooKeeperIsKafkaOnly() {
        assertThat(infer(Map.of(A, 5L, B, 6L), Map.of(A, OLD, B, OLD), Map.of(A, 9L, B, 6L)))
                .isEqualTo(MigrationPhase.KAFKA_ONLY);
    }

    @Test
    void zooKeeperAheadOfAnOldKafkaCopyIsZooKeeperOnly() {
        assertThat(infer(Map.of(A, 9L, B, 6L), Map.of(A, FRESH, B, OLD), Map.of(A, 5L, B, 6L)))
                .isEqualTo(MigrationPhase.ZOOKEEPER_ONLY);
    }

    @Test
    void aMixOfZooKeeperOnlyAndDualWritersIsDualCommit() {
        // A is owned by an old member (ZooKeeper only), B by a dual-commit member (both, just written)
        assertThat(infer(Map.of(A, 9L, B, 6L), Map.of(A, FRESH, B, FRESH), Map.of(A, 5L, B, 6L)))
                .isEqualTo(MigrationPhase.DUAL_COMMIT);
        // Kafka ahead while ZooKeeper is still being written: a bounce towards kafka-only in progress
        assertThat(infer(Map.of(A, 5L, B, 6L), Map.of(A, OLD, B, FRESH), Map.of(A, 9L, B, 6L)))
                .isEqualTo(MigrationPhase.DUAL_COMMIT);
    }
}
