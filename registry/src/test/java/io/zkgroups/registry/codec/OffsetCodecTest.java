package io.zkgroups.registry.codec;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Offsets {@code /consumers/G/offsets/T/P}, docs/compatibility.md#offset-znodes: decimal text, no JSON, no newline. */
class OffsetCodecTest {

    private static String encode(long offset) {
        return new String(OffsetCodec.encode(offset), StandardCharsets.US_ASCII);
    }

    private static long decode(String text) throws DecodeException {
        return OffsetCodec.decode(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void offsetsAreWrittenAsPlainDecimalText() {
        assertThat(encode(286894308L)).isEqualTo("286894308");
        assertThat(encode(0)).isEqualTo("0");
        assertThat(encode(-1)).isEqualTo("-1");
        assertThat(encode(Long.MAX_VALUE)).isEqualTo("9223372036854775807");
        assertThat(encode(Long.MIN_VALUE)).isEqualTo("-9223372036854775808");
    }

    @Test
    void decimalTextDecodes() throws DecodeException {
        assertThat(decode("286894308")).isEqualTo(286894308L);
        assertThat(decode("-1")).isEqualTo(-1L);
        assertThat(decode("9223372036854775807")).isEqualTo(Long.MAX_VALUE);
        assertThat(decode("-9223372036854775808")).isEqualTo(Long.MIN_VALUE);
        assertThat(decode("007")).isEqualTo(7L);
    }

    @Test
    void surroundingWhitespaceOfAHandImportedFileIsTolerated() throws DecodeException {
        assertThat(decode("42\n")).isEqualTo(42L);
        assertThat(decode(" \t42\r\n")).isEqualTo(42L);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "\n", "-", "+1", "1.5", "1e3", "0x10", "abc", "4 2", "\"42\"", "{\"offset\":42}",
            "9223372036854775808", "-9223372036854775809", "99999999999999999999999", "\u0661\u0662", "42-"})
    void anythingButASignedDecimalLongIsRejected(String text) {
        assertThatThrownBy(() -> decode(text))
                .isInstanceOf(DecodeException.class)
                .hasMessageStartingWith("offset: ");
    }

    @Test
    void missingDataIsRejected() {
        assertThatThrownBy(() -> OffsetCodec.decode(null)).isInstanceOf(DecodeException.class);
    }

    @Test
    void invalidUtf8IsRejected() {
        assertThatThrownBy(() -> OffsetCodec.decode(new byte[] {'4', (byte) 0xff, '2'})).isInstanceOf(DecodeException.class);
    }
}
