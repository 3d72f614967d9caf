package io.zkgroups.it.consumer;

import io.zkgroups.testing.ChildOutput;
import org.apache.kafka.common.TopicPartition;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
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
    private final Process process;
    private final Path stderrFile;
    private final Writer stdin;
    private final DeliveryLog log;
    /** REC lines read; they go to the log, not into {@link #stdout}. */
    private final AtomicInteger delivered = new AtomicInteger();
    private final ChildOutput stdout;

    private ChildConsumer(String name, Process process, Path stderrFile, DeliveryLog log) {
        this.name = name;
        this.process = process;
        this.stderrFile = stderrFile;
        this.log = log;
        this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.US_ASCII);
        this.stdout = ChildOutput.start(process, "child-" + name + "-stdout", this::takeRecord);
    }

    /** Starts {@code ConsumerProcessMain topic props...}; does not wait for anything. */
    static ChildConsumer start(String name, String topic, Map<String, String> properties, DeliveryLog log) {
        try {
            Path dir = Path.of("target", "child-consumers").toAbsolutePath();
            Files.createDirectories(dir);
            Path stderrFile = dir.resolve(name + "-" + SEQUENCE.incrementAndGet() + ".stderr.log");
            List<String> command = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                    "-cp", System.getProperty("java.class.path"),
                    ConsumerProcessMain.class.getName(), topic));
            properties.forEach((k, v) -> command.add(k + "=" + v));
            Process process = new ProcessBuilder(command).redirectError(stderrFile.toFile()).start();
            return new ChildConsumer(name, process, stderrFile, log);
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
        stdout.require(events -> delivered.get() >= count, timeout, count + " delivered records", this::failure);
    }

    /** Waits for a non-REC line matching {@code matcher} at index {@code from} or later; returns its index. */
    int awaitLine(int from, Predicate<String> matcher, Duration timeout, String description) {
        return stdout.requireLine(from, matcher, timeout, description, this::failure);
    }

    /** The lines other than REC so far. */
    List<String> events() {
        return stdout.lines();
    }

    /** Writes {@code line} to the child's stdin (commands of {@link ConsumerProcessMain}). */
    void send(String line) {
        try {
            stdin.write(line + "\n");
            stdin.flush();
        } catch (IOException e) {
            throw failure("cannot write '" + line + "' to stdin: " + e);
        }
    }

    /** Sends SIGSTOP (freeze) or SIGCONT (thaw) to the process, as a GC pause or a stopped VM would. */
    void signal(String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start();
            if (kill.waitFor() != 0) {
                throw failure("kill -" + signal + " failed");
            }
        } catch (IOException e) {
            throw failure("kill -" + signal + ": " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw failure("interrupted sending " + signal);
        }
    }

    long pid() {
        return process.pid();
    }

    /** Graceful leave: {@code close} on stdin, then CLOSED and exit 0. */
    @Override
    public void close() {
        if (process.isAlive()) {
            try {
                stdin.write("close\n");
                stdin.flush();
            } catch (IOException e) {
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
        process.destroyForcibly();
        awaitExit(Duration.ofSeconds(30));
    }

    /** Kills the process if it still runs (cleanup after a failed test). */
    void destroy() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }

    /** Waits for the process to end and for its output to be read; returns its exit code. */
    int awaitExit(Duration timeout) {
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw failure("did not exit within " + timeout);
            }
            stdout.awaitClosed(Duration.ofSeconds(10));
            return process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw failure("interrupted while waiting for exit");
        }
    }

    /** The hook of {@link #stdout}: a REC line goes into the log and is counted instead of kept. */
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
        return new AssertionError("child consumer '" + name + "' (pid " + process.pid() + "): " + what
                + "\n--- events: " + events() + "\n--- stderr (" + stderrFile + ", tail) ---\n"
                + err.substring(Math.max(0, err.length() - STDERR_TAIL_CHARS)));
    }

    @Override
    public String toString() {
        return "ChildConsumer[" + name + ", pid " + process.pid() + (process.isAlive() ? "" : ", exited") + "]";
    }
}
