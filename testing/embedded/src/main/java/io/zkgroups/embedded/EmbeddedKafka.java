package io.zkgroups.embedded;

import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.server.KafkaServer;
import kafka.server.Server;
import kafka.tools.StorageTool;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.network.ListenerName;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Time;
import scala.Option;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

import static org.awaitility.Awaitility.await;

/**
 * A real single-node Kafka 3.9 broker in this JVM, bound to 127.0.0.1 only, with its log directory in a temp
 * dir that {@link #close()} deletes. Two modes:
 * <ul>
 *   <li>{@link #startZooKeeperMode(String)}: a ZooKeeper-mode {@code KafkaServer}. It registers itself in
 *       {@code /brokers/ids/<id>} and writes {@code /brokers/topics/<T>} under the given connect string
 *       (which may carry a chroot: the broker creates it) - the layout 0.8.2.2 consumers read.</li>
 *   <li>{@link #startKRaftMode()}: a combined broker+controller {@code KafkaRaftServer}; nothing in
 *       ZooKeeper, partition metadata only through the Kafka protocol.</li>
 * </ul>
 * Clients: {@link #admin()} and the {@link #produce} helper share one Admin and one producer, closed with the
 * broker.
 */
public final class EmbeddedKafka implements AutoCloseable {

    /** How the broker keeps its metadata. */
    public enum Mode { ZOOKEEPER, KRAFT }

    private static final String LOOPBACK = "127.0.0.1";
    private static final ListenerName PLAINTEXT = ListenerName.normalised("PLAINTEXT");
    private static final Duration CLIENT_TIMEOUT = Duration.ofSeconds(30);

    private final Mode mode;
    private Server server;
    /** The node's configuration, to start it again after {@link #stop()} (KRaft mode only). */
    private Properties restartProps;
    private final int brokerId;
    private final int port;
    private final Path logDir;
    private Admin admin;
    private KafkaProducer<String, String> producer;

    private EmbeddedKafka(Mode mode, Server server, int brokerId, int port, Path logDir) {
        this.mode = mode;
        this.server = server;
        this.brokerId = brokerId;
        this.port = port;
        this.logDir = logDir;
    }

    /** Starts a ZooKeeper-mode broker with id 0 against {@code zookeeperConnect} (chroot allowed). */
    public static EmbeddedKafka startZooKeeperMode(String zookeeperConnect) {
        return startZooKeeperMode(zookeeperConnect, 0);
    }

    /** Starts a ZooKeeper-mode broker with the given id against {@code zookeeperConnect} (chroot allowed). */
    public static EmbeddedKafka startZooKeeperMode(String zookeeperConnect, int brokerId) {
        Objects.requireNonNull(zookeeperConnect, "zookeeperConnect");
        Path logDir = tempDir("zkgroups-kafka-zk-");
        try {
            Properties props = singleBrokerSettings(logDir);
            props.put("broker.id", String.valueOf(brokerId));
            props.put("zookeeper.connect", zookeeperConnect);
            // Port 0: the broker binds a free port and registers the bound one in /brokers/ids/<id>.
            props.put("listeners", "PLAINTEXT://" + LOOPBACK + ":0");
            KafkaServer broker = new KafkaServer(KafkaConfig.fromProps(props), Time.SYSTEM, Option.empty(), false);
            try {
                broker.startup();
            } catch (RuntimeException e) {
                shutdownQuietly(broker);
                throw e;
            }
            return new EmbeddedKafka(Mode.ZOOKEEPER, broker, brokerId, broker.boundPort(PLAINTEXT), logDir);
        } catch (RuntimeException e) {
            deleteRecursively(logDir);
            throw new IllegalStateException("could not start a ZooKeeper-mode Kafka broker on "
                    + zookeeperConnect + ": " + e, e);
        }
    }

    /** Formats a fresh storage directory and starts a combined broker+controller KRaft node (node id 1). */
    public static EmbeddedKafka startKRaftMode() {
        return startKRaftMode(0, 0);
    }

