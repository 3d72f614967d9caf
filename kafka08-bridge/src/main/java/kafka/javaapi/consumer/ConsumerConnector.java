package kafka.javaapi.consumer;

import kafka.consumer.KafkaStream;
import kafka.consumer.TopicFilter;
import kafka.serializer.Decoder;

import java.util.List;
import java.util.Map;

/** The 0.8.2.2 high-level consumer's Java API: one member of a ZooKeeper consumer group. */
public interface ConsumerConnector {

    /**
     * Joins the group with {@code topicCountMap.get(T)} streams (consumer threads) for each topic {@code T} and returns
     * them per topic, once the first rebalance is applied. At most once per connector.
     *
     * @throws kafka.common.MessageStreamsExistException if this connector already created its streams
     */
    <K, V> Map<String, List<KafkaStream<K, V>>> createMessageStreams(Map<String, Integer> topicCountMap,
                                                                   Decoder<K> keyDecoder, Decoder<V> valueDecoder);

    /** As {@link #createMessageStreams(Map, Decoder, Decoder)}, with keys and values as bytes. */
    Map<String, List<KafkaStream<byte[], byte[]>>> createMessageStreams(Map<String, Integer> topicCountMap);

    /**
     * Joins the group with {@code numStreams} streams shared by every topic {@code topicFilter} takes (also topics
     * created later). At most once per connector.
     */
    <K, V> List<KafkaStream<K, V>> createMessageStreamsByFilter(TopicFilter topicFilter, int numStreams,
                                                              Decoder<K> keyDecoder, Decoder<V> valueDecoder);

    List<KafkaStream<byte[], byte[]>> createMessageStreamsByFilter(TopicFilter topicFilter, int numStreams);

    /** One stream. */
    List<KafkaStream<byte[], byte[]>> createMessageStreamsByFilter(TopicFilter topicFilter);

    /** Commits the positions of every message the streams have handed out; returns when they are stored. */
    void commitOffsets();

    /** As {@link #commitOffsets()}: {@code retryOnFailure} (0.8.2.2's retries of Kafka-stored commits) is not used. */
    void commitOffsets(boolean retryOnFailure);

    /** Ends the streams, commits (with {@code auto.commit.enable}), leaves the group. */
    void shutdown();
}
