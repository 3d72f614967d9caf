package io.zkgroups.kafka08;

import io.zkgroups.registry.Immutable;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * Records of one partition from one poll, tagged with the partition's {@link HandOutLedger tenure} and the
 * epoch of the group's grant ({@link io.zkgroups.rebalancer.consumer.HandOutFence}) when they were fetched (0.8.2.2's
 * {@code FetchedDataChunk}). {@link #SHUTDOWN} ends a stream.
 */
public final class Chunk {
    private final TopicPartition partition;
    private final long tenure;
    private final long epoch;
    private final List<ConsumerRecord<ByteBuffer, ByteBuffer>> records;
    private final long bytes;

    /**
     * What a 0.8 message set spends on each message besides its key and value (offset, size, CRC, magic, attributes,
     * key and value lengths): chunks are measured as 0.8.2.2 measured what it fetched.
     */
    static final int MESSAGE_OVERHEAD = 26;

    /** The last element a stream's queue ever gets: the connector shut down. */
    public static final Chunk SHUTDOWN = new Chunk(new TopicPartition("(shutdown)", -1), 0, 0, Collections.emptyList());

    public Chunk(TopicPartition partition, long tenure, long epoch,
                 List<ConsumerRecord<ByteBuffer, ByteBuffer>> records) {
        records = Immutable.list(records);
        this.partition = partition;
        this.tenure = tenure;
        this.epoch = epoch;
        this.records = records;
        long size = 0;
        for (ConsumerRecord<ByteBuffer, ByteBuffer> r : records) {
            size += MESSAGE_OVERHEAD + Math.max(0, r.serializedKeySize()) + Math.max(0, r.serializedValueSize());
        }
        this.bytes = size;
    }

    public TopicPartition partition() {
        return partition;
    }

    public long tenure() {
        return tenure;
    }

    public long epoch() {
        return epoch;
    }

    public List<ConsumerRecord<ByteBuffer, ByteBuffer>> records() {
        return records;
    }

    /** Its size as a 0.8 message set: what the streams' bound counts. */
    public long bytes() {
        return bytes;
    }

    @Override
    public boolean equals(Object o) {
        if (o == this) {
            return true;
        }
        if (!(o instanceof Chunk)) {
            return false;
        }
        Chunk that = (Chunk) o;
        return Objects.equals(partition, that.partition)
                && tenure == that.tenure
                && epoch == that.epoch
                && Objects.equals(records, that.records);
    }

    @Override
    public int hashCode() {
        int h = 0;
        h = 31 * h + Objects.hashCode(partition);
        h = 31 * h + Long.hashCode(tenure);
        h = 31 * h + Long.hashCode(epoch);
        h = 31 * h + Objects.hashCode(records);
        return h;
    }

    @Override
    public String toString() {
        return "Chunk[partition=" + partition + ", tenure=" + tenure + ", epoch=" + epoch + ", records=" + records + "]";
    }
}