    /**
     * As {@link #startKRaftMode()}, listening on {@code brokerPort} (0: a free one), and telling clients (in its
     * metadata) to reach it at {@code 127.0.0.1:advertisedPort}, e.g. a proxy in front of it, so that every
     * connection goes through there (0: its own port). It can be {@link #stop() stopped} and
     * {@link #restart() restarted} on the same ports.
     */
    public static EmbeddedKafka startKRaftMode(int brokerPort, int advertisedPort) {
        Path logDir = tempDir("zkgroups-kafka-kraft-");
        try {
            int nodeId = 1;
            brokerPort = brokerPort == 0 ? freeLoopbackPort() : brokerPort;
            int controllerPort = freeLoopbackPort();
            Properties props = singleBrokerSettings(logDir);
            props.put("process.roles", "broker,controller");
            props.put("node.id", String.valueOf(nodeId));
            props.put("controller.quorum.voters", nodeId + "@" + LOOPBACK + ":" + controllerPort);
            props.put("listeners", "PLAINTEXT://" + LOOPBACK + ":" + brokerPort
                    + ",CONTROLLER://" + LOOPBACK + ":" + controllerPort);
            props.put("advertised.listeners", "PLAINTEXT://" + LOOPBACK + ":"
                    + (advertisedPort == 0 ? brokerPort : advertisedPort));
            props.put("controller.listener.names", "CONTROLLER");
            props.put("inter.broker.listener.name", "PLAINTEXT");
            props.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
            // a restarted node registers again once the controller has let the old registration's session go
            props.put("broker.session.timeout.ms", "2000");
            props.put("broker.heartbeat.interval.ms", "500");
            format(props, logDir);
            KafkaRaftServer node = new KafkaRaftServer(KafkaConfig.fromProps(props), Time.SYSTEM);
            try {
                node.startup();
            } catch (RuntimeException e) {
                shutdownQuietly(node);
                throw e;
            }
            EmbeddedKafka started = new EmbeddedKafka(Mode.KRAFT, node, nodeId, brokerPort, logDir);
            started.restartProps = props;
            started.awaitBrokerReady();
            return started;
        } catch (RuntimeException e) {
            deleteRecursively(logDir);
            throw new IllegalStateException("could not start a KRaft Kafka node: " + e, e);
        }
    }

    public Mode mode() {
        return mode;
    }

    /** {@code 127.0.0.1:<port>}. */
    public String bootstrapServers() {
        return LOOPBACK + ":" + port;
    }

    public int port() {
        return port;
    }

    /** {@code broker.id} (ZooKeeper mode) or {@code node.id} (KRaft mode). */
    public int brokerId() {
        return brokerId;
    }

