package io.zkgroups.chaos.cluster;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The orchestrator's own log ({@code journal.log}): what it did and when, as {@code KIND nanos detail} lines
 * ({@code System.nanoTime()}). The monitor reads {@code CLOCK}, {@code KILL}, {@code STOP}, {@code CONT},
 * {@code POISON-SESSION} and {@code FAULT*} lines; the rest is for people. Also echoed to stdout when asked.
 * <pre>
 * CLOCK nanos wallMillis          the two clocks read back to back (ZooKeeper's transaction times are wall clock)
 * KILL nanos process              SIGKILL sent (its uncommitted window explains duplicates)
 * STOP|CONT nanos process         SIGSTOP / SIGCONT sent
 * POISON-SESSION nanos hexId      the ZooKeeper session that writes garbage: its writes are not commits
 * FAULT nanos index name detail   a fault begins;  FAULT-END nanos index;  HEALTHY|UNHEALTHY nanos index ms
 * RESUMED|NOT-RESUMED nanos index ms   consumption resumed after the fault (or not, within the run's wait)
 * KAFKA-OFFSETS nanos detail      __consumer_offsets was copied into kafka-offsets.log
 * UNCHECKED nanos why             a check cannot run (e.g. __consumer_offsets could not be read): the run fails
 * </pre>
 * A detail is kept on one line: the monitor reads every line but a torn last one.
 */
public final class Journal implements AutoCloseable {

    private final BufferedWriter out;
    private final boolean echo;

    public Journal(Path file, boolean echo) {
        this.echo = echo;
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            this.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes {@code KIND nanos detail}; returns the nanos written. */
    public synchronized long log(String kind, String detail) {
        long now = System.nanoTime();
        String line = kind + " " + now + (detail.isEmpty() ? "" : " " + detail.replace('\n', ' ').replace('\r', ' '));
        try {
            out.write(line);
            out.newLine();
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (echo) {
            System.out.println(line);
        }
        return now;
    }

    /** A CLOCK line: ZooKeeper transaction times (wall clock) are mapped onto nanoTime with the nearest one. */
    public void clock() {
        log("CLOCK", Long.toString(System.currentTimeMillis()));
    }

    @Override
    public synchronized void close() {
        try {
            out.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
