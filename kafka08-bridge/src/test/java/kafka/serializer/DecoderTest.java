package kafka.serializer;

import kafka.message.MessageAndMetadata;
import kafka.utils.VerifiableProperties;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DecoderTest {

    @Test
    void theDefaultDecoderReturnsTheBytesThemselves() {
        byte[] bytes = {1, 2, 3};
        assertThat(new DefaultDecoder(null).fromBytes(bytes)).isSameAs(bytes);
    }

    @Test
    void theStringDecoderUsesUtf8UnlessSerializerEncodingSaysOtherwise() {
        byte[] utf8 = "grüße".getBytes(StandardCharsets.UTF_8);
        assertThat(new StringDecoder(null).fromBytes(utf8)).isEqualTo("grüße");
        assertThat(new StringDecoder(new VerifiableProperties()).encoding()).isEqualTo("UTF8");

        Properties props = new Properties();
        props.setProperty("serializer.encoding", "ISO-8859-1");
        StringDecoder latin1 = new StringDecoder(new VerifiableProperties(props));
        assertThat(latin1.fromBytes("grüße".getBytes(StandardCharsets.ISO_8859_1))).isEqualTo("grüße");
    }

    @Test
    void anUnknownEncodingFailsNamingIt() {
        Properties props = new Properties();
        props.setProperty("serializer.encoding", "no-such-charset");
        StringDecoder decoder = new StringDecoder(new VerifiableProperties(props));
        assertThatThrownBy(() -> decoder.fromBytes(new byte[] {65}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no-such-charset");
    }

    @Test
    void messagesAreDecodedWithTheStreamsDecodersAndMissingKeysOrValuesStayNull() {
        StringDecoder strings = new StringDecoder(null);
        MessageAndMetadata<String, String> m = new MessageAndMetadata<>("orders", 3, null,
                "v".getBytes(StandardCharsets.UTF_8), 42, strings, strings);
        assertThat(m.topic()).isEqualTo("orders");
        assertThat(m.partition()).isEqualTo(3);
        assertThat(m.offset()).isEqualTo(42);
        assertThat(m.key()).isNull();
        assertThat(m.message()).isEqualTo("v");
        assertThat(new MessageAndMetadata<>("t", 0, new byte[] {1}, null, 0, strings, strings).message()).isNull();
    }
}
