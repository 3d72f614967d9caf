package io.zkgroups.rebalancer.consumer;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import io.zkgroups.rebalancer.assign.AssignorType;
import io.zkgroups.rebalancer.assign.Assignors;
import io.zkgroups.rebalancer.config.ConfigKey;
import io.zkgroups.rebalancer.config.ConsumerKeys;
import io.zkgroups.rebalancer.group.GroupMemberConfig;
import io.zkgroups.rebalancer.offsets.OffsetStoreType;
import io.zkgroups.rebalancer.offsets.OffsetStores;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.Subscription;
import io.zkgroups.registry.server.ServerGeneration;
import io.zkgroups.registry.security.ZkClientSecurity;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
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
 * {@code zookeeper.client.config}; see {@link ZkClientSecurity}), and a few {@code zkgroups.*} extras. The 0.8.2.2 and
 * zkgroups keys, their defaults and checks are the rows of {@link ConsumerKeys}. Parsing is strict about values (a bad
 * one fails naming key and value) and lenient about keys (an unknown key only warns, as in 0.8.2.2).
 */
public final class ZkConsumerConfig {

    private static final Logger LOG = LoggerFactory.getLogger(ZkConsumerConfig.class);

    /** zkgroups' own properties ({@link ConsumerKeys} holds every key with its default and check). */
    public static final String MAX_GROUP_SIZE = ConsumerKeys.MAX_GROUP_SIZE;
    public static final String STREAMS_PER_TOPIC = ConsumerKeys.STREAMS_PER_TOPIC;
    public static final String REBALANCE_DEBOUNCE_MS = ConsumerKeys.REBALANCE_DEBOUNCE_MS;
    public static final String ADVERTISE_CAPABILITIES = ConsumerKeys.ADVERTISE_CAPABILITIES;
    public static final String METADATA_REFRESH_MS = ConsumerKeys.METADATA_REFRESH_MS;
    public static final String OFFSETS_REFRESH_MS = ConsumerKeys.OFFSETS_REFRESH_MS;
    public static final String REVOKE_TIMEOUT_MS = ConsumerKeys.REVOKE_TIMEOUT_MS;
    public static final String REBALANCE_KAFKA_TIMEOUT_MS = ConsumerKeys.REBALANCE_KAFKA_TIMEOUT_MS;
    /** Whether to register the 0.8.2.2 consumer's MBeans too (docs/monitoring.md). */
    public static final String LEGACY_MBEANS = ConsumerKeys.LEGACY_MBEANS;
    public static final String CONNECT_EARLY = ConsumerKeys.CONNECT_EARLY;
    /** Where close() hands the ZooKeeper session to the next process of this consumer (docs/restarts.md); empty: it leaves. */
    public static final String RESTART_HANDOVER_FILE = ConsumerKeys.RESTART_HANDOVER_FILE;
    /** How long after a hand-over a successor may still resume the session; empty: two thirds of the session timeout. */
    public static final String RESTART_GRACE_MS = ConsumerKeys.RESTART_GRACE_MS;
    /**
     * How long a consumer started with no ticket in its hand-over file waits for one (a successor started before its
     * predecessor stops); 0: it does not wait.
     */
    public static final String RESTART_AWAIT_MS = ConsumerKeys.RESTART_AWAIT_MS;
    /** The oldest ZooKeeper server version of the ensemble (3.4, 3.5, 3.6, ...), or auto: learned at start. */
    public static final String ZOOKEEPER_SERVER_VERSION = ConsumerKeys.ZOOKEEPER_SERVER_VERSION;

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

    /** The built-in {@code offsets.storage} types under their short names; every type is in {@link OffsetStores}. */
    public static final class OffsetsStorage {
        public static final OffsetStoreType ZOOKEEPER = OffsetStores.ZOOKEEPER;
        public static final OffsetStoreType KAFKA = OffsetStores.KAFKA;

