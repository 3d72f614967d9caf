package io.zkgroups.chaos.offsets;

import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.coordinator.group.generated.OffsetCommitKey;
import org.apache.kafka.coordinator.group.generated.OffsetCommitValue;

import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * One offset commit as the group coordinator stored it in {@code __consumer_offsets}, decoded with the coordinator's
 * own generated classes: a key of version 0 or 1 is an offset commit (2 and up are group metadata and the new
 * protocol's records), a null value is the commit's deletion.
 *
 * @param logPartition    the partition of {@code __consumer_offsets} (one per group: its order is the commit order)
 * @param logOffset       the record's offset in it
 * @param offset          the committed offset; -1 for a deletion
 * @param commitTimestamp the broker's wall-clock time of the commit (ms); -1 for a deletion
 */
public record OffsetCommitRecord(int logPartition, long logOffset, String group, String topic, int partition, long offset,
                                 long commitTimestamp) {

    private static final short HIGHEST_OFFSET_KEY_VERSION = 1;

    public boolean deletion() {
        return offset < 0;
    }

    /** The commit in one record of {@code __consumer_offsets}, or empty if the record is not an offset commit. */
    public static Optional<OffsetCommitRecord> decode(int logPartition, long logOffset, byte[] key, byte[] value) {
        if (key == null || key.length < 2) {
            return Optional.empty();
        }
        ByteBuffer keyBuffer = ByteBuffer.wrap(key);
        short keyVersion = keyBuffer.getShort();
        if (keyVersion < 0 || keyVersion > HIGHEST_OFFSET_KEY_VERSION) {
            return Optional.empty();
        }
        OffsetCommitKey k = new OffsetCommitKey(new ByteBufferAccessor(keyBuffer), keyVersion);
        if (value == null) {
            return Optional.of(new OffsetCommitRecord(logPartition, logOffset, k.group(), k.topic(), k.partition(), -1, -1));
        }
        ByteBuffer valueBuffer = ByteBuffer.wrap(value);
        short valueVersion = valueBuffer.getShort();
        OffsetCommitValue v = new OffsetCommitValue(new ByteBufferAccessor(valueBuffer), valueVersion);
        return Optional.of(new OffsetCommitRecord(logPartition, logOffset, k.group(), k.topic(), k.partition(), v.offset(),
                v.commitTimestamp()));
    }

    /** {@code KAFKA-OFFSET logPartition logOffset group topic partition offset commitTimestamp}: a line of kafka-offsets.log. */
    public String line() {
        return "KAFKA-OFFSET " + logPartition + " " + logOffset + " " + group + " " + topic + " " + partition + " " + offset
                + " " + commitTimestamp;
    }

    /** The inverse of {@link #line()}; empty for any other line. */
    public static Optional<OffsetCommitRecord> parse(String line) {
        String[] f = line.trim().split(" ");
        if (f.length != 8 || !f[0].equals("KAFKA-OFFSET")) {
            return Optional.empty();
        }
        try {
            return Optional.of(new OffsetCommitRecord(Integer.parseInt(f[1]), Long.parseLong(f[2]), f[3], f[4],
                    Integer.parseInt(f[5]), Long.parseLong(f[6]), Long.parseLong(f[7])));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
