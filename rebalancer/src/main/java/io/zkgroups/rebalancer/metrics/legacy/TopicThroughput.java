package io.zkgroups.rebalancer.metrics.legacy;

import org.apache.kafka.clients.consumer.ConsumerRecord;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * 0.8.2.2's throughput meters, {@code kafka.consumer:type=ConsumerTopicMetrics,name=MessagesPerSec|BytesPerSec,
 * clientId=C} over all topics and {@code ...,clientId=C,topic=T} per topic. As in 0.8.2.2, a topic's pair appears with
 * its first records and stays until the consumer closes.
 */
final class TopicThroughput {

    private static final String TYPE = "kafka.consumer:type=ConsumerTopicMetrics";
    /** A 0.8 (magic 0) message's bytes besides its key and value in a message set: offset, size, crc, magic,
     *  attributes, key length, value length. */
    static final int MESSAGE_OVERHEAD_V0 = 8 + 4 + 4 + 1 + 1 + 4 + 4;

    private final MBeanRegistrations registrations;
    private final String clientId;
    private final Meters all;
    private final Map<String, Meters> byTopic = new ConcurrentHashMap<>();

    private static final class Meters {
        private final LegacyMeter messages;
        private final LegacyMeter bytes;

        Meters(LegacyMeter messages, LegacyMeter bytes) {
            this.messages = messages;
            this.bytes = bytes;
        }

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

    /**
     * What 0.8.2.2's {@code BytesPerSec} counts of {@code records}: the size of the message set they make in 0.8's
     * format (uncompressed).
     */
    static long messageSetBytes(List<? extends ConsumerRecord<?, ?>> records) {
        long bytes = (long) MESSAGE_OVERHEAD_V0 * records.size();
        for (ConsumerRecord<?, ?> r : records) {
            bytes += Math.max(0, r.serializedKeySize()) + Math.max(0, r.serializedValueSize());
        }
        return bytes;
    }

    /** {@code messages} records of {@code topic}, {@code bytes} in size, were consumed. */
    void consumed(String topic, long messages, long bytes) {
        byTopic.computeIfAbsent(topic, t -> register(",topic=" + t)).mark(messages, bytes);
        all.mark(messages, bytes);
    }
}
