package io.zkgroups.registry;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Names that become znode path segments, docs/compatibility.md#znode-layout and docs/compatibility.md#consumer-ids. */
class ZkNamesTest {

    @ParameterizedTest
    @ValueSource(strings = {"a", "T1", "glive", "my-group", "a.b_c-d", "__consumer_offsets", "...", ".a", "a.", "0"})
    void legalNamesAreAccepted(String name) {
        assertThat(ZkNames.isValid(name)).isTrue();
        assertThat(ZkNames.requireValid("topic", name)).isSameAs(name);
    }

    @Test
    void nameOfExactly255CharactersIsAccepted() {
        assertThat(ZkNames.isValid("a".repeat(255))).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", ".", "..", "a/b", "a b", "tópico", "日本", "a\tb", "a:b", "a*", "emoji\uD83D\uDE00"})
    void illegalNamesAreRejectedWithAMessageNamingTheValue(String name) {
        assertThat(ZkNames.isValid(name)).isFalse();
        assertThatThrownBy(() -> ZkNames.requireValid("topic", name))
                .isInstanceOfSatisfying(ZkNames.InvalidNameException.class, e -> {
                    assertThat(e.kind()).isEqualTo("topic");
                    assertThat(e.value()).isEqualTo(name);
                })
                .hasMessageContaining("topic")
                .hasMessageContaining("'" + name.replace("\t", "\\u0009") + "'");
    }

    @Test
    void nameOf256CharactersIsRejectedWithTheWholeValueInTheMessage() {
        String name = "b".repeat(256);

        assertThatThrownBy(() -> ZkNames.requireValid("group id", name))
                .isInstanceOf(ZkNames.InvalidNameException.class)
                .hasMessageContaining("'" + name + "'")
                .hasMessageContaining("255");
    }

    @Test
    void missingNameIsRejected() {
        assertThat(ZkNames.isValid(null)).isFalse();
        assertThatThrownBy(() -> ZkNames.requireValid("group id", null))
                .isInstanceOf(ZkNames.InvalidNameException.class)
                .hasMessageContaining("group id")
                .hasMessageContaining("null");
    }

    @Test
    void controlCharactersAreShownEscapedInTheMessage() {
        assertThatThrownBy(() -> ZkNames.requireValid("topic", "a\u0000b\u007f"))
                .isInstanceOf(ZkNames.InvalidNameException.class)
                .hasMessageContaining("'a\\u0000b\\u007f'");
    }
}
