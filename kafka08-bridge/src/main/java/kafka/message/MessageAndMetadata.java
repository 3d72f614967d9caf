package kafka.message;

import kafka.serializer.Decoder;

import java.util.Arrays;
import java.util.Objects;

/**
 * One message handed out by a stream: where it came from, and its key and value, decoded on each call to
 * {@link #key()} / {@link #message()} by the stream's decoders (as in 0.8.2.2, so a decoder's failure surfaces in the
 * thread that reads the message).
 * <p>
 * Unlike 0.8.2.2, the constructor takes the raw key and value bytes instead of a {@code kafka.message.Message} (the
 * 0.8 wire-format class, which this bridge does not have).
 */
public class MessageAndMetadata<K, V> {

    private final String topic;
    private final int partition;
    private final byte[] rawKey;
    private final byte[] rawMessage;
    private final long offset;
    private final Decoder<K> keyDecoder;
    private final Decoder<V> valueDecoder;

    public MessageAndMetadata(String topic, int partition, byte[] rawKey, byte[] rawMessage, long offset,
                              Decoder<K> keyDecoder, Decoder<V> valueDecoder) {
        this.topic = Objects.requireNonNull(topic, "topic");
        this.partition = partition;
        this.rawKey = rawKey;
        this.rawMessage = rawMessage;
        this.offset = offset;
        this.keyDecoder = Objects.requireNonNull(keyDecoder, "keyDecoder");
        this.valueDecoder = Objects.requireNonNull(valueDecoder, "valueDecoder");
    }

    public String topic() {
        return topic;
    }

    public int partition() {
        return partition;
    }

    public long offset() {
        return offset;
    }

    public Decoder<K> keyDecoder() {
        return keyDecoder;
    }

    public Decoder<V> valueDecoder() {
        return valueDecoder;
    }

    /** The decoded key, or {@code null} when the message has none. */
    public K key() {
        return rawKey == null ? null : keyDecoder.fromBytes(rawKey);
    }

    /** The decoded value, or {@code null} when the message has none (a tombstone). */
    public V message() {
        return rawMessage == null ? null : valueDecoder.fromBytes(rawMessage);
    }

    @Override
    public boolean equals(Object other) {
        if (!(other instanceof MessageAndMetadata)) {
            return false;
        }
        MessageAndMetadata<?, ?> m = (MessageAndMetadata<?, ?>) other;
        return partition == m.partition && offset == m.offset
                && topic.equals(m.topic) && Arrays.equals(rawKey, m.rawKey) && Arrays.equals(rawMessage, m.rawMessage)
                && keyDecoder.equals(m.keyDecoder) && valueDecoder.equals(m.valueDecoder);
    }

    @Override
    public int hashCode() {
        return Objects.hash(topic, partition, offset, Arrays.hashCode(rawKey), Arrays.hashCode(rawMessage));
    }

    /** As 0.8.2.2's case class prints it, with the raw message shown by its size. */
    @Override
    public String toString() {
        return "MessageAndMetadata(" + topic + "," + partition + ",Message(key=" + size(rawKey) + " bytes, value="
                + size(rawMessage) + " bytes)," + offset + "," + keyDecoder + "," + valueDecoder + ")";
    }

    private static String size(byte[] bytes) {
        return bytes == null ? "null" : String.valueOf(bytes.length);
    }
}
