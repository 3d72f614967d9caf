package io.zkgroups.rebalancer.consumer;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import io.zkgroups.registry.ZkNames;
import io.zkgroups.registry.server.ServerGeneration;
import io.zkgroups.registry.security.ZkClientSecurity;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;

/**
 * The configuration of a {@link ZkGroupConsumer}: every 0.8.2.2 consumer property
 * (docs/compatibility.md#consumer-configuration), the
 * kafka-clients properties of the fetch side, ZooKeeper security under Kafka 3.x's names
 * ({@code zookeeper.ssl.*}, {@code zookeeper.clientCnxnSocket}, {@code zookeeper.set.acl}, {@code zookeeper.sasl.*},
 * {@code zookeeper.client.config}; see {@link ZkClientSecurity}), and a few {@code zkgroups.*} extras. Parsing is strict about
 * values (a bad one fails naming key and value) and lenient about keys (an unknown key only warns, as in
 * 0.8.2.2).
 */
public final class ZkConsumerConfig {

    private static final Logger LOG = LoggerFactory.getLogger(ZkConsumerConfig.class);

    /** 0.8.2.2 consumer properties and their defaults ({@code null}: required or derived). */
    static final Map<String, String> LEGACY_DEFAULTS = legacyDefaults();

    /** zkgroups' own properties. */
    public static final String MAX_GROUP_SIZE = "zkgroups.max.group.size";
    public static final String STREAMS_PER_TOPIC = "zkgroups.streams.per.topic";
    public static final String REBALANCE_DEBOUNCE_MS = "zkgroups.rebalance.debounce.ms";
    public static final String ADVERTISE_CAPABILITIES = "zkgroups.advertise.capabilities";
    public static final String METADATA_REFRESH_MS = "zkgroups.metadata.refresh.ms";
    public static final String OFFSETS_REFRESH_MS = "zkgroups.offsets.refresh.ms";
    public static final String REVOKE_TIMEOUT_MS = "zkgroups.revoke.timeout.ms";
    /** Whether to register the 0.8.2.2 consumer's MBeans too (docs/monitoring.md). */
    public static final String LEGACY_MBEANS = "zkgroups.metrics.legacy.mbeans";
    /** Where close() hands the ZooKeeper session to the next process of this consumer (docs/restarts.md); empty: it leaves. */
    public static final String RESTART_HANDOVER_FILE = "zkgroups.restart.handover.file";
    /** How long after a hand-over a successor may still resume the session; empty: two thirds of the session timeout. */
    public static final String RESTART_GRACE_MS = "zkgroups.restart.grace.ms";
    /**
     * How long a consumer started with no ticket in its hand-over file waits for one (a successor started before its
     * predecessor stops); 0: it does not wait.
     */
    public static final String RESTART_AWAIT_MS = "zkgroups.restart.handover.await.ms";
    /** The oldest ZooKeeper server version of the ensemble (3.4, 3.5, 3.6, ...), or auto: learned at start. */
    public static final String ZOOKEEPER_SERVER_VERSION = "zkgroups.zookeeper.server.version";
    static final Map<String, String> ZKGROUPS_DEFAULTS = ImmutableMap.<String, String>builder()
            .put(MAX_GROUP_SIZE, "0")
            .put(STREAMS_PER_TOPIC, "1")
            .put(REBALANCE_DEBOUNCE_MS, "0")
            .put(ADVERTISE_CAPABILITIES, "false")
            .put(METADATA_REFRESH_MS, "1000")
            .put(OFFSETS_REFRESH_MS, "3600000")
            .put(REVOKE_TIMEOUT_MS, "300000")
            .put(LEGACY_MBEANS, "true")
            .put(RESTART_HANDOVER_FILE, "")
            .put(RESTART_GRACE_MS, "")
            .put(RESTART_AWAIT_MS, "0")
            .put(ZOOKEEPER_SERVER_VERSION, "auto")
            .build();

    /** 0.8 fetch-side properties and the kafka-clients property that takes their meaning. */
    private static final Map<String, String> LEGACY_TO_CLIENT = ImmutableMap.of(
            "fetch.message.max.bytes", ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG,
            "fetch.min.bytes", ConsumerConfig.FETCH_MIN_BYTES_CONFIG,
            "fetch.wait.max.ms", ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG,
            "socket.receive.buffer.bytes", ConsumerConfig.RECEIVE_BUFFER_CONFIG,
            "refresh.leader.backoff.ms", ConsumerConfig.RETRY_BACKOFF_MS_CONFIG);

