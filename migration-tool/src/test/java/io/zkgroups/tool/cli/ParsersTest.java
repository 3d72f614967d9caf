package io.zkgroups.tool.cli;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ParsersTest {

    @Test
    void durationsInShortAndIsoForm() {
        assertThat(DurationParser.parse("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(DurationParser.parse("10s")).isEqualTo(Duration.ofSeconds(10));
        assertThat(DurationParser.parse("1h30m")).isEqualTo(Duration.ofMinutes(90));
        assertThat(DurationParser.parse("2d")).isEqualTo(Duration.ofDays(2));
        assertThat(DurationParser.parse("PT10M")).isEqualTo(Duration.ofMinutes(10));
        assertThatThrownBy(() -> DurationParser.parse("10x")).hasMessageContaining("not a duration");
        assertThatThrownBy(() -> DurationParser.parse("-10")).hasMessageContaining("not a duration");
        assertThatThrownBy(() -> DurationParser.parse("10x")).hasMessageContaining("not a duration");
    }

    @Test
    void aPlainNumberIsMillisecondsLikeKafkasTools() {
        assertThat(DurationParser.parse("5000")).isEqualTo(Duration.ofMillis(5000));
        assertThat(DurationParser.parse(" 0 ")).isEqualTo(Duration.ZERO);
        assertThatThrownBy(() -> DurationParser.parse("99999999999999999999")).hasMessageContaining("64 bits");
    }

    @Test
    void dateTimesNeedAnExplicitZone() {
        assertThat(DateTimes.parse("2024-05-01T10:00:00Z")).isEqualTo(Instant.parse("2024-05-01T10:00:00Z"));
        assertThat(DateTimes.parse("2024-05-01T12:00:00+02:00")).isEqualTo(Instant.parse("2024-05-01T10:00:00Z"));
        assertThat(DateTimes.parse("2024-05-01T12:00:00+02:00[Europe/Paris]")).isEqualTo(Instant.parse("2024-05-01T10:00:00Z"));
        assertThatThrownBy(() -> DateTimes.parse("2024-05-01T12:00:00")).hasMessageContaining("has no zone");
        assertThatThrownBy(() -> DateTimes.parse("yesterday")).hasMessageContaining("not an ISO-8601");
    }
}
