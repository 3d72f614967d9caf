package io.zkgroups.tool.consume;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.LongSerializer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RecordDecoderTest {

    private static ConsumerRecord<byte[], byte[]> record(byte[] key, byte[] value) {
        return new ConsumerRecord<>("t", 0, 7, key, value);
    }

    private static RecordDecoder decoder(String key, String value) {
        return new RecordDecoder(RecordDecoder.deserializer(key, "--key-deserializer", true),
                RecordDecoder.deserializer(value, "--value-deserializer", false));
    }

    @Test
    void kafkasSimpleAndFullClassNames() {
        byte[] seven = new LongSerializer().serialize("t", 7L);
        RecordDecoder decoder = decoder("StringDeserializer", "org.apache.kafka.common.serialization.LongDeserializer");

        assertThat(decoder.decode(record("k".getBytes(StandardCharsets.UTF_8), seven)))
                .isEqualTo(new RecordDecoder.Decoded.Text("k", "7"));
        assertThat(decoder("ByteArrayDeserializer", "ByteBufferDeserializer")
                .decode(record("ké".getBytes(StandardCharsets.UTF_8), "v".getBytes(StandardCharsets.UTF_8))))
                .as("bytes print as text, not as an array's identity").isEqualTo(new RecordDecoder.Decoded.Text("ké", "v"));
        assertThat(decoder("StringDeserializer", "StringDeserializer").decode(record(null, null)))
                .isEqualTo(new RecordDecoder.Decoded.Text(null, null));
    }

    @Test
    void aRecordThatDoesNotDeserializeIsAFailureSayingWhichPartAndWhy() {
        RecordDecoder.Decoded decoded = decoder("StringDeserializer", "LongDeserializer")
                .decode(record(null, "not-a-long".getBytes(StandardCharsets.UTF_8)));

        assertThat(decoded).isInstanceOf(RecordDecoder.Decoded.Failure.class);
        assertThat(((RecordDecoder.Decoded.Failure) decoded).reason()).startsWith("value: LongDeserializer failed: ")
                .contains("8");
    }

    @Test
    void unknownClassesAndNonDeserializersAreRefusedWithTheOptionNamed() {
        assertThatThrownBy(() -> RecordDecoder.deserializer("LongDeserialiser", "--value-deserializer", false))
                .hasMessageStartingWith("--value-deserializer LongDeserialiser: no class "
                        + "org.apache.kafka.common.serialization.LongDeserialiser");
        assertThatThrownBy(() -> RecordDecoder.deserializer("java.lang.String", "--key-deserializer", true))
                .hasMessage("--key-deserializer java.lang.String: java.lang.String is not an "
                        + "org.apache.kafka.common.serialization.Deserializer");
    }
}
