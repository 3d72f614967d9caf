package kafka.consumer;

import io.zkgroups.kafka08.StreamChannel;
import kafka.message.MessageAndMetadata;
import kafka.serializer.Decoder;
import org.apache.kafka.clients.consumer.ConsumerRecord;

import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * Iterates a {@link KafkaStream}: {@link #hasNext()} blocks until a message is there (or {@code consumer.timeout.ms}
 * passes: {@link ConsumerTimeoutException}, after which the iterator can be used again) and returns false once the
 * connector has shut down; {@link #next()} hands the message out, which moves the consumed position that
 * {@code commitOffsets()} and auto-commit store. One thread per iterator, as in 0.8.2.2.
 * <p>
 * Unlike 0.8.2.2 it is not a {@code scala.collection.Iterator}; {@code peek}, {@code clearCurrentChunk} and the Scala
 * collection methods are absent.
 */
public class ConsumerIterator<K, V> implements Iterator<MessageAndMetadata<K, V>> {

    private final StreamChannel channel;
    private final Decoder<K> keyDecoder;
    private final Decoder<V> valueDecoder;
    private final String clientId;

    ConsumerIterator(StreamChannel channel, Decoder<K> keyDecoder, Decoder<V> valueDecoder, String clientId) {
        this.channel = channel;
        this.keyDecoder = keyDecoder;
        this.valueDecoder = valueDecoder;
        this.clientId = clientId;
    }

    /** @throws ConsumerTimeoutException if no message came within {@code consumer.timeout.ms} */
    @Override
    public boolean hasNext() {
        return channel.hasNext();
    }

    /**
     * @throws ConsumerTimeoutException if no message came within {@code consumer.timeout.ms}
     * @throws NoSuchElementException   if the connector has shut down
     */
    @Override
    public MessageAndMetadata<K, V> next() {
        ConsumerRecord<ByteBuffer, ByteBuffer> r = channel.next();
        return new MessageAndMetadata<>(r.topic(), r.partition(), bytes(r.key()), bytes(r.value()), r.offset(),
                keyDecoder, valueDecoder);
    }

    /**
     * The bytes of a key or value, copied here, on the stream's thread, out of the buffer the fetcher thread received
     * them in (as 0.8.2.2's streams decode on their own threads): the fetcher, the busier thread, copies nothing.
     */
    static byte[] bytes(ByteBuffer buffer) {
        if (buffer == null) {
            return null;
        }
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }

    /** @throws UnsupportedOperationException always, as 0.8.2.2 */
    @Override
    public void remove() {
        throw new UnsupportedOperationException("Removal not supported");
    }

    public String clientId() {
        return clientId;
    }
}