        private OffsetsStorage() {
        }
    }

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
            if (ConsumerKeys.find(key) != null) {
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

    /** Every key by its row in {@link ConsumerKeys}, then the checks that span keys. */
    private void validate() {
        for (ConfigKey key : ConsumerKeys.all()) {
            if (key.isRequired()) {
                require(key.name());
            }
        }
        for (ConfigKey key : ConsumerKeys.all()) {
            String value = get(key.name());
            String problem = value == null ? null : key.validator().problem(key.name(), value);
            if (problem != null) {
                throw bad(key.name(), problem);
            }
        }
        restartGrace();
        AssignorType strategy = Assignors.find(assignmentStrategy());
        if (strategy.requiresCapabilities() && "false".equalsIgnoreCase(values.get(ADVERTISE_CAPABILITIES))) {
            throw bad(ADVERTISE_CAPABILITIES, "cannot be false with partition.assignment.strategy=" + strategy.name()
                    + ": members learn from the advertised capabilities that everyone computes the " + strategy.name()
                    + " assignment");
        }
    }

    private String require(String key) {
        String value = values.get(key);
        if (value == null || value.isEmpty()) {
            throw new ConfigException("missing required property " + key);
        }
        return value;
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
        ConfigKey row = ConsumerKeys.find(key);
        return row == null ? null : row.defaultValue(this::get);
    }

    /** The hand-over file of restarts ({@value #RESTART_HANDOVER_FILE}), if set. */
    public java.util.Optional<java.nio.file.Path> restartHandoverFile() {
        String value = get(RESTART_HANDOVER_FILE);
        return value.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(java.nio.file.Paths.get(value));
    }

    /** How long a consumer with no ticket waits for its predecessor's ({@value #RESTART_AWAIT_MS}); zero: not at all. */
    public Duration restartAwait() {
        return Duration.ofMillis(Integer.parseInt(get(RESTART_AWAIT_MS)));
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
        int grace = Integer.parseInt(value);
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

    /** The {@code offsets.storage} type, one of {@link OffsetStores}. */
    public OffsetStoreType offsetsStorage() {
        OffsetStoreType type = OffsetStores.find(get("offsets.storage"));
        if (type == null) {
            throw bad("offsets.storage", "must be " + OffsetStores.namesJoined());
        }
        return type;
    }

    /** Dual commit only means something with a store that supports it, Kafka's (0.8.2.2 ignores it otherwise). */
    public boolean dualCommit() {
        return offsetsStorage().dualCommit() && Boolean.parseBoolean(get("dual.commit.enabled"));
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
        return Integer.parseInt(get(STREAMS_PER_TOPIC));
    }

    public Duration rebalanceDebounce() {
        return Duration.ofMillis(Integer.parseInt(get(REBALANCE_DEBOUNCE_MS)));
    }

    public Duration rebalanceBackoff() {
        return Duration.ofMillis(Integer.parseInt(get("rebalance.backoff.ms")));
    }

    /** True if set, and always for strategies chosen through the advertised capabilities (sticky). */
    public boolean advertiseCapabilities() {
        AssignorType strategy = Assignors.find(assignmentStrategy());
        return Boolean.parseBoolean(get(ADVERTISE_CAPABILITIES)) || (strategy != null && strategy.requiresCapabilities());
    }

    /**
     * How the {@link io.zkgroups.rebalancer.group.ZkGroupMember} of this consumer behaves: the group keys of this config
     * on top of the member's defaults; retries start at min(50 ms, {@code rebalance.backoff.ms}).
     */
    public GroupMemberConfig memberConfig(ConsumerId consumerId, Subscription subscription) {
        Duration backoff = rebalanceBackoff();
        return GroupMemberConfig.builder(groupId(), consumerId, subscription)
                .assignmentStrategy(assignmentStrategy())
                .excludeInternalTopics(excludeInternalTopics())
                .maxGroupSize(maxGroupSize())
                .debounce(rebalanceDebounce())
                .backoff(Duration.ofMillis(Math.min(50, backoff.toMillis())), backoff)
                .advertiseCapabilities(advertiseCapabilities())
                .build();
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

    /** The longest a release of partitions waits on Kafka (their commit there): see docs/kafka-outage.md. */
    public Duration rebalanceKafkaTimeout() {
        return Duration.ofMillis(Integer.parseInt(get(REBALANCE_KAFKA_TIMEOUT_MS)));
    }

    /** Whether the poll thread connects the fetcher to Kafka while the member joins (see {@code PartitionFetcher}). */
    public boolean connectEarly() {
        return Boolean.parseBoolean(get(CONNECT_EARLY));
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
}
