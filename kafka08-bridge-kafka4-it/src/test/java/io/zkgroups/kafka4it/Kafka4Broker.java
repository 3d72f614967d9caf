package io.zkgroups.kafka4it;

import io.zkgroups.testing.ServerPorts;
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
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.awaitility.Awaitility.await;

/**
 * A real Kafka 4.4 broker (combined broker + controller, KRaft mode, bound to 127.0.0.1) in a child JVM whose
 * classpath is kafka_2.13:4.4.0 and its own dependencies ({@code kafka4-broker} writes it): the storage is formatted
 * with {@code kafka.tools.StorageTool format}, then {@code kafka.Kafka} runs, as {@code kafka-storage.sh} and
 * {@code kafka-server-start.sh} do. This JVM talks to it over the network with kafka-clients 3.9 only.
 */
final class Kafka4Broker implements AutoCloseable {

    private static final String LOOPBACK = "127.0.0.1";

    private final Process process;
    private final Path dir;
    private final String bootstrap;
    private final Admin admin;

    private Kafka4Broker(Process process, Path dir, String bootstrap) {
        this.process = process;
        this.dir = dir;
        this.bootstrap = bootstrap;
        this.admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
    }

    /** Formats a fresh log directory and starts the broker; returns once it answers Admin requests. */
    static Kafka4Broker start() throws IOException, InterruptedException {
        Path work = Path.of(System.getProperty("kafka4.workDir", "target/kafka4")).toAbsolutePath();
        Files.createDirectories(work);
        Path dir = Files.createTempDirectory(work, "broker-");
        // below the ephemeral range: the child JVM binds them seconds later, and no outgoing connection takes them meanwhile
        int brokerPort = ServerPorts.free();
        int controllerPort = ServerPorts.free();
        Properties props = new Properties();
        props.setProperty("process.roles", "broker,controller");
        props.setProperty("node.id", "1");
        props.setProperty("controller.quorum.voters", "1@" + LOOPBACK + ":" + controllerPort);
        props.setProperty("listeners", "PLAINTEXT://" + LOOPBACK + ":" + brokerPort + ",CONTROLLER://" + LOOPBACK + ":" + controllerPort);
        props.setProperty("advertised.listeners", "PLAINTEXT://" + LOOPBACK + ":" + brokerPort);
        props.setProperty("controller.listener.names", "CONTROLLER");
        props.setProperty("inter.broker.listener.name", "PLAINTEXT");
        props.setProperty("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        props.setProperty("log.dirs", dir.resolve("logs").toString());
        props.setProperty("offsets.topic.replication.factor", "1");
        props.setProperty("offsets.topic.num.partitions", "1");
        props.setProperty("transaction.state.log.replication.factor", "1");
        props.setProperty("transaction.state.log.min.isr", "1");
        props.setProperty("group.initial.rebalance.delay.ms", "0");
        props.setProperty("log.cleaner.dedupe.buffer.size", "2097152");
        Path config = dir.resolve("server.properties");
        try (OutputStream out = Files.newOutputStream(config)) {
            props.store(out, "Kafka 4.4 broker for kafka08-bridge-kafka4-it");
        }
        Path log = dir.resolve("broker.log");

        Process format = java(List.of("kafka.tools.StorageTool", "format", "-t", Uuid.randomUuid().toString(),
                "-c", config.toString()), log);
        if (!format.waitFor(60, TimeUnit.SECONDS) || format.exitValue() != 0) {
            format.destroyForcibly();
            throw new IllegalStateException("formatting the Kafka 4.4 storage failed:\n" + Files.readString(log));
        }
        Process broker = java(List.of("kafka.Kafka", config.toString()), log);
        Kafka4Broker started = new Kafka4Broker(broker, dir, LOOPBACK + ":" + brokerPort);
        try {
            await("the Kafka 4.4 broker answers").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                    .ignoreExceptions()
                    .until(() -> {
                        if (!broker.isAlive()) {
                            throw new AssertionError("the broker exited:\n" + Files.readString(log));
                        }
                        return started.admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).size() == 1;
                    });
        } catch (RuntimeException | Error e) {
            started.close();
            throw e;
        }
        return started;
    }

    String bootstrapServers() {
        return bootstrap;
    }

    /** The metadata version the storage was formatted with, as the format command reported it (e.g. 4.4-IV2). */
    String metadataVersion() throws IOException {
        String log = Files.readString(dir.resolve("broker.log"));
        String marker = "with metadata.version ";
        int at = log.indexOf(marker);
        return at < 0 ? "(not reported)" : log.substring(at + marker.length(), log.indexOf('\n', at)).replaceAll("\\.$", "").trim();
    }

    void createTopic(String topic, int partitions) throws Exception {
        admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
    }

    /** Sends {@code perPartition} records with key {@code k} and value {@code v<partition>-<n>} to each partition. */
    void produce(String topic, int partitions, int from, int perPartition) throws Exception {
        Map<String, Object> config = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(config, new StringSerializer(), new StringSerializer())) {
            List<java.util.concurrent.Future<?>> sent = new ArrayList<>();
            for (int p = 0; p < partitions; p++) {
                for (int i = from; i < from + perPartition; i++) {
                    sent.add(producer.send(new ProducerRecord<>(topic, p, "k", "v" + p + "-" + i)));
                }
            }
            for (java.util.concurrent.Future<?> f : sent) {
                f.get(30, TimeUnit.SECONDS);
            }
        }
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(5));
        process.destroy(); // SIGTERM: a controlled shutdown
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        deleteRecursively(dir.resolve("logs"));
    }

    private static Process java(List<String> mainAndArgs, Path log) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx384m", "-XX:+UseSerialGC", "-cp", classpath()));
        command.addAll(mainAndArgs);
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    }

    private static String classpath() throws IOException {
        String file = System.getProperty("kafka4.classpathFile");
        if (file == null || !Files.isRegularFile(Path.of(file))) {
            throw new IllegalStateException("the Kafka 4.4 classpath file (system property kafka4.classpathFile = " + file
                    + ") is missing: run 'mvn verify' with the kafka4-broker module in the reactor (-am)");
        }
        return Files.readString(Path.of(file), StandardCharsets.UTF_8).trim();
    }

    private static void deleteRecursively(Path path) {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(path)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
