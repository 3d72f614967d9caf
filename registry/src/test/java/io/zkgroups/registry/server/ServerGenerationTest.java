package io.zkgroups.registry.server;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ServerGenerationTest {

    @ParameterizedTest
    @CsvSource({
            "3.4, V3_4", "3.4.6, V3_4", "3.4.14, V3_4",
            "3.5, V3_5", "3.5.10, V3_5", "3.5.10-a32c7183d42325b03e44a06aade6a0f16955bf13, V3_5",
            "3.6, V3_6_OR_LATER", "3.6.4, V3_6_OR_LATER", "3.9.5-293c895a8d966a3ecb92872be4a1daf87d725da2, V3_6_OR_LATER",
            "3.10.0, V3_6_OR_LATER", "4.0.0, V3_6_OR_LATER"})
    void aVersionBelongsToItsReleaseLine(String version, ServerGeneration expected) {
        assertThat(ServerGeneration.ofVersion(version)).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"3.3.6", "2.0", "latest", "", "3"})
    void olderOrUnreadableVersionsAreRefusedWithTheirText(String version) {
        assertThatThrownBy(() -> ServerGeneration.ofVersion(version)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(version.trim());
    }

    @Test
    void autoLeavesItToTheServers() {
        assertThat(ServerGeneration.ofSetting(" AUTO ")).isNull();
        assertThat(ServerGeneration.ofSetting("3.5")).isEqualTo(ServerGeneration.V3_5);
    }

    @Test
    void eachGenerationSaysWhatItImplements() {
        assertThat(ServerGeneration.V3_4.hasCreate2()).isFalse();
        assertThat(ServerGeneration.V3_4.hasWatchRemoval()).isFalse();
        assertThat(ServerGeneration.V3_5.hasCreate2()).isTrue();
        assertThat(ServerGeneration.V3_5.hasWatchRemoval()).isTrue();
        assertThat(ServerGeneration.V3_5.hasPersistentWatches()).isFalse();
        assertThat(ServerGeneration.V3_5.hasGetEphemerals()).isFalse();
        assertThat(ServerGeneration.V3_6_OR_LATER.hasPersistentWatches()).isTrue();
        assertThat(ServerGeneration.V3_6_OR_LATER.hasGetEphemerals()).isTrue();
    }
}
