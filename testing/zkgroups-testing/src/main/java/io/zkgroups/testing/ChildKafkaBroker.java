package io.zkgroups.testing;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.serialization.StringSerializer;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;

/**
 * A real Kafka broker of another release than this JVM's kafka-clients, bound to 127.0.0.1, in a {@link ChildJvm}
 * whose classpath is that release's {@code kafka_2.12} or {@code kafka_2.13} and its dependencies (a {@code kafkaN-broker} module writes it
 * to the file a system property names), started with {@code kafka.Kafka} as {@code kafka-server-start.sh} does:
 * <ul>
 *   <li>{@link #kafka2(String)}: Kafka 2.8.2 (the last 2.x) in ZooKeeper mode; it registers itself in ZooKeeper
 *       ({@code /brokers/ids}, {@code /brokers/topics}) under the given connect string;</li>
 *   <li>{@link #zooKeeperMode(String, String, String, Path)}: any release in ZooKeeper mode (0.10.2 to 2.8), on a
 *       given Java runtime;</li>
 *   <li>{@link #kafka4()}: Kafka 4.4 as a combined broker and controller in KRaft mode, its storage first formatted
 *       with {@code kafka.tools.StorageTool format} as {@code kafka-storage.sh} does.</li>
 * </ul>
 * This JVM talks to it over the network with its own kafka-clients only. Stdout and stderr go to
 * {@code broker.log} in the broker's directory.
 */
public final class ChildKafkaBroker implements AutoCloseable {

    private static final String LOOPBACK = "127.0.0.1";

    private final String release;
    private final ChildJvm process;
    private final Path dir;
    private final String bootstrap;
    private final Admin admin;

    private ChildKafkaBroker(String release, ChildJvm process, Path dir, String bootstrap) {
        this.release = release;
        this.process = process;
        this.dir = dir;
        this.bootstrap = bootstrap;
        this.admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
    }

    /**
     * Starts a Kafka 2.8 broker on {@code zookeeperConnect} (with its chroot), classpath from the system property
     * {@code kafka2.classpathFile}, under {@code target/kafka2}; returns once it answers Admin requests.
     */
    public static ChildKafkaBroker kafka2(String zookeeperConnect) throws IOException {
        return zooKeeperMode("2.8", "kafka2", zookeeperConnect, Path.of(System.getProperty("java.home"), "bin", "java"));
    }

    /**
     * Starts a Kafka broker of {@code release} (e.g. 0.10.2) in ZooKeeper mode on {@code zookeeperConnect} (with its
     * chroot), run by {@code java} (a release older than Java 17 may not start on it: Java 8, see {@link Java8Runtime}), classpath from the
     * system property {@code <module>.classpathFile}, under {@code target/<module>}; returns once it answers Admin
     * requests.
     */
    public static ChildKafkaBroker zooKeeperMode(String release, String module, String zookeeperConnect, Path java)
            throws IOException {
        Path dir = brokerDir(Path.of("target", module));
        int port = ServerPorts.free();
        Properties props = singleBroker(dir);
        props.setProperty("broker.id", "0");
        props.setProperty("listeners", "PLAINTEXT://" + LOOPBACK + ":" + port);
        props.setProperty("zookeeper.connect", zookeeperConnect);
        Path config = writeConfig(dir, props, "Kafka " + release + " broker in ZooKeeper mode");
        Path log4j = dir.resolve("log4j.properties");
        Files.writeString(log4j, String.join("\n", "log4j.rootLogger=WARN, out",
                "log4j.appender.out=org.apache.log4j.ConsoleAppender",
                "log4j.appender.out.layout=org.apache.log4j.PatternLayout",
                "log4j.appender.out.layout.ConversionPattern=%d{HH:mm:ss,SSS} %-5p %c{1} - %m%n", ""));
        String classpath = classpath(release, module);
        ChildJvm broker = java(module + "-broker", java, classpath, dir,
                List.of("-Dlog4j.configuration=" + log4j.toUri()), List.of("kafka.Kafka", config.toString()));
        return awaitAnswer(new ChildKafkaBroker(release, broker, dir, LOOPBACK + ":" + port));
    }

    /** The release this broker runs, as given when it was started (e.g. 0.10.2, 2.8, 4.4). */
    public String release() {
        return release;
    }

