package io.zkgroups.chaos.offsets;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads every offset commit of one group from Kafka's internal {@code __consumer_offsets} topic, from its start to
 * its end as of the call, with a plain kafka-clients consumer ({@code exclude.internal.topics=false}, no group of its
 * own). The order is the topic's: all of a group's commits are in one of its partitions, in the order the
 * coordinator accepted them.
 */
public final class ConsumerOffsetsReader {

    public static final String TOPIC = "__consumer_offsets";

    private ConsumerOffsetsReader() {
    }

    /** The group's commits (all topics), in log order; empty if nothing was ever committed to Kafka. */
    public static List<OffsetCommitRecord> read(String bootstrapServers, String group, Duration timeout) {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        config.put(ConsumerConfig.EXCLUDE_INTERNAL_TOPICS_CONFIG, false);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<OffsetCommitRecord> commits = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<PartitionInfo> infos = consumer.partitionsFor(TOPIC, timeout);
            if (infos == null || infos.isEmpty()) {
                return commits; // the topic is created by the first commit
            }
            List<TopicPartition> partitions = infos.stream().map(i -> new TopicPartition(TOPIC, i.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = new HashMap<>(consumer.endOffsets(partitions, timeout));
            ends.values().removeIf(end -> end == 0);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (!ends.isEmpty()) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("reading " + TOPIC + " took longer than " + timeout + "; still to read: "
                            + ends);
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    Optional<OffsetCommitRecord> commit = OffsetCommitRecord.decode(r.partition(), r.offset(), r.key(), r.value());
                    commit.filter(c -> c.group().equals(group)).ifPresent(commits::add);
                }
                ends.entrySet().removeIf(e -> consumer.position(e.getKey()) >= e.getValue());
            }
        }
        commits.sort(java.util.Comparator.comparingInt(OffsetCommitRecord::logPartition)
                .thenComparingLong(OffsetCommitRecord::logOffset));
        return commits;
    }
}