    /** kafka-clients properties that only make sense for Kafka's own group protocol. */
    private static final Set<String> CLIENT_GROUP_KEYS = ImmutableSet.of(
            ConsumerConfig.GROUP_ID_CONFIG, ConsumerConfig.GROUP_INSTANCE_ID_CONFIG,
            ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, ConsumerConfig.AUTO_COMMIT_INTERVAL_MS_CONFIG,
            ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, ConsumerConfig.GROUP_PROTOCOL_CONFIG,
            ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG);

    public enum OffsetsStorage { ZOOKEEPER, KAFKA }

    public enum ResetPolicy { EARLIEST, LATEST, NONE }

    private final Map<String, String> values;
    private final Map<String, Object> clientProperties;
    private final ZkClientSecurity zooKeeperSecurity;
    private final List<String> warnings;

    private ZkConsumerConfig(Map<String, String> values, Map<String, Object> clientProperties,
                             ZkClientSecurity zooKeeperSecurity, List<String> warnings) {
        this.values = values;
        this.clientProperties = clientProperties;
        this.zooKeeperSecurity = zooKeeperSecurity;
        this.warnings = warnings;
    }

    public static ZkConsumerConfig from(Properties properties) {
        Map<String, Object> map = new HashMap<>();
        properties.stringPropertyNames().forEach(k -> map.put(k, properties.getProperty(k)));
        return from(map);
    }

