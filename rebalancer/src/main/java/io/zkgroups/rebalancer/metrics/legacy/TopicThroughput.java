package io.zkgroups.rebalancer.metrics.legacy;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * 0.8.2.2's throughput meters, {@code kafka.consumer:type=ConsumerTopicMetrics,name=MessagesPerSec|BytesPerSec,
 * clientId=C} over all topics and {@code ...,clientId=C,topic=T} per topic. As in 0.8.2.2, a topic's pair appears with
 * its first records and stays until the consumer closes.
 */
final class TopicThroughput {

    private static final String TYPE = "kafka.consumer:type=ConsumerTopicMetrics";

    private final MBeanRegistrations registrations;
    private final String clientId;
    private final Meters all;
    private final Map<String, Meters> byTopic = new ConcurrentHashMap<>();

    private record Meters(LegacyMeter messages, LegacyMeter bytes) {
        void mark(long messageCount, long byteCount) {
            messages.mark(messageCount);
            bytes.mark(byteCount);
        }
    }

    TopicThroughput(MBeanRegistrations registrations, String clientId) {
        this.registrations = registrations;
        this.clientId = clientId;
        this.all = register("");
    }

    private Meters register(String topicKey) {
        return new Meters(
                registrations.meter(TYPE + ",name=MessagesPerSec,clientId=" + clientId + topicKey, new LegacyMeter("messages")),
                registrations.meter(TYPE + ",name=BytesPerSec,clientId=" + clientId + topicKey, new LegacyMeter("bytes")));
    }

    /** {@code messages} records of {@code topic}, {@code bytes} in size, were consumed. */
    void consumed(String topic, long messages, long bytes) {
        byTopic.computeIfAbsent(topic, t -> register(",topic=" + t)).mark(messages, bytes);
        all.mark(messages, bytes);
    }
}