    /**
     * Formats a fresh log directory and starts a Kafka 4.4 broker in KRaft mode, classpath from the system property
     * {@code kafka4.classpathFile}, under the directory {@code kafka4.workDir} (default {@code target/kafka4});
     * returns once it answers Admin requests.
     */
    public static ChildKafkaBroker kafka4() throws IOException {
        Path dir = brokerDir(Path.of(System.getProperty("kafka4.workDir", "target/kafka4")));
        // below the ephemeral range: the child JVM binds them seconds later, and no outgoing connection takes them meanwhile
        int brokerPort = ServerPorts.free();
        int controllerPort = ServerPorts.free();
        Properties props = singleBroker(dir);
        props.setProperty("process.roles", "broker,controller");
        props.setProperty("node.id", "1");
        props.setProperty("controller.quorum.voters", "1@" + LOOPBACK + ":" + controllerPort);
        props.setProperty("listeners", "PLAINTEXT://" + LOOPBACK + ":" + brokerPort + ",CONTROLLER://" + LOOPBACK + ":" + controllerPort);
        props.setProperty("advertised.listeners", "PLAINTEXT://" + LOOPBACK + ":" + brokerPort);
        props.setProperty("controller.listener.names", "CONTROLLER");
        props.setProperty("inter.broker.listener.name", "PLAINTEXT");
        props.setProperty("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        Path config = writeConfig(dir, props, "Kafka 4.4 broker in KRaft mode");
        String classpath = classpath("4.4", "kafka4");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        ChildJvm format = java("kafka4-storage-format", java, classpath, dir, List.of(),
                List.of("kafka.tools.StorageTool", "format", "-t", Uuid.randomUuid().toString(), "-c", config.toString()));
        if (format.awaitTermination(Duration.ofSeconds(60)) != 0) {
            throw new IllegalStateException("formatting the Kafka 4.4 storage failed:\n" + format.logTail(5000));
        }
        ChildJvm broker = java("kafka4-broker", java, classpath, dir, List.of(), List.of("kafka.Kafka", config.toString()));
        return awaitAnswer(new ChildKafkaBroker("4.4", broker, dir, LOOPBACK + ":" + brokerPort));
    }

    /** This JVM's Admin client of the broker, closed with it. */
    public Admin admin() {
        return admin;
    }

    public String bootstrapServers() {
        return bootstrap;
    }

    /** The metadata version a KRaft storage was formatted with, as the format command reported it (e.g. 4.4-IV2). */
    public String metadataVersion() throws IOException {
        String log = Files.readString(dir.resolve("broker.log"));
        String marker = "with metadata.version ";
        int at = log.indexOf(marker);
        return at < 0 ? "(not reported)" : log.substring(at + marker.length(), log.indexOf('\n', at)).replaceAll("\\.$", "").trim();
    }

    public void createTopic(String topic, int partitions) throws Exception {
        admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
    }

    /** Sends {@code perPartition} records with key {@code k} and value {@code v<partition>-<n>} to each partition. */
    public void produce(String topic, int partitions, int perPartition) throws Exception {
        produce(topic, partitions, 0, perPartition);
    }

    /** As {@link #produce(String, int, int)}, numbering the values from {@code from}. */
    public void produce(String topic, int partitions, int from, int perPartition) throws Exception {
        // idempotence needs 0.11 brokers; the others' tests need no more than acks=all on one broker
        Map<String, Object> config = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.ACKS_CONFIG,
                "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, String.valueOf(!release.startsWith("0.10.")));
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(config, new StringSerializer(), new StringSerializer())) {
            List<Future<?>> sent = new ArrayList<>();
            for (int p = 0; p < partitions; p++) {
                for (int i = from; i < from + perPartition; i++) {
                    sent.add(producer.send(new ProducerRecord<>(topic, p, "k", "v" + p + "-" + i)));
                }
            }
            for (Future<?> f : sent) {
                f.get(30, TimeUnit.SECONDS);
            }
        }
    }

    /** SIGTERM (a controlled shutdown), SIGKILL after 30 s; deletes the broker's logs. */
    @Override
    public void close() {
        admin.close(Duration.ofSeconds(5));
        process.terminate(Duration.ofSeconds(30));
        TestZooKeeper.deleteRecursively(dir.resolve("logs"));
    }

    private static ChildKafkaBroker awaitAnswer(ChildKafkaBroker started) {
        try {
            await("the Kafka " + started.release + " broker answers").atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(100))
                    .ignoreExceptions()
                    .until(() -> {
                        if (!started.process.isAlive()) {
                            throw new AssertionError("the broker exited:\n" + started.process.logTail(20_000));
                        }
                        return started.admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).size() == 1;
                    });
        } catch (RuntimeException | Error e) {
            started.close();
            throw e;
        }
        return started;
    }

    private static Path brokerDir(Path work) throws IOException {
        Path absolute = work.toAbsolutePath();
        Files.createDirectories(absolute);
        return Files.createTempDirectory(absolute, "broker-");
    }

    /** The settings of a one-broker cluster: one replica for every internal topic, short group delays. */
    private static Properties singleBroker(Path dir) {
        Properties props = new Properties();
        props.setProperty("log.dirs", dir.resolve("logs").toString());
        props.setProperty("offsets.topic.replication.factor", "1");
        props.setProperty("offsets.topic.num.partitions", "1");
        props.setProperty("transaction.state.log.replication.factor", "1");
        props.setProperty("transaction.state.log.min.isr", "1");
        props.setProperty("group.initial.rebalance.delay.ms", "0");
        props.setProperty("log.cleaner.dedupe.buffer.size", "2097152");
        return props;
    }

    private static Path writeConfig(Path dir, Properties props, String comment) throws IOException {
        Path config = dir.resolve("server.properties");
        try (OutputStream out = Files.newOutputStream(config)) {
            props.store(out, comment);
        }
        return config;
    }

    private static ChildJvm java(String name, Path java, String classpath, Path dir, List<String> jvmOptions,
                                 List<String> mainAndArgs) {
        return ChildJvm.builder(name, mainAndArgs.get(0)).java(java)
                .classpath(classpath).heapMb(384).jvmOptions(List.of("-XX:+UseSerialGC")).jvmOptions(jvmOptions)
                .args(mainAndArgs.subList(1, mainAndArgs.size()))
                .outputTo(dir.resolve("broker.log"))
                .start();
    }

    private static String classpath(String release, String module) throws IOException {
        String property = module + ".classpathFile";
        String file = System.getProperty(property);
        if (file == null || !Files.isRegularFile(Path.of(file))) {
            throw new IllegalStateException("the Kafka " + release + " classpath file (system property " + property
                    + " = " + file + ") is missing: run 'mvn verify' with the " + module
                    + "-broker module in the reactor (-am)");
        }
        return Files.readString(Path.of(file), StandardCharsets.UTF_8).trim();
    }
}
