package io.zkgroups.chaos.cluster;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The member log of a real 0.8.2.2 consumer, written by the orchestrator from the driver's output in the member log
 * format ({@code io.zkgroups.chaos.member.MemberLog}). The driver prints no times and no rebalance events: a
 * record's time is when its {@code MSG} line was read here (an upper bound of its hand-out), and the monitor takes
 * the member's tenures and commits from ZooKeeper's transaction log.
 * <pre>
 * READY id   -> START nanos id - legacy
 * MSG t p o  -> REC nanos p o o
 * CLOSED     -> CLOSED nanos;   ERROR text -> ERROR nanos text
 * </pre>
 */
final class LegacyLog {

    private final BufferedWriter out;

    private LegacyLog(BufferedWriter out) {
        this.out = out;
    }

    static LegacyLog open(Path file) {
        try {
            Files.createDirectories(file.getParent());
            return new LegacyLog(Files.newBufferedWriter(file, StandardCharsets.US_ASCII, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The stdout hook: logs the line; true (not kept) for records, false for events the orchestrator waits on. */
    boolean take(String line) {
        long now = System.nanoTime();
        String[] f = line.split(" ", 5);
        switch (f[0]) {
            case "MSG" -> {
                write("REC " + now + " " + f[2] + " " + f[3] + " " + f[3]);
                return true;
            }
            case "READY" -> write("START " + now + " " + (f.length > 1 ? f[1] : "?") + " - legacy");
            case "CLOSED" -> write("CLOSED " + now);
            case "ERROR" -> write("ERROR " + now + " " + line.substring("ERROR".length()).trim());
            default -> {
                // LIMIT, COMMITTED: not used by the run
            }
        }
        return false;
    }

    private synchronized void write(String line) {
        try {
            out.write(line);
            out.newLine();
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
