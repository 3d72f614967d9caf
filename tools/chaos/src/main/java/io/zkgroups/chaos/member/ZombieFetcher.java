package io.zkgroups.chaos.member;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The broken part of {@link MemberMode#IGNORE_LOSS}: partitions the member lost or had revoked are fetched on by a
 * plain KafkaConsumer of its own and handed out as if still owned, like an application that ignores
 * {@code onPartitionsRevoked}/{@code onPartitionsLost}.
 */
final class ZombieFetcher implements AutoCloseable {

    private final KafkaConsumer<byte[], byte[]> fetcher;
    private final Map<TopicPartition, Long> kept = new HashMap<>();

    ZombieFetcher(String bootstrapServers) {
        this.fetcher = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false",
                ConsumerConfig.CLIENT_ID_CONFIG, "zombie"), new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    void keep(TopicPartition tp, long position) {
        kept.put(tp, position);
        reassign();
    }

    /** Partitions assigned again are served by the member itself. */
    void forget(Collection<TopicPartition> partitions) {
        if (kept.keySet().removeAll(partitions)) {
            reassign();
        }
    }

    private void reassign() {
        fetcher.assign(new ArrayList<>(kept.keySet()));
        kept.forEach(fetcher::seek);
    }

    void poll(MemberLog log) {
        if (kept.isEmpty()) {
            return;
        }
        ConsumerRecords<byte[], byte[]> records = fetcher.poll(Duration.ofMillis(10));
        long now = System.nanoTime();
        for (TopicPartition tp : records.partitions()) {
            List<ConsumerRecord<byte[], byte[]>> list = records.records(tp);
            log.records(now, tp.partition(), list.get(0).offset(), list.get(list.size() - 1).offset());
            kept.put(tp, list.get(list.size() - 1).offset() + 1);
        }
        log.flush();
    }

    @Override
    public void close() {
        fetcher.close(Duration.ofSeconds(1));
    }
}
