package io.zkgroups.kafka08;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

import java.util.List;

/**
 * Records of one partition from one poll, tagged with the partition's {@link HandOutLedger generation} and the
 * epoch of the group's grant ({@link io.zkgroups.rebalancer.consumer.HandOutFence}) when they were fetched (0.8.2.2's
 * {@code FetchedDataChunk}). {@link #SHUTDOWN} ends a stream.
 */
public record Chunk(TopicPartition partition, long generation, long epoch, List<ConsumerRecord<byte[], byte[]>> records) {

    /** The last element a stream's queue ever gets: the connector shut down. */
    public static final Chunk SHUTDOWN = new Chunk(new TopicPartition("(shutdown)", -1), 0, 0, List.of());

    public Chunk {
        records = List.copyOf(records);
    }
}
