package io.zkgroups.chaos.cluster;

import io.zkgroups.testing.ChildJvm;
import io.zkgroups.chaos.member.ChaosMemberMain;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One incarnation of a member slot: a {@link ChaosMemberMain} JVM whose consumer id is its process name
 * ({@code m<slot>-<incarnation>}), so that every process is a distinct group member and its log a file of its own
 * ({@code members/<name>.log}); or, in a mixed run, a real 0.8.2.2 consumer ({@code l<slot>-<incarnation>},
 * {@code io.zkgroups.legacy.LegacyConsumerMain}) whose log the orchestrator writes from its output
 * ({@link LegacyLog}).
 */
public final class MemberProcess {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

    private final String name;
    private final ChildJvm jvm;
    private final Path logFile;

    private MemberProcess(String name, ChildJvm jvm, Path logFile) {
        this.name = name;
        this.jvm = jvm;
        this.logFile = logFile;
    }

    /** Starts a zkgroups member and waits for its START (or an ERROR). */
    static MemberProcess start(String name, Path runDir, String topic, String mode, long commitIntervalMs,
                               Map<String, String> properties, List<String> classDataOptions) {
        return spawn(name, runDir, topic, mode, commitIntervalMs, properties, classDataOptions).awaitStart();
    }

    /** Starts a zkgroups member without waiting for anything it prints; its log is {@code members/<name>.log}. */
    static MemberProcess spawn(String name, Path runDir, String topic, String mode, long commitIntervalMs,
                               Map<String, String> properties, List<String> classDataOptions) {
        return spawn(name, runDir.resolve("members").resolve(name + ".log"), runDir.resolve("stderr"), topic, mode,
                commitIntervalMs, properties, classDataOptions);
    }

    /** Starts a zkgroups member logging to {@code logFile} (outside the run's history: a training member). */
    static MemberProcess spawn(String name, Path logFile, Path stderrDir, String topic, String mode,
                               long commitIntervalMs, Map<String, String> properties, List<String> classDataOptions) {
        List<String> args = new ArrayList<>(List.of(logFile.toString(), topic, mode, Long.toString(commitIntervalMs)));
        properties.forEach((k, v) -> args.add(k + "=" + v));
        List<String> jvmOptions = new ArrayList<>(List.of("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-Dorg.slf4j.simpleLogger.log.io.zkgroups=info",
                "-Dorg.slf4j.simpleLogger.showDateTime=true",
                "-Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS"));
        jvmOptions.addAll(classDataOptions);
        jvmOptions.addAll(extraJvmOptions(name));
        ChildJvm jvm = ChildJvm.builder(name, ChaosMemberMain.class.getName())
                .heapMb(160).jvmOptions(ChildJvm.FAST_START).jvmOptions(jvmOptions).args(args)
                .stderrTo(stderrDir.resolve(name + ".stderr.log"))
                .start();
        return new MemberProcess(name, jvm, logFile);
    }

    /**
     * Extra options for zkgroups member JVMs from {@code CHAOS_MEMBER_JVM_OPTS} (space-separated; {@code {name}} becomes
     * the process name), e.g. {@code -Dorg.slf4j.simpleLogger.log.org.apache.kafka=debug} or a flight recording.
     */
    private static List<String> extraJvmOptions(String name) {
        String opts = System.getenv("CHAOS_MEMBER_JVM_OPTS");
        if (opts == null || opts.isBlank()) {
            return List.of();
        }
        return java.util.Arrays.stream(opts.trim().split("\\s+")).map(o -> o.replace("{name}", name)).toList();
    }

    /** Waits for a successor started before its predecessor stops to say that it waits for the ticket. */
    public MemberProcess awaitTicketWait() {
        jvm.requireLine(0, l -> l.startsWith("AWAITING-TICKET ") || l.startsWith("ERROR "), START_TIMEOUT,
                "AWAITING-TICKET");
        return this;
    }

    /** Waits for the member's START line (it has subscribed); returns it. */
    public MemberProcess awaitStart() {
        jvm.requireLine(0, l -> l.startsWith("START ") || l.startsWith("ERROR "), START_TIMEOUT, "START");
        return this;
    }

    /**
     * Starts a real 0.8.2.2 consumer (auto-commit on, every {@code commitIntervalMs}) and waits for its READY (its
     * first rebalance is done).
     */
    static MemberProcess startLegacy(String name, Path runDir, String topic, String legacyClasspath,
                                     long commitIntervalMs, Map<String, String> properties,
                                     List<String> classDataOptions) {
        return startLegacy(name, runDir.resolve("legacy").resolve(name), runDir.resolve("members").resolve(name + ".log"),
                runDir.resolve("stderr"), topic, legacyClasspath, commitIntervalMs, properties, classDataOptions);
    }

    /** As above, with its files in {@code dir} and its log {@code logFile} (a training member's, outside the history). */
    static MemberProcess startLegacy(String name, Path dir, Path logFile, Path stderrDir, String topic,
                                     String legacyClasspath, long commitIntervalMs, Map<String, String> properties,
                                     List<String> classDataOptions) {
        try {
            java.nio.file.Files.createDirectories(dir);
            java.util.Properties props = new java.util.Properties();
            props.putAll(properties);
            props.setProperty("auto.commit.enable", "true");
            props.setProperty("auto.commit.interval.ms", Long.toString(commitIntervalMs));
            try (java.io.OutputStream out = java.nio.file.Files.newOutputStream(dir.resolve("consumer.properties"))) {
                props.store(out, "0.8.2.2 consumer " + name);
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        LegacyLog log = LegacyLog.open(logFile);
        ChildJvm jvm = ChildJvm.builder(name, "io.zkgroups.legacy.LegacyConsumerMain")
                .classpath(legacyClasspath).heapMb(128).jvmOptions(ChildJvm.FAST_START).jvmOptions(classDataOptions)
                .args(List.of(dir.resolve("consumer.properties").toString(), "--topic", topic + "=1"))
                .stderrTo(stderrDir.resolve(name + ".stderr.log")).onLine(log::take)
                .start();
        MemberProcess member = new MemberProcess(name, jvm, logFile);
        jvm.requireLine(0, l -> l.startsWith("READY ") || l.startsWith("ERROR "), START_TIMEOUT, "READY");
        return member;
    }

    public String name() {
        return name;
    }

    public ChildJvm jvm() {
        return jvm;
    }

    public Path logFile() {
        return logFile;
    }

    public boolean isAlive() {
        return jvm.isAlive();
    }

    /** A real 0.8.2.2 consumer (no rebalance listener, no stdin commands but {@code shutdown}). */
    public boolean legacy() {
        return name.startsWith("l");
    }

    /** Graceful leave through stdin; waits for the exit. */
    public int close(Duration timeout) {
        if (jvm.isAlive()) {
            try {
                jvm.send(legacy() ? "shutdown" : "close");
            } catch (RuntimeException gone) {
                // exiting anyway
            }
        }
        return jvm.awaitExit(timeout);
    }

    @Override
    public String toString() {
        return jvm.toString();
    }
}
