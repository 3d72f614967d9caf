package kafka.consumer;

import io.zkgroups.kafka08.StreamChannel;
import kafka.message.MessageAndMetadata;
import kafka.serializer.Decoder;

/**
 * One stream of messages: the partitions the group gave one of this connector's consumer threads ({@code CID-k}).
 * Read it from one thread, through {@link #iterator()} (always the same iterator, as in 0.8.2.2) or a for-each loop.
 * <p>
 * Unlike 0.8.2.2 it is a {@link java.lang.Iterable} only, not a {@code scala.collection.Iterable}.
 */
public class KafkaStream<K, V> implements Iterable<MessageAndMetadata<K, V>> {

    private final ConsumerIterator<K, V> iterator;
    private final String clientId;

    KafkaStream(StreamChannel channel, Decoder<K> keyDecoder, Decoder<V> valueDecoder, String clientId) {
        this.iterator = new ConsumerIterator<>(channel, keyDecoder, valueDecoder, clientId);
        this.clientId = clientId;
    }

    @Override
    public ConsumerIterator<K, V> iterator() {
        return iterator;
    }

    public String clientId() {
        return clientId;
    }

    /**
     * In 0.8.2.2 the rebalance clears a stream's current chunk through this; here the connector drops revoked data
     * itself, so it does nothing.
     */
    public void clear() {
    }

    @Override
    public String toString() {
        return clientId + " kafka stream";
    }
}
