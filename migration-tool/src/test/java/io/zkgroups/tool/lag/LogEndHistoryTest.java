package io.zkgroups.tool.lag;

import io.zkgroups.registry.model.TopicAndPartition;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class LogEndHistoryTest {

    private static final Instant T0 = Instant.parse("2024-05-01T10:00:00Z");
    private static final TopicAndPartition TP = new TopicAndPartition("t", 0);

    @Test
    void aRecordIsWrittenWhenTheLogEndMovesPastItInterpolatedBetweenTheSamplesThatBracketIt() {
        LogEndHistory h = new LogEndHistory(10);
        h.add(TP, 100, T0);
        h.add(TP, 100, T0.plusSeconds(10)); // unchanged: the last sight of 100 moves to +10 s
        h.add(TP, 200, T0.plusSeconds(20));
        LogEndHistory.Estimate e = h.writtenAt(TP, 149); // record 149 took the log end from 149 to 150: half way
        assertThat(e.lowerBound()).isFalse();
        assertThat(e.writtenAt()).isEqualTo(T0.plusSeconds(15));
        assertThat(h.writtenAt(TP, 199).writtenAt()).isEqualTo(T0.plusSeconds(20));
    }

    @Test
    void aRecordOlderThanTheTableIsAtLeastAsOldAsItsFirstSample() {
        LogEndHistory h = new LogEndHistory(10);
        h.add(TP, 100, T0);
        h.add(TP, 120, T0.plusSeconds(30));
        LogEndHistory.Estimate e = h.writtenAt(TP, 50);
        assertThat(e.lowerBound()).isTrue();
        assertThat(e.writtenAt()).isEqualTo(T0);
    }

    @Test
    void aRecordNotWrittenYetHasNoTime() {
        LogEndHistory h = new LogEndHistory(10);
        h.add(TP, 100, T0);
        assertThat(h.writtenAt(TP, 100)).isNull();
        assertThat(h.writtenAt(new TopicAndPartition("t", 1), 0)).isNull();
    }

    @Test
    void theTableKeepsItsNewestPointsAndForgetsALogThatShrank() {
        LogEndHistory h = new LogEndHistory(2);
        h.add(TP, 10, T0);
        h.add(TP, 20, T0.plusSeconds(10));
        h.add(TP, 30, T0.plusSeconds(20));
        assertThat(h.writtenAt(TP, 15).lowerBound()).as("the point of 10 is gone").isTrue();
        h.add(TP, 5, T0.plusSeconds(30));
        assertThat(h.writtenAt(TP, 4).writtenAt()).as("a recreated topic starts a new table").isEqualTo(T0.plusSeconds(30));
        h.retain(Set.of());
        assertThat(h.writtenAt(TP, 4)).isNull();
    }
}