    /** A shared Admin client, closed with the broker. */
    public synchronized Admin admin() {
        if (admin == null) {
            admin = Admin.create(Map.of(
                    AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                    AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000,
                    AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) CLIENT_TIMEOUT.toMillis()));
        }
        return admin;
    }

    /**
     * Creates a topic with replication factor 1 and waits until every partition has a leader in the broker's
     * metadata, so producers and consumers (0.8's TopicMetadataRequest included) see it at once.
     */
    public void createTopic(String name, int partitions) {
        get(admin().createTopics(List.of(new NewTopic(name, partitions, (short) 1))).all(), "create topic " + name);
        await("topic " + name + " has a leader for each of its " + partitions + " partitions")
                .atMost(CLIENT_TIMEOUT)
                .pollInterval(Duration.ofMillis(50))
                .ignoreExceptions()
                .until(() -> {
                    TopicDescription d = get(admin().describeTopics(List.of(name)).allTopicNames(), "describe " + name)
                            .get(name);
                    return d.partitions().size() == partitions
                            && d.partitions().stream().map(TopicPartitionInfo::leader)
                                    .allMatch(leader -> leader != null && leader.id() == brokerId);
                });
    }

    /** Produces the records synchronously (acks=all) and returns where each one landed, in order. */
    public List<RecordMetadata> produce(String topic, Record... records) {
        KafkaProducer<String, String> p = producer();
        List<Future<RecordMetadata>> sent = new ArrayList<>();
        for (Record r : records) {
            sent.add(p.send(new ProducerRecord<>(topic, r.partition(), r.key(), r.value())));
        }
        p.flush();
        List<RecordMetadata> result = new ArrayList<>();
        for (Future<RecordMetadata> f : sent) {
            result.add(get(f, "produce to " + topic));
        }
        return result;
    }

    /**
     * Shuts the node down for real (its ports closed, its process gone from the cluster), keeping its data: clients
     * see their connections refused until {@link #restart()}. KRaft mode only.
     */
    public synchronized void stop() {
        if (restartProps == null) {
            throw new IllegalStateException("only a KRaft node can be stopped and restarted: " + this);
        }
        if (server != null) {
            server.shutdown();
            server.awaitShutdown();
            server = null;
        }
    }

    /** Starts a {@link #stop() stopped} node again, on the same ports and data, and waits until it serves. */
    public synchronized void restart() {
        if (restartProps == null) {
            throw new IllegalStateException("only a KRaft node can be stopped and restarted: " + this);
        }
        if (server != null) {
            return;
        }
        KafkaRaftServer node = new KafkaRaftServer(KafkaConfig.fromProps(restartProps), Time.SYSTEM);
        try {
            node.startup();
        } catch (RuntimeException e) {
            shutdownQuietly(node);
            throw new IllegalStateException("could not restart " + this + ": " + e, e);
        }
        server = node;
        // clients made before the stop may hold on to connections and metadata of the old node
        closeClients();
        awaitBrokerReady();
    }

    private void closeClients() {
        if (producer != null) {
            producer.close(Duration.ZERO);
            producer = null;
        }
        if (admin != null) {
            admin.close(Duration.ZERO);
            admin = null;
        }
    }

    @Override
    public synchronized void close() {
        try {
            if (producer != null) {
                producer.close(Duration.ofSeconds(5));
            }
            if (admin != null) {
                admin.close(Duration.ofSeconds(5));
            }
        } finally {
            try {
                if (server != null) {
                    server.shutdown();
                    server.awaitShutdown();
                }
            } finally {
                deleteRecursively(logDir);
            }
        }
    }

    @Override
    public String toString() {
        return "EmbeddedKafka[" + mode + ", id " + brokerId + ", " + bootstrapServers() + "]";
    }

    // ------------------------------------------------------------------------------------------ types

    /** A record to produce; {@code partition} null lets the producer's partitioner choose. */
    public record Record(Integer partition, String key, String value) {
        public static Record of(String key, String value) {
            return new Record(null, key, value);
        }

        public static Record to(int partition, String key, String value) {
            return new Record(partition, key, value);
        }
    }

    // ------------------------------------------------------------------------------------------ internals

    private synchronized KafkaProducer<String, String> producer() {
        if (producer == null) {
            producer = new KafkaProducer<>(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                    ProducerConfig.ACKS_CONFIG, "all",
                    ProducerConfig.LINGER_MS_CONFIG, 0,
                    ProducerConfig.MAX_BLOCK_MS_CONFIG, (int) CLIENT_TIMEOUT.toMillis(),
                    ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000,
                    ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) CLIENT_TIMEOUT.toMillis()),
                    new StringSerializer(), new StringSerializer());
        }
        return producer;
    }

    /** KRaft: the broker half registers with the controller after startup() returns; wait until it serves. */
    private void awaitBrokerReady() {
        await("KRaft broker " + bootstrapServers() + " is in the cluster metadata")
                .atMost(CLIENT_TIMEOUT)
                .pollInSameThread() // restart() holds this object's lock, which admin() takes
                .pollInterval(Duration.ofMillis(50))
                .ignoreExceptions()
                .until(() -> get(admin().describeCluster().nodes(), "describe cluster").stream()
                        .anyMatch(n -> n.id() == brokerId));
    }

    private static Properties singleBrokerSettings(Path logDir) {
        Properties props = new Properties();
        props.put("log.dirs", logDir.toString());
        props.put("offsets.topic.replication.factor", "1");
        props.put("offsets.topic.num.partitions", "1");
        props.put("transaction.state.log.replication.factor", "1");
        props.put("transaction.state.log.min.isr", "1");
        props.put("transaction.state.log.num.partitions", "1");
        props.put("group.initial.rebalance.delay.ms", "0");
        // The default 128 MiB dedupe buffer alone would triple the broker's heap.
        props.put("log.cleaner.dedupe.buffer.size", "2097152");
        props.put("auto.create.topics.enable", "false");
        props.put("num.partitions", "1");
        props.put("default.replication.factor", "1");
        props.put("controlled.shutdown.enable", "false");
        // Fewer threads: CI has 2 cores shared with everything else.
        props.put("num.network.threads", "2");
        props.put("num.io.threads", "2");
        props.put("background.threads", "2");
        props.put("num.recovery.threads.per.data.dir", "1");
        props.put("num.replica.fetchers", "1");
        props.put("log.cleaner.threads", "1");
        return props;
    }

    private static void format(Properties props, Path logDir) {
        Path configFile = logDir.resolveSibling(logDir.getFileName() + ".properties");
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        try {
            try (OutputStream out = Files.newOutputStream(configFile)) {
                props.store(out, "zkgroups EmbeddedKafka (KRaft)");
            }
            String[] args = {"format", "-t", Uuid.randomUuid().toString(), "-c", configFile.toString()};
            int exit;
            try (PrintStream printed = new PrintStream(output, true, StandardCharsets.UTF_8)) {
                exit = StorageTool.execute(args, printed);
            }
            if (exit != 0) {
                throw new IllegalStateException("kafka-storage format exited " + exit + ": "
                        + output.toString(StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            try {
                Files.deleteIfExists(configFile);
            } catch (IOException ignored) {
                // a small temp file left behind
            }
        }
    }

    /** A loopback port free now (for a broker to listen on later, e.g. behind a proxy started first). */
    public static int freeLoopbackPort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK))) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free loopback port", e);
        }
    }

    private static <T> T get(Future<T> future, String what) {
        try {
            return future.get(CLIENT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted: " + what, e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(what + " failed: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException(what + " did not complete within " + CLIENT_TIMEOUT, e);
        }
    }

    private static void shutdownQuietly(Server s) {
        try {
            s.shutdown();
            s.awaitShutdown();
        } catch (RuntimeException ignored) {
            // already failing: the original exception matters
        }
    }

    private static Path tempDir(String prefix) {
        try {
            return Files.createTempDirectory(prefix);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException ignored) {
            // best effort: a temp dir left behind is not a test failure
        }
    }
}
