package io.zkgroups.bench;

import io.zkgroups.testing.ChildJvm;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One child JVM of {@link ScaleBench} hosting several members, seen from the coordinator: ours
 * ({@link ScaleMemberMain}, whose {@code STATE} lines it keeps per member) or real 0.8.2.2 connectors
 * ({@code io.zkgroups.legacy.LegacyConnectorsMain}, which report nothing but errors: the coordinator watches their
 * owner znodes). Every line wakes whoever waits on {@link RebalanceProcess#MONITOR}.
 */
final class ScaleHost {

    /**
     * JVM options of every host: small heap, C1 only, small stacks (hundreds of client threads); then those of
     * {@code BENCH_MEMBER_JVM_OPTS} (see {@link RebalanceProcess}).
     */
    static final List<String> JVM_OPTIONS = List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xss512k",
            "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");

    final List<String> names;
    final boolean legacy;
    private final ChildJvm jvm;
    final Map<String, RebalanceProcess.Status> status = new ConcurrentHashMap<>();
    final List<String> errors = new ArrayList<>();
    volatile long readyAt;
    volatile long startingAt;
    volatile boolean ended;

    private ScaleHost(List<String> names, boolean legacy, ChildJvm.Builder builder, Path log) {
        this.names = names;
        this.legacy = legacy;
        List<String> jvmOptions = new ArrayList<>(JVM_OPTIONS);
        jvmOptions.addAll(RebalanceProcess.extraJvmOptions(names.get(0)));
        this.jvm = builder.jvmOptions(jvmOptions).heapMb(256).stderrTo(log).onLine(this::parse).onEnd(this::end).start();
    }

    /**
     * {@code count} of ours, {@code m<first>}.. (numbers zero-padded to {@code width} digits; 0: not padded), starting
     * as soon as connected if {@code autoStart}.
     */
    static ScaleHost ours(String connect, String group, int first, int count, int width, String topic, int sessionMs,
                          String strategy, long debounceMs, boolean autoStart, Path logDir) {
        List<String> args = List.of(connect, group, Integer.toString(first), Integer.toString(count), topic,
                Integer.toString(sessionMs), strategy, Long.toString(debounceMs), Boolean.toString(autoStart),
                Integer.toString(width));
        return new ScaleHost(names("m", first, count, width), false,
                ChildJvm.builder(group + "-m" + first, ScaleMemberMain.class.getName()).args(args),
                logDir.resolve(group + "-m" + first + ".log"));
    }

    /** {@code count} real 0.8.2.2 connectors {@code c<first>}.. (padded as by {@link #ours}), with {@code legacyClasspath}. */
    static ScaleHost legacy(String legacyClasspath, String connect, String group, int first, int count, int width,
                            String topic, int sessionMs, String strategy, long backoffMs, int retries, Path logDir) {
        List<String> args = List.of(connect, group, topic, Integer.toString(first), Integer.toString(count),
                Integer.toString(sessionMs), strategy, Long.toString(backoffMs), Integer.toString(retries),
                Integer.toString(width));
        return new ScaleHost(names("c", first, count, width), true,
                ChildJvm.builder(group + "-c" + first, "io.zkgroups.legacy.LegacyConnectorsMain")
                        .classpath(legacyClasspath).args(args),
                logDir.resolve(group + "-c" + first + ".log"));
    }

    private static List<String> names(String prefix, int first, int count, int width) {
        List<String> names = new ArrayList<>();
        for (int i = first; i < first + count; i++) {
            names.add(name(prefix, i, width));
        }
        return names;
    }

    /** Member {@code i}'s name: {@code prefix} and {@code i}, zero-padded to {@code width} digits (0: not padded). */
    static String name(String prefix, int i, int width) {
        return width > 0 ? prefix + String.format("%0" + width + "d", i) : prefix + i;
    }

    void send(String line) {
        jvm.send(line);
    }

    /** Every member of ours hosted here starts (those started already are left alone). */
    void start() {
        send("start");
    }

    /** One member leaves gracefully (ours: close(); 0.8.2.2: shutdown()). */
    void leave(String name) {
        send((legacy ? "shutdown " : "leave ") + name);
    }

    /** CPU ms the JVM has used so far, all threads ({@link ProcStat}); the last value read once the process is gone. */
    long cpuMillis() {
        try {
            lastCpuMillis = ProcStat.cpuMillis(jvm.pid());
        } catch (IOException | RuntimeException gone) {
            // exited: keep the last value
        }
        return lastCpuMillis;
    }

    private volatile long lastCpuMillis;

    /** SIGKILL; returns when the process is gone. */
    void kill() {
        jvm.kill();
    }

    /** Asks every member to leave and waits for the JVM to exit; kills it after {@code timeout}. */
    void close(Duration timeout) {
        if (jvm.isAlive()) {
            try {
                send("exit");
            } catch (RuntimeException gone) {
                // exiting anyway
            }
            jvm.awaitTermination(timeout); // SIGKILL after the timeout
        }
    }

    private boolean parse(String line) {
        String[] f = line.split(" ");
        synchronized (RebalanceProcess.MONITOR) {
            switch (f[0]) {
                case "READY" -> readyAt = Long.parseLong(f[1]);
                case "STARTING" -> startingAt = Long.parseLong(f[1]);
                case "STATE" -> status.put(f[1], new RebalanceProcess.Status(Long.parseLong(f[2]), f[3],
                        Long.parseLong(f[4]), f[5].equals("-") ? Set.of() : new TreeSet<>(Arrays.stream(f[5].split(","))
                        .map(Integer::valueOf).toList()), Long.parseLong(f[6])));
                case "ERROR" -> errors.add(line);
                default -> {
                    // CREATED, LEAVING, LEFT, CLOSED: nothing to track
                }
            }
            RebalanceProcess.MONITOR.notifyAll();
        }
        return true;
    }

    private void end() {
        synchronized (RebalanceProcess.MONITOR) {
            ended = true;
            RebalanceProcess.MONITOR.notifyAll();
        }
    }

    @Override
    public String toString() {
        return jvm.name() + (ended ? " (ended)" : "") + (errors.isEmpty() ? "" : " " + errors);
    }
}
