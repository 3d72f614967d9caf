package io.zkgroups.tool.io;

import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.BrokerInfo;
import io.zkgroups.registry.security.ZkClientSecurity;
import io.zkgroups.registry.store.PromptClosingZooKeeper;
import io.zkgroups.tool.CliException;
import io.zkgroups.tool.ExitCode;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryUntilElapsed;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.KafkaException;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * Opens, on first use, the ZooKeeper and Kafka clients a command needs, and closes them. Connection problems
 * become {@link CliException}s with {@link ExitCode#UNREACHABLE} that name the address.
 * <p>
 * The Kafka bootstrap servers are {@code --bootstrap-server} when given; otherwise they are derived from the
 * brokers registered in {@code /brokers/ids}: each broker's endpoint for the {@code security.protocol} of
 * {@code --command-config} (PLAINTEXT by default: the registration's top-level {@code host}/{@code port}).
 */
public final class Clients implements AutoCloseable {

    private final ConnectionSettings settings;
    private CuratorFramework curator;
    private ZkGroups zk;
    private Admin admin;
    private KafkaGroups kafka;
    private RecordTimestamps recordTimestamps;
    private io.zkgroups.tool.audit.Invocation invocation;
    private boolean kafkaResolved;
    private String kafkaUnavailableReason;

    public Clients(ConnectionSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    public ConnectionSettings settings() {
        return settings;
    }

    /** The ZooKeeper side, connected. */
    public synchronized ZkGroups zk() {
        if (zk == null) {
            curator = connectZooKeeper();
            zk = new ZkGroups(new ZkRegistry(curator, ZkLayout.root()), settings.timeout());
        }
        return zk;
    }

    /** The Kafka side, or empty when no bootstrap server is given and no broker is registered in ZooKeeper. */
    public synchronized Optional<KafkaGroups> kafka() {
        if (!kafkaResolved) {
            kafkaResolved = true;
            String bootstrap = settings.bootstrapServer();
            Properties props = commandConfig();
            if (bootstrap == null) {
                bootstrap = deriveBootstrap(props);
            }
            if (bootstrap != null) {
                admin = createAdmin(bootstrap, props);
                kafka = new KafkaGroups(admin, bootstrap, settings.timeout());
            }
        }
        return Optional.ofNullable(kafka);
    }

    /** Sets who runs the command, for the audit journal ({@link #audit}). */
    public synchronized void invocation(io.zkgroups.tool.audit.Invocation who) {
        this.invocation = who;
    }

    /**
     * Records in {@code group}'s audit journal that this command wrote its offsets ({@code changes}: per partition and
     * store, before and after). Call it right after the write.
     */
    public void audit(String group, String action, java.util.List<io.zkgroups.tool.audit.AuditEntry.Change> changes) {
        io.zkgroups.tool.audit.Invocation who;
        synchronized (this) {
            who = invocation != null ? invocation : io.zkgroups.tool.audit.Invocation.current("zkgroups", List.of(),
                    io.zkgroups.tool.cli.BuildVersion.version());
        }
        auditJournal().append(group, action, who, changes);
    }

    /** Records in {@code group}'s audit journal that this command moved it from one coordinator to the other. */
    public void auditCoordination(String group, String from, String to) {
        io.zkgroups.tool.audit.Invocation who;
        synchronized (this) {
            who = invocation != null ? invocation : io.zkgroups.tool.audit.Invocation.current("zkgroups", List.of(),
                    io.zkgroups.tool.cli.BuildVersion.version());
        }
        auditJournal().appendCoordination(group, from, to, who);
    }

    /** The audit journal of the groups' offset writes by tools. */
    public io.zkgroups.tool.audit.AuditJournal auditJournal() {
        ZkGroups z = zk();
        return new io.zkgroups.tool.audit.AuditJournal(z.registry().znodes(), z.paths(),
                io.zkgroups.tool.audit.AuditJournal.DEFAULT_CAPACITY);
    }

    /**
     * Reads record timestamps at offsets (for lag in seconds), through a consumer without a group that is created at
     * its first read; empty when {@link #kafka()} is.
     */
    public synchronized Optional<RecordTimestamps> recordTimestamps() {
        Optional<KafkaGroups> k = kafka();
        if (k.isPresent() && recordTimestamps == null) {
            String bootstrap = k.get().bootstrap();
            Properties fromFile = commandConfig();
            recordTimestamps = new RecordTimestamps(() -> createTimestampConsumer(bootstrap, fromFile),
                    Duration.ofMillis(Math.min(settings.timeout().toMillis(), 5_000)));
        }
        return Optional.ofNullable(recordTimestamps);
    }

    private org.apache.kafka.clients.consumer.Consumer<byte[], byte[]> createTimestampConsumer(String bootstrap, Properties fromFile) {
        Properties props = new Properties();
        fromFile.forEach((k, v) -> {
            if (org.apache.kafka.clients.consumer.ConsumerConfig.configNames().contains(String.valueOf(k))) {
                props.put(k, v);
            }
        });
        int timeoutMs = (int) settings.timeout().toMillis();
        props.put("bootstrap.servers", bootstrap);
        props.put("enable.auto.commit", "false");
        props.put("auto.offset.reset", "none");
        props.put("max.partition.fetch.bytes", "1024");
        props.put("fetch.max.wait.ms", "100");
        props.put("request.timeout.ms", Integer.toString(timeoutMs));
        props.put("default.api.timeout.ms", Integer.toString(timeoutMs));
        props.putIfAbsent("client.id", "zkgroups-timestamps");
        props.remove("group.id");
        return new org.apache.kafka.clients.consumer.KafkaConsumer<>(props,
                new org.apache.kafka.common.serialization.ByteArrayDeserializer(),
                new org.apache.kafka.common.serialization.ByteArrayDeserializer());
    }

    /** The Kafka side; fails with a usage error saying why Kafka is needed when it cannot be reached. */
    public KafkaGroups requireKafka(String why) {
        return kafka().orElseThrow(() -> new CliException(ExitCode.USAGE, why + " needs Kafka, but no --bootstrap-server"
                + " was given and " + Optional.ofNullable(kafkaUnavailableReason).orElse("no broker is registered in /brokers/ids")));
    }

    /** Why {@link #kafka()} is empty, for warnings. */
    public String kafkaUnavailableReason() {
        return kafkaUnavailableReason == null ? "no --bootstrap-server and no broker registered in /brokers/ids"
                : kafkaUnavailableReason;
    }

    private CuratorFramework connectZooKeeper() {
        int timeoutMs = (int) settings.timeout().toMillis();
        CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
                .connectString(settings.zookeeper())
                .connectionTimeoutMs(timeoutMs)
                .sessionTimeoutMs(Math.max(timeoutMs, 30_000))
                .retryPolicy(new RetryUntilElapsed(timeoutMs, 200))
                .ensembleTracker(false) // the servers named, not those /zookeeper/config lists: one read fewer
                .zookeeperFactory(PromptClosingZooKeeper.factory()); // the session ends at close; its threads are not waited for
        ZkClientSecurity security = zooKeeperSecurity(settings);
        security.applyTo(builder, ZkLayout.root());
        CuratorFramework client;
        try {
            client = builder.build();
        } catch (IllegalArgumentException e) {
            throw new CliException(ExitCode.USAGE, "invalid --zookeeper '" + settings.zookeeper() + "': " + e.getMessage(), e);
        }
        client.start();
        boolean connected;
        try {
            connected = client.blockUntilConnected(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            connected = false;
        }
        if (!connected) {
            client.close();
            throw new CliException(ExitCode.UNREACHABLE, "cannot connect to ZooKeeper at " + settings.zookeeper()
                    + " within " + settings.timeout().toSeconds() + " s (" + security.describe() + "; is --zookeeper right"
                    + " and the server up?" + (security.tls() ? "" : " Does it expect TLS: --zk-tls-config-file?") + ")");
        }
        return client;
    }

    /**
     * The security of the ZooKeeper client: {@code --zk-tls-config-file} (Kafka's names; unknown keys are an error,
     * a mistyped TLS key must not fall back to plaintext) and {@code --zk-auth}.
     */
    public static ZkClientSecurity zooKeeperSecurity(ConnectionSettings settings) {
        Map<String, String> props = zooKeeperSecurityProperties(settings);
        try {
            return ZkClientSecurity.parse(props, settings.zkTlsConfigFile() == null ? "the command line"
                    : "--zk-tls-config-file " + settings.zkTlsConfigFile());
        } catch (IllegalArgumentException e) {
            throw new CliException(ExitCode.BAD_INPUT_FILE, e.getMessage(), e);
        }
    }

    /** The security properties of {@link #zooKeeperSecurity} as keys and values, for a consumer's configuration. */
    public static Map<String, String> zooKeeperSecurityProperties(ConnectionSettings settings) {
        Map<String, String> map = new HashMap<>();
        if (settings.zkTlsConfigFile() != null) {
            Properties props = readProperties(settings.zkTlsConfigFile(), "--zk-tls-config-file");
            for (String key : props.stringPropertyNames()) {
                if (!ZkClientSecurity.isSecurityKey(key)) {
                    throw new CliException(ExitCode.BAD_INPUT_FILE, "unknown key " + key + " in --zk-tls-config-file "
                            + settings.zkTlsConfigFile() + " (expected zookeeper.ssl.*, zookeeper.clientCnxnSocket, "
                            + "zookeeper.sasl.*, zookeeper.set.acl, zookeeper.client.config; see docs/install.md)");
                }
                map.put(key, props.getProperty(key));
            }
        }
        if (settings.zkAuth() != null) {
            if (settings.zkAuth().indexOf(':') <= 0) {
                throw new CliException(ExitCode.USAGE, "--zk-auth must be user:password");
            }
            map.put(ZkClientSecurity.DIGEST_AUTH, settings.zkAuth());
        }
        return map;
    }

    private static Properties readProperties(Path file, String option) {
        Properties props = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            props.load(reader);
        } catch (NoSuchFileException e) {
            throw new CliException(ExitCode.BAD_INPUT_FILE, option + " " + file + ": no such file");
        } catch (IOException | IllegalArgumentException e) {
            throw new CliException(ExitCode.BAD_INPUT_FILE, "cannot read " + option + " " + file + ": " + e.getMessage(), e);
        }
        return props;
    }

    private Properties commandConfig() {
        return settings.commandConfig() == null ? new Properties()
                : readProperties(settings.commandConfig(), "--command-config");
    }

    private String deriveBootstrap(Properties props) {
        String protocol = props.getProperty("security.protocol", "PLAINTEXT").trim().toUpperCase(java.util.Locale.ROOT);
        List<String> addresses = new ArrayList<>();
        List<BrokerInfo> brokers = zk().brokers().entries();
        for (BrokerInfo broker : brokers) {
            if (protocol.equals("PLAINTEXT") && broker.plaintextAddress().isPresent()) {
                addresses.add(broker.plaintextAddress().get());
                continue;
            }
            broker.endpoints().stream().filter(e -> e.securityProtocol().equalsIgnoreCase(protocol)).findFirst()
                    .ifPresent(e -> addresses.add(e.address()));
        }
        if (addresses.isEmpty()) {
            kafkaUnavailableReason = brokers.isEmpty() ? "no broker is registered in /brokers/ids"
                    : "no broker registered in /brokers/ids has a " + protocol + " endpoint";
            return null;
        }
        return String.join(",", addresses);
    }

    private Admin createAdmin(String bootstrap, Properties fromFile) {
        Properties props = new Properties();
        props.putAll(fromFile);
        int timeoutMs = (int) settings.timeout().toMillis();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, timeoutMs);
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, timeoutMs);
        props.put(AdminClientConfig.SOCKET_CONNECTION_SETUP_TIMEOUT_MS_CONFIG, (long) Math.min(timeoutMs, 5_000));
        props.put("socket.connection.setup.timeout.max.ms", (long) Math.min(timeoutMs, 5_000));
        props.putIfAbsent(AdminClientConfig.CLIENT_ID_CONFIG, "zkgroups");
        try {
            return Admin.create(props);
        } catch (KafkaException e) {
            String detail = e.getCause() == null ? e.getMessage() : e.getMessage() + ": " + e.getCause().getMessage();
            throw new CliException(ExitCode.USAGE, "cannot create a Kafka client for " + bootstrap + ": " + detail, e);
        }
    }

    @Override
    public synchronized void close() {
        if (recordTimestamps != null) {
            recordTimestamps.close();
        }
        if (admin != null) {
            admin.close(Duration.ofSeconds(2));
        }
        if (curator != null) {
            curator.close();
        }
    }
}
