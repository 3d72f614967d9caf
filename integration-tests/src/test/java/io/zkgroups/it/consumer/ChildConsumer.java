package io.zkgroups.it.consumer;

import io.zkgroups.testing.ChildJvm;
import org.apache.kafka.common.TopicPartition;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * A {@link ConsumerProcessMain} in a child JVM (java from {@code java.home}, this JVM's classpath): its REC lines
 * go into a {@link DeliveryLog} under its name as they arrive, every other line is kept for {@link #awaitLine}.
 * Its stderr is in {@code target/child-consumers/<name>-<n>.stderr.log} and quoted in failure messages.
 */
final class ChildConsumer implements AutoCloseable {

    private static final AtomicInteger SEQUENCE = new AtomicInteger();
    private static final int STDERR_TAIL_CHARS = 4_000;

    final String name;
    private final Path stderrFile;
    private final DeliveryLog log;
    /** REC lines read; they go to the log, not into the kept lines. */
    private final AtomicInteger delivered = new AtomicInteger();
    private ChildJvm jvm;

    private ChildConsumer(String name, Path stderrFile, DeliveryLog log) {
        this.name = name;
        this.stderrFile = stderrFile;
        this.log = log;
    }

    /** Starts {@code ConsumerProcessMain topic props...}; does not wait for anything. */
    static ChildConsumer start(String name, String topic, Map<String, String> properties, DeliveryLog log) {
        try {
            Path dir = Path.of("target", "child-consumers").toAbsolutePath();
            Files.createDirectories(dir);
            Path stderrFile = dir.resolve(name + "-" + SEQUENCE.incrementAndGet() + ".stderr.log");
            List<String> args = new ArrayList<>(List.of(topic));
            properties.forEach((k, v) -> args.add(k + "=" + v));
            ChildConsumer consumer = new ChildConsumer(name, stderrFile, log);
            consumer.jvm = ChildJvm.builder("child-" + name, ConsumerProcessMain.class.getName())
                    .heapMb(128).jvmOptions(List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1")).args(args)
                    .stderrTo(stderrFile).onLine(consumer::takeRecord)
                    .start();
            return consumer;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start child consumer " + name, e);
        }
    }

    /** Records delivered so far (REC lines read). */
    int delivered() {
        return delivered.get();
    }

    /** Waits until {@code delivered() >= count}. */
    void awaitDelivered(int count, Duration timeout) {
        jvm.output().require(events -> delivered.get() >= count, timeout, count + " delivered records", this::failure);
    }

    /** Waits for a non-REC line matching {@code matcher} at index {@code from} or later; returns its index. */
    int awaitLine(int from, Predicate<String> matcher, Duration timeout, String description) {
        return jvm.output().requireLine(from, matcher, timeout, description, this::failure);
    }

    /** The lines other than REC so far. */
    List<String> events() {
        return jvm.lines();
    }

    /**
     * The partitions it holds as its listener told (ASSIGNED adds, REVOKED and LOST remove: right for a full and for
     * an incremental assignment alike).
     */
    Set<TopicPartition> held() {
        Set<TopicPartition> held = new HashSet<>();
        for (String line : events()) {
            String[] f = line.split(" ", 2);
            if (f.length < 2 || !List.of("ASSIGNED", "REVOKED", "LOST").contains(f[0])) {
                continue;
            }
            for (String name : f[1].trim().split(",")) {
                if (name.isEmpty()) {
                    continue; // an empty assignment
                }
                int dash = name.lastIndexOf('-');
                TopicPartition tp = new TopicPartition(name.substring(0, dash), Integer.parseInt(name.substring(dash + 1)));
                if (f[0].equals("ASSIGNED")) {
                    held.add(tp);
                } else {
                    held.remove(tp);
                }
            }
        }
        return held;
    }

    /** Writes {@code line} to the child's stdin (commands of {@link ConsumerProcessMain}). */
    void send(String line) {
        try {
            jvm.send(line);
        } catch (UncheckedIOException e) {
            throw failure("cannot write '" + line + "' to stdin: " + e.getCause());
        }
    }

    /** Sends SIGSTOP (freeze) or SIGCONT (thaw) to the process, as a GC pause or a stopped VM would. */
    void signal(String signal) {
        try {
            jvm.signal(signal);
        } catch (RuntimeException e) {
            throw failure("kill -" + signal + ": " + e.getMessage());
        }
    }

    long pid() {
        return jvm.pid();
    }

    /** Graceful leave: {@code close} on stdin, then CLOSED and exit 0. */
    @Override
    public void close() {
        if (jvm.isAlive()) {
            try {
                jvm.send("close");
            } catch (UncheckedIOException e) {
                // gone already: the exit code tells
            }
        }
        awaitLine(0, "CLOSED"::equals, Duration.ofSeconds(60), "CLOSED");
        int exit = awaitExit(Duration.ofSeconds(30));
        if (exit != 0) {
            throw failure("exited with " + exit + " after close");
        }
    }

    /** SIGKILL; returns once the process is gone and every line it had written has been read. */
    void kill() {
        jvm.process().destroyForcibly();
        awaitExit(Duration.ofSeconds(30));
    }

    /** Kills the process if it still runs (cleanup after a failed test). */
    void destroy() {
        if (jvm.isAlive()) {
            jvm.process().destroyForcibly();
        }
    }

    /** Waits for the process to end and for its output to be read; returns its exit code. */
    int awaitExit(Duration timeout) {
        try {
            return jvm.awaitExit(timeout);
        } catch (ChildJvm.Failure e) {
            throw failure("did not exit within " + timeout);
        }
    }

    /** The stdout hook: a REC line goes into the log and is counted instead of kept. */
    private boolean takeRecord(String line) {
        if (!line.startsWith("REC ")) {
            return false;
        }
        String[] f = line.split(" ");
        log.record(name, new TopicPartition(f[1], Integer.parseInt(f[2])), Long.parseLong(f[3]));
        delivered.incrementAndGet();
        return true;
    }

    private AssertionError failure(String what) {
        String err;
        try {
            err = Files.exists(stderrFile) ? Files.readString(stderrFile, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            err = "(cannot read " + stderrFile + ": " + e + ")";
        }
        return new AssertionError("child consumer '" + name + "' (pid " + jvm.pid() + "): " + what
                + "\n--- events: " + events() + "\n--- stderr (" + stderrFile + ", tail) ---\n"
                + err.substring(Math.max(0, err.length() - STDERR_TAIL_CHARS)));
    }

    @Override
    public String toString() {
        return "ChildConsumer[" + name + ", pid " + jvm.pid() + (jvm.isAlive() ? "" : ", exited") + "]";
    }
}
