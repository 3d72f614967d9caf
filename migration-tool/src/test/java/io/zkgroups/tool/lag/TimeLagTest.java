package io.zkgroups.tool.lag;

import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class TimeLagTest {

    private static final Instant T0 = Instant.parse("2024-05-01T10:00:00Z");
    private static final RecordTimes.Written AT_T0 = new RecordTimes.Written(T0, RecordTimes.Source.TIMESTAMP);

    @Test
    void aGroupWithNothingToConsumeIsZeroSecondsBehind() {
        assertThat(TimeLag.of(10L, 10L, null, T0)).isEqualTo(new TimeLag(0.0, TimeLag.CAUGHT_UP));
        assertThat(TimeLag.of(0L, 0L, null, T0)).as("an empty partition").isEqualTo(new TimeLag(0.0, TimeLag.CAUGHT_UP));
    }

    @Test
    void anOffsetThatDoesNotMoveFallsFurtherBehindAsTimePasses() {
        assertThat(TimeLag.of(5L, 10L, AT_T0, T0.plusSeconds(30)).seconds()).isEqualTo(30.0);
        assertThat(TimeLag.of(5L, 10L, AT_T0, T0.plusSeconds(90)).seconds()).isEqualTo(90.0);
    }

    @Test
    void unknownWithoutAnOffsetALogEndOrARecordTime() {
        assertThat(TimeLag.of(null, 10L, AT_T0, T0).seconds()).isNull();
        assertThat(TimeLag.of(5L, null, AT_T0, T0).seconds()).isNull();
        assertThat(TimeLag.of(5L, 10L, null, T0).seconds()).isNull();
    }

    @Test
    void aRecordStampedAfterTheSampleByASkewedProducerClockIsNotNegative() {
        assertThat(TimeLag.of(5L, 10L, AT_T0, T0.minusSeconds(3)).seconds()).isZero();
    }
}
