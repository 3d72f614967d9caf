package kafka.javaapi.consumer;

import kafka.consumer.ConsumerConfig;
import kafka.consumer.KafkaStream;
import kafka.consumer.TopicFilter;
import kafka.serializer.Decoder;
import kafka.serializer.DefaultDecoder;

import java.util.List;
import java.util.Map;

/**
 * The connector {@code Consumer.createJavaConsumerConnector} returns, backed by zkgroups' ZooKeeper group member.
 * Thread-safe: streams are read by their own threads while any thread commits or shuts down.
 */
public class ZookeeperConsumerConnector implements ConsumerConnector {

    private final ConsumerConfig config;
    private final boolean enableFetcher;
    /** Named as in 0.8.2.2, where tools read the consumer id string through it. */
    private final kafka.consumer.ZookeeperConsumerConnector underlying;

    /**
     * @param enableFetcher false: the member registers and owns partitions but hands nothing out (0.8.2.2's
     *                      constructor for tests)
     */
    public ZookeeperConsumerConnector(ConsumerConfig config, boolean enableFetcher) {
        this.config = config;
        this.enableFetcher = enableFetcher;
        this.underlying = new kafka.consumer.ZookeeperConsumerConnector(config, enableFetcher);
    }

    public ZookeeperConsumerConnector(ConsumerConfig config) {
        this(config, true);
    }

    public ConsumerConfig config() {
        return config;
    }

    public boolean enableFetcher() {
        return enableFetcher;
    }

    @Override
    public <K, V> Map<String, List<KafkaStream<K, V>>> createMessageStreams(Map<String, Integer> topicCountMap,
                                                                          Decoder<K> keyDecoder, Decoder<V> valueDecoder) {
        return underlying.createMessageStreams(topicCountMap, keyDecoder, valueDecoder);
    }

    @Override
    public Map<String, List<KafkaStream<byte[], byte[]>>> createMessageStreams(Map<String, Integer> topicCountMap) {
        return createMessageStreams(topicCountMap, new DefaultDecoder(null), new DefaultDecoder(null));
    }

    @Override
    public <K, V> List<KafkaStream<K, V>> createMessageStreamsByFilter(TopicFilter topicFilter, int numStreams,
                                                                     Decoder<K> keyDecoder, Decoder<V> valueDecoder) {
        return underlying.createMessageStreamsByFilter(topicFilter, numStreams, keyDecoder, valueDecoder);
    }

    @Override
    public List<KafkaStream<byte[], byte[]>> createMessageStreamsByFilter(TopicFilter topicFilter, int numStreams) {
        return createMessageStreamsByFilter(topicFilter, numStreams, new DefaultDecoder(null), new DefaultDecoder(null));
    }

    @Override
    public List<KafkaStream<byte[], byte[]>> createMessageStreamsByFilter(TopicFilter topicFilter) {
        return createMessageStreamsByFilter(topicFilter, 1);
    }

    @Override
    public void commitOffsets() {
        underlying.commitOffsets();
    }

    @Override
    public void commitOffsets(boolean retryOnFailure) {
        underlying.commitOffsets();
    }

    @Override
    public void shutdown() {
        underlying.shutdown();
    }
}
