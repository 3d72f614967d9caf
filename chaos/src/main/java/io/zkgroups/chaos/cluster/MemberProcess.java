package io.zkgroups.chaos.cluster;

import io.zkgroups.chaos.member.ChaosMemberMain;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One incarnation of a member slot: a {@link ChaosMemberMain} JVM whose consumer id is its process name
 * ({@code m<slot>-<incarnation>}), so that every process is a distinct group member and its log a file of its own
 * ({@code members/<name>.log}).
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

    static MemberProcess start(String name, Path runDir, String topic, String mode, long commitIntervalMs,
                               Map<String, String> properties) {
        Path logFile = runDir.resolve("members").resolve(name + ".log");
        List<String> args = new ArrayList<>(List.of(logFile.toString(), topic, mode, Long.toString(commitIntervalMs)));
        properties.forEach((k, v) -> args.add(k + "=" + v));
        ChildJvm jvm = ChildJvm.start(name, runDir.resolve("stderr"), 160,
                List.of("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                        "-Dorg.slf4j.simpleLogger.log.io.zkgroups=info",
                        "-Dorg.slf4j.simpleLogger.showDateTime=true",
                        "-Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS"),
                ChaosMemberMain.class.getName(), args);
        MemberProcess member = new MemberProcess(name, jvm, logFile);
        jvm.requireLine(0, l -> l.startsWith("START ") || l.startsWith("ERROR "), START_TIMEOUT, "START");
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

    /** Graceful leave through stdin; waits for the exit. */
    public int close(Duration timeout) {
        if (jvm.isAlive()) {
            try {
                jvm.send("close");
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
