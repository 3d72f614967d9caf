package io.zkgroups.chaos.member;

import org.apache.kafka.common.TopicPartition;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Collection;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A member's log file, one line per event, each starting with its kind and {@code System.nanoTime()}:
 * <pre>
 * START nanos consumerId pid mode
 * REC nanos partition fromOffset toOffset      records handed to the application (inclusive range, one poll)
 * ASSIGNED|REVOKED|LOST nanos p,p,...           the rebalance listener's calls ("-" for none)
 * REVOKE-TIMEOUT nanos p,p,...                  the revocation timed out, so the consumer released the partitions
 *                                               without a commit (at-least-once): just before their LOST if the poll
 *                                               thread had not begun revoking, else after their REVOKED and its commit
 * COMMIT nanos why p=offset,p=offset,...        before commitSync (why: interval or revoke)
 * COMMITTED nanos                               commitSync returned
 * COMMIT-FAILED nanos text                      commitSync threw
 * SLOW-REVOKE|SLOW-PROCESS nanos ms             an injected slow callback / slow processing begins
 * ERROR nanos text                              poll threw (the member goes on), or the member failed
 * CLOSED nanos                                  a graceful leave completed
 * </pre>
 * Record lines are flushed before the next commit can happen, so a committed offset is always in the file before
 * the commit, also when the process is SIGKILLed. Lines other than REC and COMMIT* are also echoed to stdout.
 */
final class MemberLog implements AutoCloseable {

    private final BufferedWriter out;

    private MemberLog(BufferedWriter out) {
        this.out = out;
    }

    static MemberLog open(Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        return new MemberLog(Files.newBufferedWriter(file, StandardCharsets.US_ASCII, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND));
    }

    synchronized void records(long nanos, int partition, long from, long to) {
        write("REC " + nanos + " " + partition + " " + from + " " + to);
    }

    synchronized void partitions(String kind, Collection<TopicPartition> partitions) {
        event(kind, partitions.isEmpty() ? "-" : partitions.stream().map(tp -> Integer.toString(tp.partition()))
                .sorted().collect(Collectors.joining(",")));
    }

    synchronized void commitStart(String why, Map<Integer, Long> offsets) {
        event("COMMIT", why + " " + offsets.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(",")));
    }

    /** Writes and flushes {@code KIND nanos detail}, and echoes it to stdout unless it is about a commit. */
    synchronized void event(String kind, String detail) {
        String line = kind + " " + System.nanoTime() + (detail.isEmpty() ? "" : " " + detail);
        write(line);
        flush();
        if (!kind.startsWith("COMMIT")) {
            System.out.println(line);
            System.out.flush();
        }
    }

    synchronized void flush() {
        try {
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void write(String line) {
        try {
            out.write(line);
            out.newLine();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public synchronized void close() {
        try {
            out.close();
        } catch (IOException e) {
            // the process is ending
        }
    }
}
