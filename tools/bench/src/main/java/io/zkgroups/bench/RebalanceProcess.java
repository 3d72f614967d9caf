package io.zkgroups.bench;

import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.testing.ChildJvm;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A group member in a {@link ChildJvm}, seen from the coordinator: ours ({@link RebalanceMemberMain}) or a real
 * 0.8.2.2 consumer ({@code io.zkgroups.legacy.LegacyConsumerMain}, no fetcher). Its stdout lines are parsed as they
 * come; every line wakes whoever waits in {@link #await}.
 */
final class RebalanceProcess implements AutoCloseable {

    /** Notified on every line of every process and on every ZooKeeper event the observer sees. */
    static final Object MONITOR = new Object();

    /** The latest {@code STATE} line of one of our members. */
    record Status(long nanos, String state, long generation, Set<Integer> owned, long cpuNanos) {
    }

    final String name;
    final ConsumerId id;
    final boolean legacy;
    private ChildJvm jvm;
    volatile long readyAt;
    volatile long startingAt;
    volatile long leavingAt;
    volatile Status status;
    /** CPU nanos of the member when it printed READY (it had connected and warmed up). */
    volatile long firstCpuNanos;
    volatile boolean ended;
    volatile String error;

    private RebalanceProcess(String name, ConsumerId id, boolean legacy) {
        this.name = name;
        this.id = id;
        this.legacy = legacy;
    }

    /**
     * Extra options for member JVMs from {@code BENCH_MEMBER_JVM_OPTS} (space-separated; {@code {name}} becomes the
     * member's name), e.g. {@code -XX:StartFlightRecording=filename=tools/bench/target/{name}.jfr} to profile the members.
     */
    static List<String> extraJvmOptions(String name) {
        String opts = System.getenv("BENCH_MEMBER_JVM_OPTS");
        if (opts == null || opts.isBlank()) {
            return List.of();
        }
        return java.util.Arrays.stream(opts.trim().split("\\s+")).map(o -> o.replace("{name}", name)).toList();
    }

    /** One of ours, with the coordinator's own classpath. */
    static RebalanceProcess ours(String connect, String group, String name, String topic, int sessionMs,
                                 String strategy, long debounceMs, int warmUpRounds, boolean autoStart, Path logDir) {
        // C1 only: on a 2-core machine the C2 compiler threads of 10 member JVMs compete with the rebalance being
        // measured (joins and leaves at 10 x 100 took 20-40 % longer with tiered compilation after the same warm-up).
        List<String> jvmOptions = new ArrayList<>(List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Dbench.warmup.rounds=" + warmUpRounds,
                "-Dbench.autostart=" + autoStart,
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-Dorg.slf4j.simpleLogger.log.io.zkgroups=info",
                "-Dorg.slf4j.simpleLogger.showDateTime=true",
                "-Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS"));
        jvmOptions.addAll(extraJvmOptions(name));
        return launch(name, ConsumerId.ofOverride(group, name), false, ChildJvm.builder(name, RebalanceMemberMain.class.getName())
                .heapMb(96).jvmOptions(jvmOptions)
                .args(List.of(connect, group, name, topic, Integer.toString(sessionMs), strategy, Long.toString(debounceMs))),
                logDir);
    }

    /** A real 0.8.2.2 consumer with {@code legacyClasspath} (legacy-driver classes + its dependencies). */
    static RebalanceProcess legacy(String legacyClasspath, String connect, String group, String name, String topic,
                                   int sessionMs, String strategy, long backoffMs, int retries, Path logDir) {
        try {
            Files.createDirectories(logDir);
            Properties props = new Properties();
            props.setProperty("zookeeper.connect", connect);
            props.setProperty("group.id", group);
            props.setProperty("consumer.id", name);
            props.setProperty("partition.assignment.strategy", strategy);
            props.setProperty("zookeeper.session.timeout.ms", Integer.toString(sessionMs));
            // connecting only (a fresh JVM on a loaded machine can take longer than a short session)
            props.setProperty("zookeeper.connection.timeout.ms", "30000");
            props.setProperty("rebalance.backoff.ms", Long.toString(backoffMs));
            props.setProperty("rebalance.max.retries", Integer.toString(retries));
            props.setProperty("auto.commit.enable", "false");
            Path file = logDir.resolve(group + "-" + name + ".properties");
            try (OutputStream out = Files.newOutputStream(file)) {
                props.store(out, "bench");
            }
            return launch(name, ConsumerId.ofOverride(group, name), true,
                    ChildJvm.builder(name, "io.zkgroups.legacy.LegacyConsumerMain")
                            .classpath(legacyClasspath).heapMb(128).jvmOptions(List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"))
                            .args(List.of(file.toString(), "--topic", topic + "=1", "--no-fetcher")),
                    logDir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static RebalanceProcess launch(String name, ConsumerId id, boolean legacy, ChildJvm.Builder builder,
                                           Path logDir) {
        RebalanceProcess member = new RebalanceProcess(name, id, legacy);
        member.jvm = builder.stderrTo(logDir.resolve(id.value() + ".log"))
                .onLine(member::parse).onEnd(member::end)
                .start();
        return member;
    }

    void send(String line) {
        jvm.send(line);
    }

    /** SIGKILL; returns when the process is gone. */
    void kill() {
        jvm.kill();
    }

    boolean awaitExit(Duration timeout) throws InterruptedException {
        return jvm.process().waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    boolean isAlive() {
        return jvm.isAlive();
    }

    /** Waits on {@link #MONITOR} until {@code condition} holds; false on timeout. */
    static boolean await(BooleanSupplier condition, Duration timeout) throws InterruptedException {
        return await(MONITOR, condition, timeout);
    }

    /**
     * Waits on {@code monitor} until {@code condition} holds, checked under its lock (whoever changes what it reads
     * calls {@code notifyAll} on it); false on timeout.
     */
    static boolean await(Object monitor, BooleanSupplier condition, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (monitor) {
            while (!condition.getAsBoolean()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(monitor, left);
            }
            return true;
        }
    }

    /** Takes one stdout line (none is kept). */
    private boolean parse(String line) {
        long now = System.nanoTime();
        String[] f = line.split(" ");
        synchronized (MONITOR) {
            switch (f[0]) {
                case "READY" -> {
                    readyAt = legacy ? now : Long.parseLong(f[1]);
                    firstCpuNanos = !legacy && f.length > 2 ? Long.parseLong(f[2]) : 0;
                }
                case "STARTING" -> startingAt = Long.parseLong(f[1]);
                case "LEAVING" -> leavingAt = Long.parseLong(f[1]);
                case "STATE" -> status = new Status(Long.parseLong(f[1]), f[2], Long.parseLong(f[3]),
                        f[4].equals("-") ? Set.of() : new TreeSet<>(Arrays.stream(f[4].split(","))
                                .map(Integer::valueOf).toList()), f.length > 5 ? Long.parseLong(f[5]) : 0);
                case "ERROR" -> error = line;
                default -> {
                    // LEFT, CLOSED, MSG...: nothing to track
                }
            }
            MONITOR.notifyAll();
        }
        return true;
    }

    /** The end of the stdout: the process is gone. */
    private void end() {
        synchronized (MONITOR) {
            ended = true;
            MONITOR.notifyAll();
        }
    }

    @Override
    public void close() {
        if (jvm.isAlive()) {
            try {
                send(legacy ? "shutdown" : "leave");
            } catch (UncheckedIOException gone) {
                // going anyway
            }
            jvm.awaitTermination(Duration.ofSeconds(20));
        }
    }

    @Override
    public String toString() {
        return id + (legacy ? " (0.8.2.2)" : "") + " status=" + status + (error != null ? " " + error : "");
    }
}
