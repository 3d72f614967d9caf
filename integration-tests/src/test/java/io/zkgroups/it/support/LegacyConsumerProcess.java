package io.zkgroups.it.support;

import io.zkgroups.testing.ChildJvm;
import io.zkgroups.testing.LegacyClasspath;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * A real Kafka 0.8.2.2 high-level consumer ({@code io.zkgroups.legacy.LegacyConsumerMain}) running in a child
 * JVM with its own classpath (ZooKeeper 3.4.6, zkclient 0.3, Scala 2.10), driven through the driver's line
 * protocol: commands go to its stdin, events ({@code READY}, {@code MSG}, {@code COMMITTED}, {@code CLOSED},
 * ...) come back on its stdout and are collected by a reader thread. Its stderr (log4j at WARN, stack traces)
 * goes to a file under {@code target/legacy-consumers/} and is quoted in every failure message.
 *
 * <p>Every wait is on an event with a deadline: a wait fails at once if the process has exited.
 *
 * <pre>{@code
 * try (LegacyConsumerProcess c1 = LegacyConsumerProcess.builder("c1")
 *         .zookeeperConnect(zk.connectString()).groupId("g").consumerId("c1")
 *         .topic("T1", 1).noFetcher().start()) {
 *     assertThat(c1.awaitReady(Duration.ofSeconds(30))).isEqualTo("g_c1");
 * }
 * }</pre>
 *
 * Needs the system properties {@value #CLASSES_PROPERTY} and {@value #CLASSPATH_FILE_PROPERTY}, which the
 * failsafe configuration of this module sets: run through {@code mvn verify}.
 */
public final class LegacyConsumerProcess implements AutoCloseable {

    public static final String CLASSES_PROPERTY = "legacy.driver.classes";
    public static final String CLASSPATH_FILE_PROPERTY = "legacy.driver.classpathFile";
    public static final String WORK_DIR_PROPERTY = "legacy.driver.workDir";
    public static final String MAIN_CLASS = "io.zkgroups.legacy.LegacyConsumerMain";
    /** The kafka08-bridge's classes and the file listing its runtime classpath (set by failsafe). */
    public static final String BRIDGE_CLASSES_PROPERTY = "bridge.classes";
    public static final String BRIDGE_CLASSPATH_FILE_PROPERTY = "bridge.classpathFile";

    /** Generous: a loaded 2-core CI machine, a JVM start, and 0.8's rebalance back-offs. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    private static final AtomicInteger SEQUENCE = new AtomicInteger();
    private static final int STDERR_TAIL_CHARS = 6_000;
    private static final int STDOUT_TAIL_LINES = 20;

    private final String name;
    private final ChildJvm jvm;
    private final Path stderrFile;
    private volatile String consumerId;

    private LegacyConsumerProcess(String name, ChildJvm jvm, Path stderrFile) {
        this.name = name;
        this.jvm = jvm;
        this.stderrFile = stderrFile;
    }

    /** A builder for a consumer; {@code name} labels its files and failure messages. */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    // ------------------------------------------------------------------------------------------ events

    /**
     * Waits for {@code READY <consumerIdString>}, i.e. until the connector created its streams and its first
     * rebalance returned. Returns the consumer id string (e.g. {@code g_c1}).
     *
     * @throws AssertionError on timeout, on an {@code ERROR} line, or if the process exited first
     */
    public String awaitReady(Duration timeout) {
        String line = line(awaitLine(0, l -> l.startsWith("READY ") || l.startsWith("ERROR "), timeout, "READY"));
        if (line.startsWith("ERROR ")) {
            throw failure("the driver failed instead of becoming READY: " + line);
        }
        consumerId = line.substring("READY ".length());
        return consumerId;
    }

    /** The consumer id string from {@code READY}; fails if {@link #awaitReady} has not returned yet. */
    public String consumerId() {
        String id = consumerId;
        if (id == null) {
            throw new IllegalStateException(name + " is not READY yet: call awaitReady first");
        }
        return id;
    }

    /** Every message delivered so far, in the order the driver printed them. */
    public List<ConsumedMessage> messages() {
        List<ConsumedMessage> result = new ArrayList<>();
        for (String line : output()) {
            if (line.startsWith("MSG ")) {
                result.add(ConsumedMessage.parse(line));
            }
        }
        return result;
    }

    /** Waits until at least {@code count} messages have been delivered and returns all delivered so far. */
    public List<ConsumedMessage> awaitMessages(int count, Duration timeout) {
        awaitCount(l -> l.startsWith("MSG "), count, timeout, count + " MSG lines");
        return messages();
    }

    /**
     * Sends {@code commit} and waits for its {@code COMMITTED}: the connector's {@code commitOffsets()} has
     * returned, so the offsets are in the configured store(s).
     */
    public void commit() {
        int before = count(l -> l.equals("COMMITTED") || l.startsWith("ERROR "));
        send("commit");
        awaitCount(l -> l.equals("COMMITTED") || l.startsWith("ERROR "), before + 1, DEFAULT_TIMEOUT, "COMMITTED");
        String answer = output().stream()
                .filter(l -> l.equals("COMMITTED") || l.startsWith("ERROR "))
                .skip(before)
                .findFirst()
                .orElseThrow();
        if (!answer.equals("COMMITTED")) {
            throw failure("commit failed: " + answer);
        }
    }

    /**
     * Graceful stop through stdin: {@code connector.shutdown()} (which commits first when auto-commit is on),
     * then {@code CLOSED} and exit. Returns the exit code (0).
     */
    public int shutdown() {
        return shutdown(DEFAULT_TIMEOUT);
    }

    /** As {@link #shutdown()}, with a deadline. */
    public int shutdown(Duration timeout) {
        if (jvm.isAlive()) {
            send("shutdown");
        }
        awaitLine(0, "CLOSED"::equals, timeout, "CLOSED after shutdown");
        return awaitExit(timeout);
    }

    /**
     * SIGTERM: the driver's shutdown hook shuts the connector down cleanly and prints {@code CLOSED}. Returns
     * the exit code (143).
     */
    public int terminate() {
        jvm.sigterm();
        return awaitExit(DEFAULT_TIMEOUT);
    }

    /**
     * SIGKILL ({@code destroyForcibly}): no shutdown at all; the consumer's ephemerals stay until its ZooKeeper
     * session expires. Returns the exit code (137).
     */
    public int kill() {
        jvm.process().toHandle().destroyForcibly();
        return awaitExit(DEFAULT_TIMEOUT);
    }

    public boolean isAlive() {
        return jvm.isAlive();
    }

    /** Sends {@code signal} ({@code STOP} freezes the process as a GC pause or a stopped VM would; {@code CONT}). */
    public void signal(String signal) {
        jvm.signal(signal);
    }

    public long pid() {
        return jvm.pid();
    }

    public String name() {
        return name;
    }

    /** All stdout lines so far. */
    public List<String> output() {
        return jvm.lines();
    }

    /** The child's stderr so far (its log). */
    public String stderr() {
        try {
            return Files.exists(stderrFile) ? Files.readString(stderrFile, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            return "(cannot read " + stderrFile + ": " + e + ")";
        }
    }

    public Path stderrFile() {
        return stderrFile;
    }

    /**
     * Waits until a line at index {@code from} or later matches, and returns its index.
     *
     * @throws AssertionError on timeout or if stdout closed (the process exited) without such a line
     */
    public int awaitLine(int from, Predicate<String> matcher, Duration timeout, String description) {
        return jvm.output().requireLine(from, matcher, timeout, description, this::failure);
    }

    /** Sends one command line to the driver's stdin. */
    public void send(String command) {
        try {
            jvm.send(command);
        } catch (UncheckedIOException e) {
            throw failure("cannot send '" + command + "' (process gone?): " + e.getCause());
        }
    }

    /** Stops the process if it still runs: gracefully first, SIGKILL if that does not work in time. */
    @Override
    public void close() {
        try {
            if (jvm.isAlive()) {
                try {
                    shutdown(Duration.ofSeconds(30));
                } catch (AssertionError e) {
                    System.err.println("[" + name + "] graceful shutdown failed, killing: " + e.getMessage());
                }
            }
        } finally {
            if (jvm.isAlive()) {
                jvm.kill();
            }
        }
    }

    @Override
    public String toString() {
        return "LegacyConsumerProcess[" + name + ", pid " + jvm.pid() + (jvm.isAlive() ? "" : ", exited") + "]";
    }

    // ------------------------------------------------------------------------------------------ internals

    private String line(int index) {
        return output().get(index);
    }

    private int count(Predicate<String> matcher) {
        return (int) output().stream().filter(matcher).count();
    }

    private void awaitCount(Predicate<String> matcher, int count, Duration timeout, String description) {
        int from = 0;
        for (int seen = 0; seen < count; seen++) {
            from = awaitLine(from, matcher, timeout, description) + 1;
        }
    }

    private int awaitExit(Duration timeout) {
        try {
            return jvm.awaitExit(timeout);
        } catch (ChildJvm.Failure e) {
            throw failure("did not exit within " + timeout);
        }
    }

    private AssertionError failure(String what) {
        StringBuilder b = new StringBuilder();
        b.append("legacy 0.8.2.2 consumer '").append(name).append("' (pid ").append(jvm.pid()).append("): ")
                .append(what);
        if (!jvm.isAlive()) {
            b.append("\nexit code: ").append(jvm.process().exitValue());
        }
        List<String> out = output();
        b.append("\n--- last stdout lines (").append(out.size()).append(" in total) ---\n");
        for (String l : out.subList(Math.max(0, out.size() - STDOUT_TAIL_LINES), out.size())) {
            b.append(l).append('\n');
        }
        String err = stderr();
        b.append("--- stderr (").append(stderrFile).append(err.length() > STDERR_TAIL_CHARS ? ", tail" : "")
                .append(") ---\n").append(err.substring(Math.max(0, err.length() - STDERR_TAIL_CHARS)));
        return new AssertionError(b.toString());
    }

    // ------------------------------------------------------------------------------------------ types

    /** One {@code MSG} line: key is {@code null} when the message had no key. */
    public record ConsumedMessage(String topic, int partition, long offset, String key, String value) {

        static ConsumedMessage parse(String line) {
            // MSG <topic> <partition> <offset> <key> <value...>
            String[] f = line.split(" ", 6);
            if (f.length < 5 || !f[0].equals("MSG")) {
                throw new IllegalArgumentException("not a MSG line: " + line);
            }
            String key = f[4].equals("null") ? null : unescape(f[4]);
            String value = f.length == 6 ? unescape(f[5]) : "";
            return new ConsumedMessage(f[1], Integer.parseInt(f[2]), Long.parseLong(f[3]), key, value);
        }

        private static String unescape(String s) {
            StringBuilder b = new StringBuilder(s.length());
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c == '\\' && i + 1 < s.length()) {
                    char n = s.charAt(++i);
                    b.append(switch (n) {
                        case 'n' -> '\n';
                        case 'r' -> '\r';
                        case 's' -> ' ';
                        default -> n;
                    });
                } else {
                    b.append(c);
                }
            }
            return b.toString();
        }
    }

    /** Configures and starts one legacy consumer. */
    public static final class Builder {
        private final String name;
        private final Map<String, String> properties = new LinkedHashMap<>();
        private final Map<String, Integer> topics = new LinkedHashMap<>();
        private final List<String> jvmArgs = new ArrayList<>();
        private String filterOption;
        private String filterRegex;
        private int filterStreams = 1;
        private boolean noFetcher;
        private boolean onBridge;
        private long maxMessages;
        private long pauseMs;
        private Path java;

        private Builder(String name) {
            this.name = Objects.requireNonNull(name, "name");
        }

        /** Any 0.8 consumer property. */
        public Builder property(String key, String value) {
            properties.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
            return this;
        }

        public Builder zookeeperConnect(String connect) {
            return property("zookeeper.connect", connect);
        }

        public Builder groupId(String groupId) {
            return property("group.id", groupId);
        }

        /** Sets {@code consumer.id}: the consumer id string becomes {@code <group>_<consumerId>}. */
        public Builder consumerId(String consumerId) {
            return property("consumer.id", consumerId);
        }

        /** Adds a static subscription entry (insertion order is kept, as in the registration JSON). */
        public Builder topic(String topic, int streams) {
            topics.put(Objects.requireNonNull(topic, "topic"), streams);
            return this;
        }

        public Builder whitelist(String regex, int streams) {
            return filter("--whitelist", regex, streams);
        }

        public Builder blacklist(String regex, int streams) {
            return filter("--blacklist", regex, streams);
        }

        /** The testing constructor {@code ZookeeperConsumerConnector(config, false)}: ZooKeeper only, no broker. */
        public Builder noFetcher() {
            this.noFetcher = true;
            return this;
        }

        /**
         * Runs the same driver, unchanged, with zkgroups' kafka08-bridge on its classpath instead of the real
         * kafka_2.10:0.8.2.2 jar and its dependencies.
         */
        public Builder onBridge() {
            this.onBridge = true;
            return this;
        }

        /** Deliver at most {@code n} messages; the driver prints {@code LIMIT n} when reached. */
        public Builder maxMessages(long n) {
            this.maxMessages = n;
            return this;
        }

        /** Each stream spends {@code ms} on every message after printing it: a slow application. */
        public Builder pauseMs(long ms) {
            this.pauseMs = ms;
            return this;
        }

        /** An extra JVM argument for the child, e.g. {@code -Dlegacy.driver.logLevel=INFO}. */
        /** The {@code java} executable that runs it (e.g. a Java 8 runtime); this JVM's by default. */
        public Builder java(Path executable) {
            this.java = executable;
            return this;
        }

        public Builder jvmArg(String arg) {
            jvmArgs.add(arg);
            return this;
        }

        private Builder filter(String option, String regex, int streams) {
            this.filterOption = option;
            this.filterRegex = Objects.requireNonNull(regex, "regex");
            this.filterStreams = streams;
            return this;
        }

        /** Starts the child JVM; does not wait for READY. */
        public LegacyConsumerProcess start() {
            if (topics.isEmpty() == (filterOption == null)) {
                throw new IllegalStateException("give either topic(...) entries or one whitelist/blacklist");
            }
            for (String required : List.of("zookeeper.connect", "group.id")) {
                if (!properties.containsKey(required)) {
                    throw new IllegalStateException("missing consumer property " + required);
                }
            }
            try {
                Path dir = workDir().resolve(name + "-" + SEQUENCE.incrementAndGet());
                Files.createDirectories(dir);
                Path propsFile = dir.resolve("consumer.properties");
                Properties props = new Properties();
                props.putAll(properties);
                try (OutputStream out = Files.newOutputStream(propsFile)) {
                    props.store(out, "legacy consumer " + name);
                }
                Path stderrFile = dir.resolve("stderr.log");

                List<String> command = new ArrayList<>();
                command.add(propsFile.toString());
                if (filterOption != null) {
                    command.add(filterOption);
                    command.add(filterRegex);
                    command.add("--streams");
                    command.add(String.valueOf(filterStreams));
                } else {
                    topics.forEach((topic, streams) -> {
                        command.add("--topic");
                        command.add(topic + "=" + streams);
                    });
                }
                if (noFetcher) {
                    command.add("--no-fetcher");
                }
                if (maxMessages > 0) {
                    command.add("--max-messages");
                    command.add(String.valueOf(maxMessages));
                }
                if (pauseMs > 0) {
                    command.add("--pause-ms");
                    command.add(String.valueOf(pauseMs));
                }
                ChildJvm.Builder child = ChildJvm.builder("legacy-consumer-" + name, MAIN_CLASS);
                if (java != null) {
                    child.java(java);
                }
                ChildJvm jvm = child
                        .classpath(classpath(onBridge)).heapMb(128)
                        .jvmOptions(List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1")).jvmOptions(jvmArgs)
                        .args(command).directory(dir).stderrTo(stderrFile)
                        .start();
                return new LegacyConsumerProcess(name, jvm, stderrFile);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start legacy consumer " + name, e);
            }
        }

        private static Path workDir() {
            return Path.of(System.getProperty(WORK_DIR_PROPERTY, "target/legacy-consumers")).toAbsolutePath();
        }

    }

    /**
     * The legacy driver's classes (LegacyConsumerMain, ConsumerGroupExample, compiled against kafka_2.10:0.8.2.2)
     * with the real 0.8.2.2 jar and its dependencies, or with the kafka08-bridge and its dependencies instead (plus
     * slf4j-simple from this JVM's classpath, so the bridge's log lands on the child's stderr).
     */
    public static String classpath(boolean onBridge) throws IOException {
        String driver = LegacyClasspath.find();
        if (!onBridge) {
            return driver;
        }
        String driverClasses = System.getProperty(CLASSES_PROPERTY);
        String bridge = built(BRIDGE_CLASSES_PROPERTY, BRIDGE_CLASSPATH_FILE_PROPERTY, "kafka08-bridge");
        String slf4jSimple;
        try {
            slf4jSimple = Path.of(org.slf4j.simple.SimpleLogger.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException("cannot locate slf4j-simple", e);
        }
        return String.join(java.io.File.pathSeparator, driverClasses, bridge, slf4jSimple);
    }

    /** A module's classes followed by its dependencies, from the system properties failsafe sets. */
    private static String built(String classesProperty, String classpathFileProperty, String module) throws IOException {
        String classes = System.getProperty(classesProperty);
        String classpathFile = System.getProperty(classpathFileProperty);
        if (classes == null || classpathFile == null) {
            throw new IllegalStateException("system properties " + classesProperty + " and " + classpathFileProperty
                    + " are not set: run the integration tests through 'mvn verify' (failsafe sets them), not from a "
                    + "plain IDE/JUnit run");
        }
        Path file = Path.of(classpathFile);
        if (!Files.isDirectory(Path.of(classes)) || !Files.isRegularFile(file)) {
            throw new IllegalStateException(module + " is not built (" + classes + ", " + file + "): run 'mvn verify' "
                    + "with the " + module + " module in the reactor (-am)");
        }
        String dependencies = Files.readString(file, StandardCharsets.UTF_8).trim();
        return dependencies.isEmpty() ? classes : classes + java.io.File.pathSeparator + dependencies;
    }
}
