package io.zkgroups.it.support;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.awaitility.Awaitility.await;

/**
 * A real Kafka 2.8.2 broker (the last 2.x; ZooKeeper mode, bound to 127.0.0.1) in a child JVM whose classpath is
 * kafka_2.13:2.8.2 and its own dependencies ({@code kafka2-broker} writes it), started with {@code kafka.Kafka} as
 * {@code kafka-server-start.sh} does. It registers itself in ZooKeeper ({@code /brokers/ids}, {@code /brokers/topics})
 * under the given connect string; this JVM talks to it with kafka-clients 3.9 only.
 */
public final class Kafka2Broker implements AutoCloseable {

    private static final String LOOPBACK = "127.0.0.1";

    private final Process process;
    private final Path dir;
    private final String bootstrap;
    private final Admin admin;

    private Kafka2Broker(Process process, Path dir, String bootstrap) {
        this.process = process;
        this.dir = dir;
        this.bootstrap = bootstrap;
        this.admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
    }

    /** Starts the broker on {@code zookeeperConnect} (with its chroot); returns once it answers Admin requests. */
    public static Kafka2Broker start(String zookeeperConnect) throws IOException {
        Path work = Path.of("target", "kafka2").toAbsolutePath();
        Files.createDirectories(work);
        Path dir = Files.createTempDirectory(work, "broker-");
        int port;
        try (ServerSocket socket = new ServerSocket(0, 0, java.net.InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        Properties props = new Properties();
        props.setProperty("broker.id", "0");
        props.setProperty("listeners", "PLAINTEXT://" + LOOPBACK + ":" + port);
        props.setProperty("zookeeper.connect", zookeeperConnect);
        props.setProperty("log.dirs", dir.resolve("logs").toString());
        props.setProperty("offsets.topic.replication.factor", "1");
        props.setProperty("offsets.topic.num.partitions", "1");
        props.setProperty("transaction.state.log.replication.factor", "1");
        props.setProperty("transaction.state.log.min.isr", "1");
        props.setProperty("group.initial.rebalance.delay.ms", "0");
        props.setProperty("log.cleaner.dedupe.buffer.size", "2097152");
        Path config = dir.resolve("server.properties");
        try (OutputStream out = Files.newOutputStream(config)) {
            props.store(out, "Kafka 2.8 broker for the broker-generation tests");
        }
        Path log = dir.resolve("broker.log");
        Path log4j = dir.resolve("log4j.properties");
        Files.writeString(log4j, String.join("\n", "log4j.rootLogger=WARN, out",
                "log4j.appender.out=org.apache.log4j.ConsoleAppender",
                "log4j.appender.out.layout=org.apache.log4j.PatternLayout",
                "log4j.appender.out.layout.ConversionPattern=%d{HH:mm:ss,SSS} %-5p %c{1} - %m%n", ""));
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx384m", "-XX:+UseSerialGC", "-Dlog4j.configuration=" + log4j.toUri(), "-cp", classpath(),
                "kafka.Kafka", config.toString());
        Process broker = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        Kafka2Broker started = new Kafka2Broker(broker, dir, LOOPBACK + ":" + port);
        try {
            await("the Kafka 2.8 broker answers").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
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

    public String bootstrapServers() {
        return bootstrap;
    }

    public void createTopic(String topic, int partitions) throws Exception {
        admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
    }

    /** Sends {@code perPartition} records with key {@code k} and value {@code v<partition>-<n>} to each partition. */
    public void produce(String topic, int partitions, int perPartition) throws Exception {
        Map<String, Object> config = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(config, new StringSerializer(), new StringSerializer())) {
            List<Future<?>> sent = new ArrayList<>();
            for (int p = 0; p < partitions; p++) {
                for (int i = 0; i < perPartition; i++) {
                    sent.add(producer.send(new ProducerRecord<>(topic, p, "k", "v" + p + "-" + i)));
                }
            }
            for (Future<?> f : sent) {
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
        try (Stream<Path> walk = Files.walk(dir.resolve("logs"))) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | java.io.UncheckedIOException e) {
            // best effort: a temp dir left behind is not a test failure
        }
    }

    private static String classpath() throws IOException {
        String file = System.getProperty("kafka2.classpathFile");
        if (file == null || !Files.isRegularFile(Path.of(file))) {
            throw new IllegalStateException("the Kafka 2.8 classpath file (system property kafka2.classpathFile = " + file
                    + ") is missing: run 'mvn verify' with the kafka2-broker module in the reactor (-am)");
        }
        return Files.readString(Path.of(file), StandardCharsets.UTF_8).trim();
    }
}
