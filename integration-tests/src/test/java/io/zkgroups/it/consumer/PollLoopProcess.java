package io.zkgroups.it.consumer;

import io.zkgroups.testing.ChildJvm;
import org.slf4j.simple.SimpleLogger;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * consumer-driver's {@code ZkGroupConsumerMain} (a ZkGroupConsumer poll loop compiled for Java 8) in a child JVM run
 * by a given {@code java}: its {@code REC} lines are the records it got; {@code close} on stdin, SIGTERM or SIGKILL
 * end it. Needs the system properties {@code driver.classes} and {@code driver.classpathFile} (failsafe sets them).
 */
final class PollLoopProcess implements AutoCloseable {

    static final Duration WAIT = Duration.ofSeconds(90);
    private final ChildJvm jvm;
    private final String consumerId;

    private PollLoopProcess(ChildJvm jvm, String consumerId) {
        this.jvm = jvm;
        this.consumerId = consumerId;
    }

    /** Starts the poll loop on {@code topic} with {@code props} and waits for its {@code STARTED} line. */
    static PollLoopProcess start(Path java, String name, String topic, Properties props) throws Exception {
        List<String> args = new ArrayList<>(List.of(topic));
        props.stringPropertyNames().forEach(k -> args.add(k + "=" + props.getProperty(k)));
        Path dir = Files.createDirectories(Path.of("target", "poll-loops").toAbsolutePath());
        ChildJvm jvm = ChildJvm.builder("poll-loop-" + name, "io.zkgroups.driver.ZkGroupConsumerMain").java(java)
                .classpath(classpath()).heapMb(128)
                .jvmOptions(List.of("-XX:+UseSerialGC", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"))
                .args(args).stderrTo(dir.resolve(name + "-" + System.nanoTime() + "-stderr.log")).start();
        int started = jvm.requireLine(0, l -> l.startsWith("STARTED "), WAIT, "STARTED");
        return new PollLoopProcess(jvm, jvm.lines().get(started).substring("STARTED ".length()));
    }

    /** The Java version the child printed first ({@code JAVA 1.8.0_504}). */
    String javaVersion() {
        return jvm.lines().get(0);
    }

    String consumerId() {
        return consumerId;
    }

    /** {@code partition@offset} of every record it printed. */
    Set<String> records() {
        return jvm.lines().stream().filter(l -> l.startsWith("REC ")).map(l -> l.split(" "))
                .map(f -> f[1] + "@" + f[2]).collect(Collectors.toSet());
    }

    /** Closes the consumer through stdin; returns the exit code. */
    int closeConsumer() {
        jvm.send("close");
        jvm.requireLine(0, "CLOSED"::equals, WAIT, "CLOSED");
        return jvm.awaitExit(WAIT);
    }

    /** SIGTERM: its shutdown hook closes the consumer; returns the exit code. */
    int sigterm() {
        jvm.sigterm();
        return jvm.awaitExit(WAIT);
    }

    /** SIGKILL: its ZooKeeper session stays until it expires. */
    void kill() {
        jvm.kill();
        jvm.awaitExit(WAIT);
    }

    List<String> lines() {
        return jvm.lines();
    }

    @Override
    public void close() {
        if (jvm.isAlive()) {
            jvm.kill();
        }
    }

    private static String classpath() throws Exception {
        String classes = System.getProperty("driver.classes");
        String classpathFile = System.getProperty("driver.classpathFile");
        if (classes == null || classpathFile == null || !Files.isRegularFile(Path.of(classpathFile))) {
            throw new IllegalStateException("consumer-driver is not built (driver.classes=" + classes
                    + ", driver.classpathFile=" + classpathFile + "): run 'mvn verify' with it in the reactor (-am)");
        }
        String slf4jSimple = Path.of(SimpleLogger.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .toString();
        return String.join(File.pathSeparator, classes,
                Files.readString(Path.of(classpathFile), StandardCharsets.UTF_8).trim(), slf4jSimple);
    }
}
