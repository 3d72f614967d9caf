package io.zkgroups.tool.lag;

import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.tool.group.MigrationPhase;
import io.zkgroups.tool.group.PhaseInference;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class LagWindowTest {

    private static final Instant T0 = Instant.parse("2024-05-01T10:00:00Z");
    private static final TopicAndPartition TP = new TopicAndPartition("t", 0);
    private static final PhaseInference.Result KAFKA_ONLY = new PhaseInference.Result(MigrationPhase.KAFKA_ONLY, "test");

    private static GroupSample kafkaOnly(long seconds, long offset, long logEnd, boolean owned) {
        return new GroupSample("g", T0.plusSeconds(seconds), owned ? 1 : 0, KAFKA_ONLY, List.of(
                new GroupSample.PartitionRead(TP, null, null, offset, 0L, logEnd, owned ? "g_a-0" : null, owned)),
                List.of(), true);
    }

    @Test
    void aKafkaOffsetIsIdleSinceTheFirstSampleThatSawItEvenAfterThatSampleLeftTheWindow() {
        LagWindow window = new LagWindow(2);
        GroupSample last = null;
        for (long s = 0; s <= 90; s += 30) {
            last = kafkaOnly(s, 10, 100 + s, false);
            window.add(last);
        }
        GroupLag lag = window.evaluate(last, Duration.ofSeconds(60));
        assertThat(lag.samples()).isEqualTo(2);
        assertThat(lag.status()).as("90 s unchanged, though the window spans 30 s").isEqualTo(LagStatus.STOP);
        assertThat(lag.partitions().get(0).reason()).contains("unchanged for 90 s");
    }

    @Test
    void aChangedOffsetRestartsItsIdleTime() {
        LagWindow window = new LagWindow(10);
        window.add(kafkaOnly(0, 10, 100, true));
        window.add(kafkaOnly(50, 20, 100, true));
        GroupSample last = kafkaOnly(100, 20, 120, true);
        window.add(last);
        GroupLag lag = window.evaluate(last, Duration.ofSeconds(60));
        assertThat(lag.partitions().get(0).status()).as("50 s since it moved: not idle yet; lag 90 -> 80 -> 100 at commits")
                .isEqualTo(LagStatus.OK);
    }

    @Test
    void partitionsWithoutLogOffsetsAreShownButNotJudged() {
        LagWindow window = new LagWindow(3);
        GroupSample unknown = new GroupSample("g", T0, 1, KAFKA_ONLY, List.of(
                new GroupSample.PartitionRead(TP, 5L, T0, null, null, null, "g_a-0", true)), List.of(), false);
        window.add(unknown);
        GroupLag lag = window.evaluate(unknown, Duration.ofSeconds(60));
        assertThat(lag.totalLag()).isNull();
        assertThat(lag.partitions().get(0).status()).isNull();
        assertThat(lag.partitions().get(0).zookeeperOffset()).isEqualTo(5L);
        assertThat(lag.status()).isEqualTo(LagStatus.OK);
    }
}
