package io.zkgroups.tool.lag;

import io.zkgroups.registry.model.TopicAndPartition;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class RecordTimesTest {

    private static final Instant T0 = Instant.parse("2024-05-01T10:00:00Z");
    private static final TopicAndPartition TP = new TopicAndPartition("t", 0);

    /** A log whose record at offset o was written at T0 + o seconds; remembers what it was asked. */
    private static final class FakeLog {
        final List<Map<TopicAndPartition, Long>> asked = new ArrayList<>();
        boolean timestamps = true;

        Map<TopicAndPartition, Long> read(Map<TopicAndPartition, Long> offsets) {
            asked.add(Map.copyOf(offsets));
            Map<TopicAndPartition, Long> found = new HashMap<>();
            if (timestamps) {
                offsets.forEach((tp, o) -> found.put(tp, T0.plusSeconds(o).toEpochMilli()));
            }
            return found;
        }
    }

    @Test
    void theRecordsTimestampIsFetchedOnceAndKeptWhileTheOffsetDoesNotMove() {
        FakeLog log = new FakeLog();
        RecordTimes times = new RecordTimes(log::read, new LogEndHistory(10));
        RecordTimes.Want want = new RecordTimes.Want(TP, 40, 0, 100);
        for (int sample = 0; sample < 3; sample++) {
            RecordTimes.Written w = times.of(Set.of(want)).get(want);
            assertThat(w).isEqualTo(new RecordTimes.Written(T0.plusSeconds(40), RecordTimes.Source.TIMESTAMP));
        }
        assertThat(log.asked).containsExactly(Map.of(TP, 40L), Map.of(), Map.of());
    }

    @Test
    void nothingIsFetchedForAGroupThatIsCaughtUp() {
        FakeLog log = new FakeLog();
        RecordTimes times = new RecordTimes(log::read, new LogEndHistory(10));
        assertThat(times.of(Set.of(new RecordTimes.Want(TP, 100, 0, 100)))).isEmpty();
        assertThat(log.asked).containsExactly(Map.of());
    }

    @Test
    void withoutATimestampTheTimeIsInterpolatedFromTheLogEndSamples() {
        FakeLog log = new FakeLog();
        log.timestamps = false; // message format v0
        RecordTimes times = new RecordTimes(log::read, new LogEndHistory(10));
        times.logEnds(Map.of(TP, 10L), T0);
        times.logEnds(Map.of(TP, 30L), T0.plusSeconds(20));
        RecordTimes.Want want = new RecordTimes.Want(TP, 19, 0, 30);
        assertThat(times.of(Set.of(want)).get(want))
                .isEqualTo(new RecordTimes.Written(T0.plusSeconds(10), RecordTimes.Source.INTERPOLATED));
        RecordTimes.Want older = new RecordTimes.Want(TP, 5, 0, 30);
        assertThat(times.of(Set.of(older)).get(older)).isEqualTo(new RecordTimes.Written(T0, RecordTimes.Source.AT_LEAST));
    }

    @Test
    void anOffsetBehindTheLogStartIsAtLeastAsOldAsTheOldestRecordLeft() {
        FakeLog log = new FakeLog();
        RecordTimes times = new RecordTimes(log::read, new LogEndHistory(10));
        RecordTimes.Want want = new RecordTimes.Want(TP, 3, 8, 30);
        assertThat(times.of(Set.of(want)).get(want))
                .isEqualTo(new RecordTimes.Written(T0.plusSeconds(8), RecordTimes.Source.AT_LEAST));
        assertThat(log.asked).containsExactly(Map.of(TP, 8L));
    }

    @Test
    void twoGroupsAtDifferentOffsetsOfOnePartitionCostOneFetchPerSample() {
        FakeLog log = new FakeLog();
        RecordTimes times = new RecordTimes(log::read, new LogEndHistory(10));
        RecordTimes.Want a = new RecordTimes.Want(TP, 10, 0, 100);
        RecordTimes.Want b = new RecordTimes.Want(TP, 20, 0, 100);
        times.of(Set.of(a, b));
        times.of(Set.of(a, b));
        Map<RecordTimes.Want, RecordTimes.Written> third = times.of(Set.of(a, b));
        assertThat(log.asked).hasSize(3);
        assertThat(log.asked.get(0)).hasSize(1);
        assertThat(log.asked.get(1)).hasSize(1);
        assertThat(log.asked.get(2)).as("both known by now").isEmpty();
        assertThat(third.get(a).source()).isEqualTo(RecordTimes.Source.TIMESTAMP);
        assertThat(third.get(b).source()).isEqualTo(RecordTimes.Source.TIMESTAMP);
    }
}
