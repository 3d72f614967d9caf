package io.zkgroups.tool.io;

import io.zkgroups.registry.model.TopicAndPartition;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.InvalidOffsetException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.RecordBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Reads the timestamp of the record at given offsets with one small fetch per partition: a consumer without a group in
 * {@code assign()} mode, {@code max.partition.fetch.bytes} small (the broker still returns the first batch whole), each
 * partition paused as soon as its first record arrived. A partition whose record does not arrive within the time
 * allowed, or whose record has no timestamp (message format v0), is left out: the caller interpolates instead.
 * Not thread-safe; the consumer is created on first use and closed by {@link #close()}.
 */
public final class RecordTimestamps implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RecordTimestamps.class);

    private final Supplier<Consumer<byte[], byte[]>> factory;
    private final Duration timeout;
    private Consumer<byte[], byte[]> consumer;

    /** @param timeout the time one {@link #at} may take in all */
    public RecordTimestamps(Supplier<Consumer<byte[], byte[]>> factory, Duration timeout) {
        this.factory = Objects.requireNonNull(factory, "factory");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
    }

    /**
     * The timestamp (ms since the epoch) of the first record at or after each offset, for those partitions whose record
     * arrived in time and carries one. Never throws for Kafka's failures: what could not be read is absent.
     */
    public Map<TopicAndPartition, Long> at(Map<TopicAndPartition, Long> offsets) {
        Map<TopicAndPartition, Long> found = new TreeMap<>();
        if (offsets.isEmpty()) {
            return found;
        }
        try {
            if (consumer == null) {
                consumer = factory.get();
            }
            List<TopicPartition> assigned = new ArrayList<>();
            offsets.keySet().forEach(tp -> assigned.add(KafkaGroups.to(tp)));
            consumer.assign(assigned);
            consumer.resume(assigned);
            offsets.forEach((tp, offset) -> consumer.seek(KafkaGroups.to(tp), offset));
            Set<TopicPartition> waiting = new HashSet<>(assigned);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (!waiting.isEmpty() && System.nanoTime() < deadline) {
                ConsumerRecords<byte[], byte[]> records;
                try {
                    records = consumer.poll(Duration.ofMillis(100));
                } catch (InvalidOffsetException e) { // deleted by retention since the log start was read
                    waiting.removeAll(e.partitions());
                    consumer.pause(e.partitions());
                    continue;
                }
                for (TopicPartition tp : records.partitions()) {
                    if (!waiting.remove(tp)) {
                        continue;
                    }
                    ConsumerRecord<byte[], byte[]> first = records.records(tp).get(0);
                    if (first.timestamp() != RecordBatch.NO_TIMESTAMP) {
                        found.put(KafkaGroups.from(tp), first.timestamp());
                    }
                    consumer.pause(List.of(tp));
                }
            }
            consumer.assign(List.of());
        } catch (KafkaException e) {
            LOG.warn("reading record timestamps: {}; interpolating from log end samples instead", e.toString());
            closeConsumer();
        }
        return found;
    }

    private void closeConsumer() {
        if (consumer != null) {
            boolean interrupted = Thread.interrupted(); // a command ended by an interrupt still closes cleanly
            try {
                consumer.close(Duration.ofSeconds(2));
            } catch (KafkaException e) {
                LOG.debug("closing the timestamp reader", e);
            } finally {
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
            consumer = null;
        }
    }

    @Override
    public void close() {
        closeConsumer();
    }
}
