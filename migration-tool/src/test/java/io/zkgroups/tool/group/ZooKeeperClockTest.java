package io.zkgroups.tool.group;

import io.zkgroups.registry.model.TopicAndPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ZooKeeperClockTest {

    /** ZooKeeper's time when the tool reads the group. */
    private static final Instant SERVER_NOW = Instant.parse("2025-01-01T12:00:00Z");
    private static final TopicAndPartition TP = new TopicAndPartition("t", 0);
    private static final Duration STALE = Duration.ofMinutes(5);

    @ParameterizedTest(name = "local clock off by {0} min")
    @ValueSource(ints = {0, 60, -60, 7 * 24 * 60, -7 * 24 * 60})
    void aSkewedLocalClockReadsZooKeepersTimeAndInfersTheSamePhase(int skewMinutes) {
        Clock local = Clock.fixed(SERVER_NOW.plus(Duration.ofMinutes(skewMinutes)), ZoneOffset.UTC);
        ZooKeeperClock clock = ZooKeeperClock.calibrate(local, () -> SERVER_NOW);

        assertThat(clock.instant()).isEqualTo(SERVER_NOW);
        assertThat(clock.offset()).isEqualTo(Duration.ofMinutes(-skewMinutes));
        assertThat(clock.uncalibrated()).isEmpty();
        // written 30 s ago by ZooKeeper's clock: a member still commits there, Kafka is ahead
        Map<TopicAndPartition, Instant> mtimes = Map.of(TP, SERVER_NOW.minusSeconds(30));
        assertThat(PhaseInference.infer(Map.of(TP, 10L), mtimes, Map.of(TP, 12L), clock.instant(), STALE).phase())
                .isEqualTo(MigrationPhase.DUAL_COMMIT);
        // written 3 h ago: nobody commits to ZooKeeper any more
        Map<TopicAndPartition, Instant> old = Map.of(TP, SERVER_NOW.minus(Duration.ofHours(3)));
        assertThat(PhaseInference.infer(Map.of(TP, 10L), old, Map.of(TP, 12L), clock.instant(), STALE).phase())
                .isEqualTo(MigrationPhase.KAFKA_ONLY);
    }

    @Test
    void theOffsetIsMeasuredHalfwayThroughTheWriteAndElapsedTimeComesFromTheLocalClock() {
        MutableClock local = new MutableClock(SERVER_NOW.plus(Duration.ofHours(2)));
        ZooKeeperClock clock = ZooKeeperClock.calibrate(local, () -> {
            local.advance(Duration.ofMillis(40)); // the write's round trip; the server stamped it halfway
            return SERVER_NOW.plusMillis(20);
        });
        assertThat(clock.instant()).isEqualTo(SERVER_NOW.plusMillis(40));

        local.advance(Duration.ofSeconds(90));
        assertThat(clock.instant()).isEqualTo(SERVER_NOW.plusMillis(40).plusSeconds(90));
    }

    @Test
    void withoutZooKeepersTimeItIsTheLocalClockAndSaysWhy() {
        Clock local = Clock.fixed(SERVER_NOW, ZoneOffset.UTC);
        ZooKeeperClock clock = ZooKeeperClock.calibrate(local, () -> {
            throw new IllegalStateException("NoAuth for /zkgroups-clock-");
        });
        assertThat(clock.instant()).isEqualTo(SERVER_NOW);
        assertThat(clock.uncalibrated()).contains("NoAuth for /zkgroups-clock-");
    }

    private static final class MutableClock extends Clock {
        private Instant now;

        MutableClock(Instant now) {
            this.now = now;
        }

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }
}