    /**
     * @throws ConfigException naming the key and the value of the first bad property
     */
    public static ZkConsumerConfig from(Map<String, ?> properties) {
        Map<String, String> values = new TreeMap<>();
        Map<String, Object> client = new HashMap<>();
        Map<String, Object> security = new HashMap<>();
        List<String> warnings = new ArrayList<>();
        Set<String> clientNames = ConsumerConfig.configNames();
        properties.forEach((key, raw) -> {
            if (raw == null) {
                throw new ConfigException("property " + key + " has no value");
            }
            if (LEGACY_DEFAULTS.containsKey(key) || ZKGROUPS_DEFAULTS.containsKey(key)) {
                values.put(key, raw.toString().trim());
            } else if (ZkClientSecurity.isSecurityKey(key)) {
                security.put(key, raw);
            } else if (CLIENT_GROUP_KEYS.contains(key)) {
                warnings.add("property " + key + " is ignored: the group is coordinated through ZooKeeper");
            } else if (clientNames.contains(key) || key.startsWith("ssl.") || key.startsWith("sasl.")
                    || key.startsWith("security.")) {
                client.put(key, raw);
            } else {
                warnings.add("unknown property " + key + " is ignored");
            }
        });
        ZkClientSecurity zooKeeperSecurity;
        try {
            zooKeeperSecurity = ZkClientSecurity.parse(security, "the consumer properties");
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
        ZkConsumerConfig config = new ZkConsumerConfig(values, client, zooKeeperSecurity, warnings);
        config.validate();
        warnings.forEach(w -> LOG.warn("{}", w));
        return config;
    }

    private void validate() {
        ZkNames.requireValid("group.id", require("group.id"));
        require("zookeeper.connect");
        if (values.containsKey("consumer.id")) {
            ZkNames.requireValid("consumer.id", values.get("consumer.id"));
        }
        if (values.containsKey("client.id")) {
            ZkNames.requireValid("client.id", values.get("client.id"));
        }
        for (String key : Arrays.asList("zookeeper.session.timeout.ms", "zookeeper.connection.timeout.ms",
                "zookeeper.sync.time.ms", "auto.commit.interval.ms", "rebalance.backoff.ms",
                "socket.timeout.ms", "fetch.message.max.bytes", "fetch.wait.max.ms", "socket.receive.buffer.bytes",
                "refresh.leader.backoff.ms", "offsets.channel.backoff.ms", "offsets.channel.socket.timeout.ms",
                METADATA_REFRESH_MS, OFFSETS_REFRESH_MS, REVOKE_TIMEOUT_MS)) {
            positiveInt(key, true);
        }
        for (String key : Arrays.asList("fetch.min.bytes", "rebalance.max.retries", "offsets.commit.max.retries",
                "num.consumer.fetchers", "queued.max.message.chunks", MAX_GROUP_SIZE, REBALANCE_DEBOUNCE_MS)) {
            positiveInt(key, false);
        }
        if (streamsPerTopic() < 1) {
            throw bad(STREAMS_PER_TOPIC, "must be at least 1");
        }
        for (String key : Arrays.asList("auto.commit.enable", "dual.commit.enabled", "exclude.internal.topics",
                ADVERTISE_CAPABILITIES, LEGACY_MBEANS)) {
            String value = values.get(key);
            if (value != null && !value.equalsIgnoreCase("true") && !value.equalsIgnoreCase("false")) {
                throw bad(key, "must be true or false");
            }
        }
        offsetsStorage();
        resetPolicy();
        zooKeeperServerGeneration();
        restartGrace();
        restartAwait();
        String strategy = get("partition.assignment.strategy");
        if (!strategy.equals("range") && !strategy.equals("roundrobin") && !strategy.equals("sticky")) {
            throw bad("partition.assignment.strategy", "must be range, roundrobin or sticky (0.8.2.2 would silently use"
                    + " range; sticky is zkgroups' own, see docs/sticky.md)");
        }
        if (strategy.equals("sticky") && "false".equalsIgnoreCase(values.get(ADVERTISE_CAPABILITIES))) {
            throw bad(ADVERTISE_CAPABILITIES, "cannot be false with partition.assignment.strategy=sticky: members learn"
                    + " from the advertised capabilities that everyone computes the sticky assignment");
        }
        String consumerTimeout = get("consumer.timeout.ms");
        try {
            Integer.parseInt(consumerTimeout);
        } catch (NumberFormatException e) {
            throw bad("consumer.timeout.ms", "must be an integer");
        }
    }

    private String require(String key) {
        String value = values.get(key);
        if (value == null || value.isEmpty()) {
            throw new ConfigException("missing required property " + key);
        }
        return value;
    }

    private int positiveInt(String key, boolean strictlyPositive) {
        String value = get(key);
        try {
            int parsed = Integer.parseInt(value);
            if (parsed < 0 || (strictlyPositive && parsed == 0)) {
                throw bad(key, strictlyPositive ? "must be a positive integer" : "must not be negative");
            }
            return parsed;
        } catch (NumberFormatException e) {
            throw bad(key, "must be an integer");
        }
    }

    private ConfigException bad(String key, String why) {
        return new ConfigException("invalid value '" + values.get(key) + "' for property " + key + ": " + why);
    }

    /** The value of a 0.8 or zkgroups property, or its default. */
    public String get(String key) {
        String value = values.get(key);
        if (value != null) {
            return value;
        }
        switch (key) {
            case "zookeeper.connection.timeout.ms":
                return get("zookeeper.session.timeout.ms");
            case "rebalance.backoff.ms":
                return get("zookeeper.sync.time.ms");
            case "client.id":
                return get("group.id");
            case "dual.commit.enabled":
                return Boolean.toString(offsetsStorage() == OffsetsStorage.KAFKA);
            default:
                return LEGACY_DEFAULTS.containsKey(key) ? LEGACY_DEFAULTS.get(key) : ZKGROUPS_DEFAULTS.get(key);
        }
    }

    /** The hand-over file of restarts ({@value #RESTART_HANDOVER_FILE}), if set. */
    public java.util.Optional<java.nio.file.Path> restartHandoverFile() {
        String value = get(RESTART_HANDOVER_FILE);
        return value.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(java.nio.file.Paths.get(value));
    }

    /** How long a consumer with no ticket waits for its predecessor's ({@value #RESTART_AWAIT_MS}); zero: not at all. */
    public Duration restartAwait() {
        return Duration.ofMillis(positiveInt(RESTART_AWAIT_MS, false));
    }

    /**
     * How long after a hand-over a successor may resume the session ({@value #RESTART_GRACE_MS}): less than the session
     * timeout, which is when the server ends the session its holder let go of.
     */
    public Duration restartGrace() {
        int session = sessionTimeoutMs();
        String value = get(RESTART_GRACE_MS);
        if (value.isEmpty()) {
            return Duration.ofMillis(session * 2L / 3);
        }
        int grace = positiveInt(RESTART_GRACE_MS, true);
        if (grace >= session) {
            throw bad(RESTART_GRACE_MS, "must be less than zookeeper.session.timeout.ms (" + session + "): the server "
                    + "ends a handed-over session that long after its holder let go");
        }
        return Duration.ofMillis(grace);
    }

    public String groupId() {
        return get("group.id");
    }

    public String zookeeperConnect() {
        return get("zookeeper.connect");
    }

    public int sessionTimeoutMs() {
        return Integer.parseInt(get("zookeeper.session.timeout.ms"));
    }

    public int connectionTimeoutMs() {
        return Integer.parseInt(get("zookeeper.connection.timeout.ms"));
    }

    /** TLS, SASL, digest credentials and ACLs of the ZooKeeper client. */
    public ZkClientSecurity zooKeeperSecurity() {
        return zooKeeperSecurity;
    }

    public java.util.Optional<String> consumerIdOverride() {
        return java.util.Optional.ofNullable(values.get("consumer.id"));
    }

    public boolean autoCommit() {
        return Boolean.parseBoolean(get("auto.commit.enable"));
    }

    public Duration autoCommitInterval() {
        return Duration.ofMillis(Integer.parseInt(get("auto.commit.interval.ms")));
    }

    public OffsetsStorage offsetsStorage() {
        String value = get("offsets.storage").toLowerCase(Locale.ROOT);
        switch (value) {
            case "zookeeper":
                return OffsetsStorage.ZOOKEEPER;
            case "kafka":
                return OffsetsStorage.KAFKA;
            default:
                throw bad("offsets.storage", "must be zookeeper or kafka");
        }
    }

    /** Dual commit only means something with Kafka storage (0.8.2.2 ignores it otherwise). */
    public boolean dualCommit() {
        return offsetsStorage() == OffsetsStorage.KAFKA && Boolean.parseBoolean(get("dual.commit.enabled"));
    }

    /** {@code smallest}/{@code largest} (0.8) and {@code earliest}/{@code latest}/{@code none} (Kafka). */
    public ResetPolicy resetPolicy() {
        String value = get("auto.offset.reset").toLowerCase(Locale.ROOT);
        switch (value) {
            case "smallest":
            case "earliest":
                return ResetPolicy.EARLIEST;
            case "largest":
            case "latest":
                return ResetPolicy.LATEST;
            case "none":
                return ResetPolicy.NONE;
            default:
                throw bad("auto.offset.reset", "must be smallest, largest, earliest, latest or none");
        }
    }

    public String assignmentStrategy() {
        return get("partition.assignment.strategy");
    }

    public boolean excludeInternalTopics() {
        return Boolean.parseBoolean(get("exclude.internal.topics"));
    }

    public int maxGroupSize() {
        return Integer.parseInt(get(MAX_GROUP_SIZE));
    }

    public int streamsPerTopic() {
        try {
            return Integer.parseInt(get(STREAMS_PER_TOPIC));
        } catch (NumberFormatException e) {
            throw bad(STREAMS_PER_TOPIC, "must be an integer");
        }
    }

    public Duration rebalanceDebounce() {
        return Duration.ofMillis(Integer.parseInt(get(REBALANCE_DEBOUNCE_MS)));
    }

    public Duration rebalanceBackoff() {
        return Duration.ofMillis(Integer.parseInt(get("rebalance.backoff.ms")));
    }

    /** True if set, and always for the sticky strategy, which is chosen through the advertised capabilities. */
    public boolean advertiseCapabilities() {
        return Boolean.parseBoolean(get(ADVERTISE_CAPABILITIES)) || assignmentStrategy().equals("sticky");
    }

    /** The server generation the setting declares; empty with {@code auto} (learned from the servers). */
    public Optional<ServerGeneration> zooKeeperServerGeneration() {
        try {
            return Optional.ofNullable(ServerGeneration.ofSetting(get(ZOOKEEPER_SERVER_VERSION)));
        } catch (IllegalArgumentException e) {
            throw bad(ZOOKEEPER_SERVER_VERSION, "must be auto or a ZooKeeper version 3.4 or later: " + e.getMessage());
        }
    }

    public Duration metadataRefresh() {
        return Duration.ofMillis(Integer.parseInt(get(METADATA_REFRESH_MS)));
    }

    public Duration offsetsRefresh() {
        return Duration.ofMillis(Integer.parseInt(get(OFFSETS_REFRESH_MS)));
    }

    public Duration revokeTimeout() {
        return Duration.ofMillis(Integer.parseInt(get(REVOKE_TIMEOUT_MS)));
    }

    /** Whether the consumer registers the MBeans of the 0.8.2.2 consumer next to Kafka-style ones. */
    public boolean legacyMBeans() {
        return Boolean.parseBoolean(get(LEGACY_MBEANS));
    }

    /** The client id of the consumer's metrics and of its fetcher ({@code client.id}, by default the group id). */
    public String clientId() {
        return get("client.id");
    }

    /** Problems with keys found while parsing (already logged). */
    public List<String> warnings() {
        return ImmutableList.copyOf(warnings);
    }

    /**
     * Properties for the inner {@code KafkaConsumer} (assign() mode, no Kafka group): the kafka-clients
     * properties given, plus the 0.8 fetch settings translated, without a group id and without auto-commit.
     */
    public Map<String, Object> fetchClientProperties(String bootstrapServers) {
        Map<String, Object> props = new HashMap<>();
        LEGACY_TO_CLIENT.forEach((legacy, client) -> {
            if (values.containsKey(legacy)) {
                props.put(client, values.get(legacy));
            }
        });
        props.putAll(clientProperties);
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, get("client.id"));
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        // Kafka's values are the policies' names: earliest, latest, none
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, resetPolicy().name().toLowerCase(Locale.ROOT));
        return props;
    }

    /** Properties for an Admin client (Kafka offsets, metadata): the connection and security settings. */
    public Map<String, Object> adminProperties(String bootstrapServers) {
        Map<String, Object> props = new HashMap<>();
        clientProperties.forEach((k, v) -> {
            if (k.startsWith("ssl.") || k.startsWith("sasl.") || k.startsWith("security.")) {
                props.put(k, v);
            }
        });
        props.put("bootstrap.servers", bootstrapServers);
        props.put("client.id", get("client.id") + "-admin");
        return props;
    }

    /** The configured {@code bootstrap.servers}, if any (it may come from {@code /brokers/ids} instead). */
    public java.util.Optional<String> bootstrapServers() {
        Object value = clientProperties.get(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG);
        return value == null || value.toString().trim().isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(value.toString());
    }

    private static Map<String, String> legacyDefaults() {
        Map<String, String> d = new HashMap<>();
        d.put("group.id", null);
        d.put("consumer.id", null);
        d.put("zookeeper.connect", null);
        d.put("zookeeper.session.timeout.ms", "6000");
        d.put("zookeeper.connection.timeout.ms", null);
        d.put("zookeeper.sync.time.ms", "2000");
        d.put("socket.timeout.ms", "30000");
        d.put("socket.receive.buffer.bytes", "65536");
        d.put("fetch.message.max.bytes", "1048576");
        d.put("num.consumer.fetchers", "1");
        d.put("auto.commit.enable", "true");
        d.put("auto.commit.interval.ms", "60000");
        d.put("queued.max.message.chunks", "2");
        d.put("rebalance.max.retries", "4");
        d.put("rebalance.backoff.ms", null);
        d.put("fetch.min.bytes", "1");
        d.put("fetch.wait.max.ms", "100");
        d.put("refresh.leader.backoff.ms", "200");
        d.put("offsets.channel.backoff.ms", "1000");
        d.put("offsets.channel.socket.timeout.ms", "10000");
        d.put("offsets.commit.max.retries", "5");
        d.put("offsets.storage", "zookeeper");
        d.put("dual.commit.enabled", null);
        d.put("auto.offset.reset", "largest");
        d.put("consumer.timeout.ms", "-1");
        d.put("client.id", null);
        d.put("exclude.internal.topics", "true");
        d.put("partition.assignment.strategy", "range");
        return java.util.Collections.unmodifiableMap(d);
    }
}
