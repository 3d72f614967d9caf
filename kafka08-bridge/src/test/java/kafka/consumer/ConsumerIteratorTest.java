package kafka.consumer;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class ConsumerIteratorTest {

    /** kafka-clients hands keys and values out as views of the fetched buffer: a message is its view's bytes only. */
    @Test
    void aMessageIsTheBytesOfItsViewOfTheFetchedBufferAndLeavesTheViewAsItWas() {
        ByteBuffer fetched = ByteBuffer.wrap("..key=value..".getBytes(StandardCharsets.UTF_8));
        fetched.position(6).limit(11);
        ByteBuffer value = fetched.slice();

        byte[] first = ConsumerIterator.bytes(value);
        byte[] second = ConsumerIterator.bytes(value);

        assertThat(new String(first, StandardCharsets.UTF_8)).isEqualTo("value");
        assertThat(second).isEqualTo(first).isNotSameAs(first);
        assertThat(value.position()).isZero();
        assertThat(value.remaining()).isEqualTo(5);
    }

    @Test
    void noKeyIsNull() {
        assertThat(ConsumerIterator.bytes(null)).isNull();
        assertThat(ConsumerIterator.bytes(ByteBuffer.allocate(0))).isEmpty();
    }
}
