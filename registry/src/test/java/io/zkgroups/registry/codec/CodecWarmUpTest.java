package io.zkgroups.registry.codec;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CodecWarmUpTest {

    @Test
    void everySampleDecodes() {
        // a sample that no longer decodes would silently warm less of the read path
        assertThat(CodecWarmUp.run()).isTrue();
    }
}
