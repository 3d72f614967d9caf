package io.zkgroups.it.consumer;

import org.apache.kafka.common.TopicPartition;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
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
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
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
    private final Thread reader;
    private final DeliveryLog log;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final List<String> events = new ArrayList<>();
    private int delivered;
    private boolean stdoutClosed;

    private ChildConsumer(String name, Process process, Path stderrFile, DeliveryLog log) {
        this.name = name;
        this.process = process;
        this.stderrFile = stderrFile;
        this.log = log;
        this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.US_ASCII);
        this.reader = new Thread(this::readStdout, "child-" + name + "-stdout");
        reader.setDaemon(true);
        reader.start();
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
        lock.lock();
        try {
            return delivered;
        } finally {
            lock.unlock();
        }
    }

    /** Waits until {@code delivered() >= count}. */
    void awaitDelivered(int count, Duration timeout) {
        awaitCondition(() -> delivered >= count, timeout, count + " delivered records");
    }

    /** Waits for a non-REC line matching {@code matcher} at index {@code from} or later; returns its index. */
    int awaitLine(int from, Predicate<String> matcher, Duration timeout, String description) {
        int[] found = {-1};
        awaitCondition(() -> {
            for (int i = from; i < events.size(); i++) {
                if (matcher.test(events.get(i))) {
                    found[0] = i;
                    return true;
                }
            }
            return false;
        }, timeout, description);
        return found[0];
    }

    /** The lines other than REC so far. */
    List<String> events() {
        lock.lock();
        try {
            return List.copyOf(events);
        } finally {
            lock.unlock();
        }
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

    private int awaitExit(Duration timeout) {
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw failure("did not exit within " + timeout);
            }
            reader.join(TimeUnit.SECONDS.toMillis(10));
            return process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw failure("interrupted while waiting for exit");
        }
    }

    private void awaitCondition(java.util.function.BooleanSupplier condition, Duration timeout, String description) {
        long deadline = System.nanoTime() + timeout.toNanos();
        lock.lock();
        try {
            while (!condition.getAsBoolean()) {
                if (stdoutClosed) {
                    throw failure("stdout closed (process exited) while waiting for " + description);
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw failure("timed out after " + timeout + " waiting for " + description);
                }
                changed.awaitNanos(left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw failure("interrupted while waiting for " + description);
        } finally {
            lock.unlock();
        }
    }

    private void readStdout() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII))) {
            String line;
            while ((line = in.readLine()) != null) {
                if (line.startsWith("REC ")) {
                    String[] f = line.split(" ");
                    log.record(name, new TopicPartition(f[1], Integer.parseInt(f[2])), Long.parseLong(f[3]));
                }
                lock.lock();
                try {
                    if (line.startsWith("REC ")) {
                        delivered++;
                    } else {
                        events.add(line);
                    }
                    changed.signalAll();
                } finally {
                    lock.unlock();
                }
            }
        } catch (IOException e) {
            // a broken pipe ends the stream like EOF
        } finally {
            lock.lock();
            try {
                stdoutClosed = true;
                changed.signalAll();
            } finally {
                lock.unlock();
            }
        }
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
