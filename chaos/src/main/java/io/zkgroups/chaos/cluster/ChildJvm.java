package io.zkgroups.chaos.cluster;

import io.zkgroups.testing.ChildOutput;

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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * One child JVM of the run (a ZooKeeper server, the broker, a member): java from {@code java.home}, this JVM's
 * classpath, a small heap and C1 only (fast start, little CPU on a 2-core machine). Its stdout is read line by
 * line ({@link #requireLine}), its stderr goes to {@code <name>.stderr.log} in the log directory. Signals are sent
 * with {@code kill}, so that SIGSTOP/SIGCONT work like SIGKILL/SIGTERM.
 */
public final class ChildJvm {

    /** Every child still running: killed by a shutdown hook if the orchestrator is stopped (Ctrl-C, SIGTERM). */
    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

    private final String name;
    private final Process process;
    private final Path stderr;
    private final ChildOutput stdout;
    private final Writer stdin;

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> LIVE.forEach(Process::destroyForcibly), "kill-children"));
    }

    private ChildJvm(String name, Process process, Path stderr, Predicate<String> hook) {
        this.name = name;
        this.process = process;
        this.stderr = stderr;
        this.stdout = ChildOutput.start(process, "stdout-" + name, hook);
        this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        LIVE.add(process);
        process.onExit().thenRun(() -> LIVE.remove(process));
    }

    /** Starts {@code mainClass args...} with this JVM's classpath, {@code -Xmx<heapMb>m} and the extra JVM options. */
    public static ChildJvm start(String name, Path logDir, int heapMb, List<String> jvmOptions, String mainClass,
                                 List<String> args) {
        return start(name, logDir, heapMb, jvmOptions, System.getProperty("java.class.path"), mainClass, args, line -> false);
    }

    /**
     * As {@link #start(String, Path, int, List, String, List)} with another classpath (the 0.8.2.2 consumer's); each
     * stdout line first goes to {@code hook}, which keeps it from {@link #lines()} by returning true.
     */
    public static ChildJvm start(String name, Path logDir, int heapMb, List<String> jvmOptions, String classpath,
                                 String mainClass, List<String> args, Predicate<String> hook) {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + heapMb + "m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xss512k",
                "-XX:CICompilerCount=1"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", classpath, mainClass));
        command.addAll(args);
        try {
            Files.createDirectories(logDir);
            Path stderr = logDir.resolve(name + ".stderr.log");
            Process process = new ProcessBuilder(command)
                    .redirectError(ProcessBuilder.Redirect.appendTo(stderr.toFile()))
                    .start();
            return new ChildJvm(name, process, stderr, hook);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name, e);
        }
    }

    public String name() {
        return name;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /**
     * Waits for a stdout line at index {@code from} or later that matches; returns its index.
     *
     * @throws ChaosException if the process exits first or the time is up (with the tail of its stderr)
     */
    public int requireLine(int from, Predicate<String> matcher, Duration timeout, String what) {
        try {
            int[] found = {-1};
            boolean held = stdout.await(lines -> {
                for (int i = from; i < lines.size(); i++) {
                    if (matcher.test(lines.get(i))) {
                        found[0] = i;
                        return true;
                    }
                }
                return false;
            }, timeout);
            if (!held) {
                throw failure((stdout.isClosed() ? "exited" : "timed out after " + timeout) + " waiting for " + what);
            }
            return found[0];
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw failure("interrupted waiting for " + what);
        }
    }

    /** The stdout lines so far. */
    public List<String> lines() {
        return stdout.lines();
    }

    /** Writes one line to the child's stdin. */
    public void send(String line) {
        try {
            stdin.write(line + "\n");
            stdin.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(name + " does not read its stdin any more", e);
        }
    }

    /** Sends a signal by name ({@code STOP}, {@code CONT}, {@code TERM}, {@code KILL}). */
    public void signal(String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-s", signal, Long.toString(process.pid()))
                    .redirectErrorStream(true).start();
            String out = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (kill.waitFor() != 0 && process.isAlive()) {
                throw failure("kill -s " + signal + " failed: " + out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run kill", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw failure("interrupted sending " + signal);
        }
    }

    /** SIGKILL; returns once the process is gone and its stdout is read to the end. */
    public void kill() {
        process.toHandle().destroyForcibly();
        awaitExit(Duration.ofSeconds(30));
    }

    /** SIGTERM; waits up to {@code timeout} for the exit (shutdown hooks run), then SIGKILL. Returns the exit code. */
    public int terminate(Duration timeout) {
        sigterm();
        return awaitTermination(timeout);
    }

    /** Sends SIGTERM and returns at once. */
    public void sigterm() {
        // Through the ProcessHandle: Process.destroy() also closes our end of the child's stdout at once, losing
        // the lines its shutdown hook still prints (a 0.8.2.2 consumer's last messages).
        process.toHandle().destroy();
    }

    /** After {@link #sigterm}: waits up to {@code timeout} for the exit, then SIGKILLs; returns the exit code. */
    public int awaitTermination(Duration timeout) {
        if (!waitFor(timeout)) {
            kill();
        }
        return awaitExit(Duration.ofSeconds(30));
    }

    /** Waits for the exit; returns the exit code. */
    public int awaitExit(Duration timeout) {
        if (!waitFor(timeout)) {
            throw failure("did not exit within " + timeout);
        }
        try {
            stdout.awaitClosed(Duration.ofSeconds(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return process.exitValue();
    }

    private boolean waitFor(Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw failure("interrupted waiting for the exit");
        }
    }

    /** A failure naming the process, with the tail of its stderr. */
    public ChaosException failure(String what) {
        String err;
        try {
            err = Files.exists(stderr) ? Files.readString(stderr, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            err = "(cannot read " + stderr + ")";
        }
        return new ChaosException(name + " (pid " + process.pid() + "): " + what + "\n--- stderr tail (" + stderr
                + ") ---\n" + err.substring(Math.max(0, err.length() - 3000)));
    }

    @Override
    public String toString() {
        return name + " (pid " + process.pid() + (process.isAlive() ? "" : ", exited") + ")";
    }
}
