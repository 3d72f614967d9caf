package io.zkgroups.bench;

import io.zkgroups.testing.ChildJvm;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One consumer application of {@link ProductBench} in a fresh JVM: a zkgroups {@link ProductConsumerMain} or a real
 * 0.8.2.2 {@code LegacyConsumerMain} (with its fetcher), both from the same 0.8 properties file and the same JVM
 * options. The bench reads its stdout and stamps every record handed out ({@link Deliveries}) on arrival: the same
 * outside observer for both kinds.
 */
final class ProductMember {

    /** Both kinds run with these, and nothing else: the same heap and the JVM's defaults otherwise. */
    static final List<String> JVM_OPTIONS = List.of("-Xmx256m");

    final String name;
    final boolean legacy;
    /** nanoTime just before the process was started: where the user's wait starts. */
    final long launchedAt;
    private ChildJvm jvm;
    private final Deliveries deliveries;
    private volatile long firstRecordAt;
    private final CountDownLatch firstRecord = new CountDownLatch(1);

    private ProductMember(String name, boolean legacy, long launchedAt, Deliveries deliveries) {
        this.name = name;
        this.legacy = legacy;
        this.launchedAt = launchedAt;
        this.deliveries = deliveries;
    }

    /**
     * A kind of member: {@code ours} (zkgroups), {@code legacy} (0.8.2.2), or {@code ours+KEY=VALUE[+KEY=VALUE]}: zkgroups
     * with these properties set (an A/B of a setting in one run); {@code KIND@OPTION[@OPTION...]} adds JVM options to
     * that kind's members (an A/B of a JVM option).
     */
    record Kind(String label, boolean legacy, Map<String, String> properties, List<String> jvmOptions) {

        static Kind parse(String text) {
            String[] kindAndOptions = text.split("@");
            List<String> jvmOptions = List.of(kindAndOptions).subList(1, kindAndOptions.length);
            String[] parts = kindAndOptions[0].split("\\+");
            if (!parts[0].equals("ours") && !(parts[0].equals("legacy") && parts.length == 1)) {
                throw new IllegalArgumentException("not a kind of member: " + text
                        + " (ours, legacy, or ours+KEY=VALUE[+KEY=VALUE...])");
            }
            Map<String, String> properties = new TreeMap<>();
            for (int i = 1; i < parts.length; i++) {
                int eq = parts[i].indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException("not KEY=VALUE: " + parts[i] + " in " + text);
                }
                properties.put(parts[i].substring(0, eq), parts[i].substring(eq + 1));
            }
            boolean legacy = parts[0].equals("legacy");
            String label = legacy ? "0.8.2.2" : parts.length == 1 ? "zkgroups" : "zkgroups " + properties;
            return new Kind(jvmOptions.isEmpty() ? label : label + " " + jvmOptions, legacy, properties, jvmOptions);
        }
    }

    /**
     * Starts a consumer named {@code name} (its {@code consumer.id}) in {@code group}, subscribed to one stream of
     * {@code topic}: zkgroups with {@code consumerClasspath} (logging at {@code logLevel}), or 0.8.2.2 with
     * {@code legacyClasspath}.
     */
    static ProductMember launch(Kind kind, String name, String connect, String group, String topic,
                                String consumerClasspath, String legacyClasspath, String logLevel, Path logDir,
                                Deliveries deliveries) {
        boolean legacy = kind.legacy();
        try {
            Files.createDirectories(logDir);
            Properties props = new Properties();
            props.setProperty("zookeeper.connect", connect);
            props.setProperty("group.id", group);
            props.setProperty("consumer.id", name);
            kind.properties().forEach(props::setProperty);
            Path file = logDir.resolve(group + "-" + name + ".properties");
            try (OutputStream out = Files.newOutputStream(file)) {
                props.store(out, "product bench: every other setting at its default");
            }
            ChildJvm.Builder builder = legacy
                    ? ChildJvm.builder(name, "io.zkgroups.legacy.LegacyConsumerMain").classpath(legacyClasspath)
                            .jvmOptions(JVM_OPTIONS).jvmOptions(kind.jvmOptions())
                            .args(List.of(file.toString(), "--topic", topic + "=1"))
                    : ChildJvm.builder(name, ProductConsumerMain.class.getName()).classpath(consumerClasspath)
                            .jvmOptions(JVM_OPTIONS).jvmOptions(kind.jvmOptions())
                            .jvmOptions(List.of("-Dorg.slf4j.simpleLogger.defaultLogLevel=" + logLevel,
                                    "-Dorg.slf4j.simpleLogger.showDateTime=true",
                                    "-Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS"))
                            .args(List.of(file.toString(), topic));
            long launchedAt = System.nanoTime();
            ProductMember member = new ProductMember(name, legacy, launchedAt, deliveries);
            member.jvm = builder.stderrTo(logDir.resolve(group + "-" + name + ".log"))
                    .onLine(member::take).onEnd(member.firstRecord::countDown) // no record will come
                    .start();
            return member;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name, e);
        }
    }

    /** nanoTime of its first record handed out, or 0. */
    long firstRecordAt() {
        return firstRecordAt;
    }

    /** Waits for its first record; false on timeout or if the process ended without one. */
    boolean awaitFirstRecord(Duration timeout) throws InterruptedException {
        return firstRecord.await(timeout.toMillis(), TimeUnit.MILLISECONDS) && firstRecordAt != 0;
    }

    /** SIGTERM: the application's orderly shutdown. */
    void terminate() {
        jvm.sigterm();
    }

    /** SIGKILL; returns when the process is gone. */
    void kill() {
        jvm.kill();
    }

    /** Waits for the exit, SIGKILLs after {@code seconds}; true if it exited by itself. */
    boolean awaitExit(int seconds) throws InterruptedException {
        if (jvm.process().waitFor(seconds, TimeUnit.SECONDS)) {
            return true;
        }
        kill();
        return false;
    }

    /**
     * Stamps a record handed out ({@code MSG} line) on arrival; no line is kept. A line that does not parse (seen once:
     * one cut short and run into the next) is reported and skipped: the reading thread must outlive it, or this
     * member's later records would go uncounted.
     */
    private boolean take(String line) {
        if (line.startsWith("MSG ")) {
            long now = System.nanoTime();
            int partitionStart = line.indexOf(' ', 4) + 1;
            int partitionEnd = partitionStart == 0 ? -1 : line.indexOf(' ', partitionStart);
            int partition;
            try {
                partition = Integer.parseInt(line, partitionStart, partitionEnd, 10);
            } catch (RuntimeException notWhole) {
                System.err.printf("%s: a record line that is not whole, not counted: \"%s\"%n", this, line);
                return true;
            }
            if (firstRecordAt == 0) {
                firstRecordAt = now;
                firstRecord.countDown();
            }
            deliveries.delivered(partition, now);
        }
        return true;
    }

    @Override
    public String toString() {
        return (legacy ? "0.8.2.2 " : "zkgroups ") + name;
    }
}
