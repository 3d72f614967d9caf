package io.zkgroups.tool.consume;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * The poll-and-print loop of {@code consume}. It stops after {@code maxMessages}, after {@code idleTimeout} without
 * a record, at a record that does not deserialize (unless skipping), or on {@link Consumer#wakeup()} (SIGTERM).
 * When it stops inside a batch it seeks each partition back to its first record not handled, so that closing the
 * consumer commits exactly what was printed (or skipped).
 */
public final class ConsoleLoop {

    private static final Duration MAX_POLL = Duration.ofMillis(500);

    /** @param maxMessages null: unbounded; @param idleTimeout null: wait for records forever */
    public record Limits(Long maxMessages, Duration idleTimeout) {
    }

    /** @param failure the record that stopped the loop (null: none); @param stopReason why it stopped, for stderr */
    public record Outcome(long printed, long skipped, String stopReason, String failure) {
    }

    private final Consumer<byte[], byte[]> consumer;
    private final RecordDecoder decoder;
    private final RecordFormat format;
    private final boolean skipOnError;
    private final Limits limits;
    private final PrintWriter out;
    private final PrintWriter err;

    public ConsoleLoop(Consumer<byte[], byte[]> consumer, RecordDecoder decoder, RecordFormat format, boolean skipOnError,
                       Limits limits, PrintWriter out, PrintWriter err) {
        this.consumer = consumer;
        this.decoder = decoder;
        this.format = format;
        this.skipOnError = skipOnError;
        this.limits = limits;
        this.out = out;
        this.err = err;
    }

    public Outcome run() {
        long printed = 0;
        long skipped = 0;
        long lastRecord = System.nanoTime();
        try {
            while (true) {
                if (limits.maxMessages() != null && printed >= limits.maxMessages()) {
                    return new Outcome(printed, skipped, "printed --max-messages " + limits.maxMessages(), null);
                }
                Duration poll = MAX_POLL;
                if (limits.idleTimeout() != null) {
                    Duration left = limits.idleTimeout().minusNanos(System.nanoTime() - lastRecord);
                    if (left.isNegative() || left.isZero()) {
                        return new Outcome(printed, skipped, "no record for " + limits.idleTimeout().toMillis() + " ms", null);
                    }
                    poll = left.compareTo(MAX_POLL) < 0 ? left : MAX_POLL;
                }
                ConsumerRecords<byte[], byte[]> records = consumer.poll(poll);
                if (records.isEmpty()) {
                    continue;
                }
                lastRecord = System.nanoTime();
                Map<TopicPartition, Long> next = new HashMap<>();
                String failure = null;
                for (ConsumerRecord<byte[], byte[]> record : records) {
                    if (limits.maxMessages() != null && printed >= limits.maxMessages()) {
                        break;
                    }
                    RecordDecoder.Decoded decoded = decoder.decode(record);
                    if (decoded instanceof RecordDecoder.Decoded.Failure f) {
                        String where = record.topic() + "-" + record.partition() + " offset " + record.offset();
                        if (!skipOnError) {
                            failure = "cannot deserialize the " + f.reason() + " (record " + where
                                    + "; --skip-message-on-error skips such records)";
                            break;
                        }
                        err.println("zkgroups: skipped record " + where + ": cannot deserialize the " + f.reason());
                        err.flush();
                        skipped++;
                    } else {
                        RecordDecoder.Decoded.Text text = (RecordDecoder.Decoded.Text) decoded;
                        out.print(format.format(record, text.key(), text.value()));
                        printed++;
                    }
                    next.put(new TopicPartition(record.topic(), record.partition()), record.offset() + 1);
                }
                out.flush();
                boolean full = limits.maxMessages() != null && printed >= limits.maxMessages();
                if (full || failure != null) {
                    // the loop ends inside this batch: close() must commit what was handled, not what was fetched
                    for (TopicPartition tp : records.partitions()) {
                        consumer.seek(tp, next.getOrDefault(tp, records.records(tp).get(0).offset()));
                    }
                }
                if (failure != null) {
                    return new Outcome(printed, skipped, "a record could not be deserialized", failure);
                }
            }
        } catch (WakeupException stop) {
            return new Outcome(printed, skipped, "interrupted", null);
        }
    }
}
