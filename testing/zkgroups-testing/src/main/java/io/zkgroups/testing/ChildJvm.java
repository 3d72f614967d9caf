package io.zkgroups.testing;

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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A child JVM ({@code java} from {@code java.home}) for tests and tools that need a process of their own: a member to
 * SIGKILL, a server of another release, a consumer on another classpath. Built with {@link #builder}: main class,
 * classpath (this JVM's by default), heap, JVM options, arguments, environment; where its output goes (stdout read
 * line by line through {@link ChildOutput} and stderr to a file, or both to one log file). Then: await a stdout line
 * ({@link #requireLine}), write stdin lines ({@link #send}), signals ({@link #signal} through {@code kill}, so that
 * SIGSTOP/SIGCONT work like SIGKILL/SIGTERM), {@link #terminate} and {@link #kill}.
 * <pre>{@code
 * ChildJvm member = ChildJvm.builder("member-1", MemberMain.class.getName())
 *         .heapMb(128).args(List.of(connectString)).stderrTo(logDir.resolve("member-1.stderr.log")).start();
 * member.requireLine(0, "READY"::equals, Duration.ofSeconds(30), "READY");
 * member.kill();
 * }</pre>
 * Every child still running when this JVM exits (a test JVM ending, Ctrl-C) is killed by a shutdown hook.
 */
public final class ChildJvm {

    /** The child did not do what was awaited (exited, timed out); the message carries the tail of its stderr. */
    public static final class Failure extends IllegalStateException {
        Failure(String message) {
            super(message);
        }
    }

    /** JVM options for a fast start and little CPU (C1 only, serial GC, small stacks): many children on 2 cores. */
    public static final List<String> FAST_START = List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xss512k",
            "-XX:CICompilerCount=1");

    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> LIVE.forEach(Process::destroyForcibly), "kill-children"));
    }

    private final String name;
    private final Process process;
    private final Path log;
    private final ChildOutput stdout;
    private final Writer stdin;

    private ChildJvm(String name, Process process, Path log, ChildOutput stdout) {
        this.name = name;
        this.process = process;
        this.log = log;
        this.stdout = stdout;
        this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        LIVE.add(process);
        process.onExit().thenRun(() -> LIVE.remove(process));
    }

    /** A child named {@code name} (in thread names and messages) that runs {@code mainClass}. */
    public static Builder builder(String name, String mainClass) {
        return new Builder(name, mainClass);
    }

    /** What to start; every setting is optional. */
    public static final class Builder {
        private final String name;
        private final String mainClass;
        private String classpath = System.getProperty("java.class.path");
        private Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        private Integer heapMb;
        private final List<String> jvmOptions = new ArrayList<>();
        private final List<String> args = new ArrayList<>();
        private final Map<String, String> environment = new java.util.LinkedHashMap<>();
        private Path stderrFile;
        private Path outputFile;
        private Path directory;
        private boolean discardStderr;
        private Predicate<String> hook = line -> false;
        private Runnable onEnd = () -> { };

        private Builder(String name, String mainClass) {
            this.name = name;
            this.mainClass = mainClass;
        }

        /** The {@code java} executable; this JVM's by default (another, e.g., to run code on an older Java). */
        public Builder java(Path executable) {
            this.java = executable;
            return this;
        }

        /** The child's classpath; this JVM's by default. */
        public Builder classpath(String value) {
            this.classpath = value;
            return this;
        }

        /** {@code -Xmx<mb>m}; the JVM's default if not set. */
        public Builder heapMb(int mb) {
            this.heapMb = mb;
            return this;
        }

        /** Adds JVM options (before {@code -cp}); e.g. {@link #FAST_START}, {@code -D...}. */
        public Builder jvmOptions(List<String> options) {
            jvmOptions.addAll(options);
            return this;
        }

        /** Adds arguments of the main class. */
        public Builder args(List<String> values) {
            args.addAll(values);
            return this;
        }

        /** Sets an environment variable of the child (it inherits this JVM's otherwise). */
        public Builder environment(String variable, String value) {
            environment.put(variable, value);
            return this;
        }

        /** The child's working directory; this JVM's if not set. */
        public Builder directory(Path value) {
            this.directory = value;
            return this;
        }

        /** Appends the child's stderr to {@code file}; its stdout is read line by line. Inherited if not set. */
        public Builder stderrTo(Path file) {
            this.stderrFile = file;
            return this;
        }

        /** Drops the child's stderr (a tool's child whose log nobody reads). */
        public Builder discardStderr() {
            this.discardStderr = true;
            return this;
        }

        /** Appends stdout and stderr to {@code file} (a server's log); no lines to await then. */
        public Builder outputTo(Path file) {
            this.outputFile = file;
            return this;
        }

        /** Hands each stdout line first to {@code value}; a line for which it returns true is not kept. */
        public Builder onLine(Predicate<String> value) {
            this.hook = value;
            return this;
        }

        /** Runs {@code value} on the reader thread once the child's stdout has ended (every line handed over). */
        public Builder onEnd(Runnable value) {
            this.onEnd = value;
            return this;
        }

        /** The command line it would run. */
        public List<String> command() {
            List<String> command = new ArrayList<>();
            command.add(java.toString());
            if (heapMb != null) {
                command.add("-Xmx" + heapMb + "m");
            }
            command.addAll(jvmOptions);
            command.addAll(List.of("-cp", classpath, mainClass));
            command.addAll(args);
            return command;
        }

        /** Starts the child. */
        public ChildJvm start() {
            ProcessBuilder builder = new ProcessBuilder(command());
            builder.environment().putAll(environment);
            if (directory != null) {
                builder.directory(directory.toFile());
            }
            Path log = outputFile != null ? outputFile : stderrFile;
            try {
                if (log != null && log.toAbsolutePath().getParent() != null) {
                    Files.createDirectories(log.toAbsolutePath().getParent());
                }
                if (outputFile != null) {
                    builder.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(outputFile.toFile()));
                } else if (stderrFile != null) {
                    builder.redirectError(ProcessBuilder.Redirect.appendTo(stderrFile.toFile()));
                } else if (discardStderr) {
                    builder.redirectError(ProcessBuilder.Redirect.DISCARD);
                } else {
                    builder.redirectError(ProcessBuilder.Redirect.INHERIT);
                }
                Process process = builder.start();
                ChildOutput stdout = outputFile != null ? null : ChildOutput.start(process, "stdout-" + name, hook, onEnd);
                return new ChildJvm(name, process, log, stdout);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start " + name + " (" + mainClass + ")", e);
            }
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

    /** The process, for what this class does not offer. */
    public Process process() {
        return process;
    }

    /** The stdout reader: empty when the output goes to a file. */
    public ChildOutput output() {
        if (stdout == null) {
            throw new IllegalStateException(name + " writes its output to " + log + ", not to a reader");
        }
        return stdout;
    }

    /**
     * Waits for a stdout line at index {@code from} or later that matches; returns its index.
     *
     * @throws Failure if the process exits first or the time is up (with the tail of its stderr)
     */
    public int requireLine(int from, Predicate<String> matcher, Duration timeout, String what) {
        try {
            int[] found = {-1};
            boolean held = output().await(lines -> {
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

    /** The kept stdout lines so far. */
    public List<String> lines() {
        return output().lines();
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

    /** Closes the child's stdin: the end of input, which line-driven children take as their signal to stop. */
    public void closeStdin() {
        try {
            stdin.close();
        } catch (IOException e) {
            // gone already
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

    /** Waits for the exit and the end of its stdout; returns the exit code. */
    public int awaitExit(Duration timeout) {
        if (!waitFor(timeout)) {
            throw failure("did not exit within " + timeout);
        }
        if (stdout != null) {
            try {
                stdout.awaitClosed(Duration.ofSeconds(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
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

    /** The last {@code chars} characters of the stderr (or output) file; empty if there is none. */
    public String logTail(int chars) {
        if (log == null || !Files.exists(log)) {
            return "";
        }
        try {
            String text = Files.readString(log, StandardCharsets.UTF_8);
            return text.substring(Math.max(0, text.length() - chars));
        } catch (IOException e) {
            return "(cannot read " + log + ")";
        }
    }

    /** A failure naming the process, with the tail of its stderr. */
    public Failure failure(String what) {
        return new Failure(name + " (pid " + process.pid() + "): " + what + "\n--- stderr tail (" + log + ") ---\n"
                + logTail(3000));
    }

    @Override
    public String toString() {
        return name + " (pid " + process.pid() + (process.isAlive() ? "" : ", exited") + ")";
    }
}
