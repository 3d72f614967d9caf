package io.zkgroups.rebalancer.consumer;

import io.zkgroups.rebalancer.assign.AssignorType;
import io.zkgroups.rebalancer.assign.Assignors;
import io.zkgroups.rebalancer.config.ConfigKey;
import io.zkgroups.rebalancer.config.ConsumerKeys;
import io.zkgroups.rebalancer.config.PropertySorter;
import io.zkgroups.rebalancer.group.GroupMemberConfig;
import io.zkgroups.rebalancer.offsets.OffsetStoreType;
import io.zkgroups.rebalancer.offsets.OffsetStores;
import io.zkgroups.registry.Immutable;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.Subscription;
import io.zkgroups.registry.server.ServerGeneration;
import io.zkgroups.registry.security.ZkClientSecurity;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;

/**
 * The configuration of a {@link ZkGroupConsumer}: every 0.8.2.2 consumer property
 * (docs/compatibility.md#consumer-configuration), the
 * kafka-clients properties of the fetch side, ZooKeeper security under Kafka 3.x's names
 * ({@code zookeeper.ssl.*}, {@code zookeeper.clientCnxnSocket}, {@code zookeeper.set.acl}, {@code zookeeper.sasl.*},
 * {@code zookeeper.client.config}; see {@link ZkClientSecurity}), and a few {@code zkgroups.*} extras. The 0.8.2.2 and
 * zkgroups keys, their defaults and checks are the rows of {@link ConsumerKeys}, parsed once by Kafka's
 * {@link AbstractConfig}; Kafka's name of the same setting ({@code enable.auto.commit} for {@code auto.commit.enable},
 * {@code max.partition.fetch.bytes} for {@code fetch.message.max.bytes}, ...) counts as that key. Parsing is strict
 * about values (a bad one fails with Kafka's {@link ConfigException} naming key, value and why) and lenient about keys
 * (an unknown key only warns, as in 0.8.2.2). Immutable, and so safe on any thread.
 */
public final class ZkConsumerConfig {

    private static final Logger LOG = LoggerFactory.getLogger(ZkConsumerConfig.class);

    /** zkgroups' own properties ({@link ConsumerKeys} holds every key with its default and check). */
    public static final String MAX_GROUP_SIZE = ConsumerKeys.MAX_GROUP_SIZE;
    /** kafka-clients' key (3.7+), spelled out: older kafka-clients have no constant for it. */
    private static final String ENABLE_METRICS_PUSH = "enable.metrics.push";
    public static final String STREAMS_PER_TOPIC = ConsumerKeys.STREAMS_PER_TOPIC;
    public static final String REBALANCE_DEBOUNCE_MS = ConsumerKeys.REBALANCE_DEBOUNCE_MS;
    public static final String ADVERTISE_CAPABILITIES = ConsumerKeys.ADVERTISE_CAPABILITIES;
    public static final String METADATA_REFRESH_MS = ConsumerKeys.METADATA_REFRESH_MS;
    public static final String OFFSETS_REFRESH_MS = ConsumerKeys.OFFSETS_REFRESH_MS;
    public static final String REVOKE_TIMEOUT_MS = ConsumerKeys.REVOKE_TIMEOUT_MS;
    public static final String REBALANCE_KAFKA_TIMEOUT_MS = ConsumerKeys.REBALANCE_KAFKA_TIMEOUT_MS;
    /** The most records of a partition handed out past its last confirmed commit (docs/fence.md); 0: no cap. */
    public static final String MAX_UNCOMMITTED_RECORDS = ConsumerKeys.MAX_UNCOMMITTED_RECORDS;
    /** Whether to register the 0.8.2.2 consumer's MBeans too (docs/monitoring.md). */
    public static final String LEGACY_MBEANS = ConsumerKeys.LEGACY_MBEANS;
    public static final String CONNECT_EARLY = ConsumerKeys.CONNECT_EARLY;
    /** Where close() hands the ZooKeeper session to the next process of this consumer (docs/restarts.md); empty: it leaves. */
    public static final String RESTART_HANDOVER_FILE = ConsumerKeys.RESTART_HANDOVER_FILE;
    /** How long after a hand-over a successor may still resume the session; unset: two thirds of the session timeout. */
    public static final String RESTART_GRACE_MS = ConsumerKeys.RESTART_GRACE_MS;
    /**
     * How long a consumer started with no ticket in its hand-over file waits for one (a successor started before its
     * predecessor stops); 0: it does not wait.
     */
    public static final String RESTART_AWAIT_MS = ConsumerKeys.RESTART_AWAIT_MS;
    /** The oldest ZooKeeper server version of the ensemble (3.4, 3.5, 3.6, ...), or auto: learned at start. */
    public static final String ZOOKEEPER_SERVER_VERSION = ConsumerKeys.ZOOKEEPER_SERVER_VERSION;

    /** The built-in {@code offsets.storage} types under their short names; every type is in {@link OffsetStores}. */
    public static final class OffsetsStorage {
        public static final OffsetStoreType ZOOKEEPER = OffsetStores.ZOOKEEPER;
        public static final OffsetStoreType KAFKA = OffsetStores.KAFKA;

        private OffsetsStorage() {
        }
    }

    /** What {@code auto.offset.reset} says: 0.8's smallest and largest are Kafka's earliest and latest. */
    public enum ResetPolicy {
        EARLIEST, LATEST, NONE;

        /** The policy of a value the key's check accepted. */
        static ResetPolicy of(String value) {
            switch (value.toLowerCase(Locale.ROOT)) {
                case "smallest":
                    return EARLIEST;
                case "largest":
                    return LATEST;
                default:
                    return valueOf(value.toUpperCase(Locale.ROOT));
            }
        }
    }

    /** Every key of {@link ConsumerKeys}, typed, with the derived defaults filled in; null for an unset optional key. */
    private final Map<String, Object> values;
    /** The consumer keys the properties set (under either name). */
    private final Set<String> given;
    private final Map<String, Object> clientProperties;
    private final ZkClientSecurity zooKeeperSecurity;
    private final List<String> warnings;
    private final OffsetStoreType offsetsStorage;
    private final ResetPolicy resetPolicy;
    private final Optional<ServerGeneration> serverGeneration;

    private ZkConsumerConfig(PropertySorter sorted, ZkClientSecurity zooKeeperSecurity) {
        AbstractConfig parsed = new AbstractConfig(ConsumerKeys.definition(), sorted.consumerKeys(), false);
        Map<String, Object> typed = new HashMap<>(parsed.values());
        for (ConfigKey key : ConsumerKeys.all()) {
            if (typed.get(key.name()) == null && key.hasDerivedDefault()) {
                typed.put(key.name(), key.defaultValue(typed::get));
            }
        }
        this.values = Collections.unmodifiableMap(typed);
        this.given = Immutable.set(sorted.consumerKeys().keySet());
        this.clientProperties = sorted.clientKeys();
        this.zooKeeperSecurity = zooKeeperSecurity;
        this.warnings = Immutable.list(sorted.warnings());
        this.offsetsStorage = OffsetStores.find(string(ConsumerKeys.OFFSETS_STORAGE));
        this.resetPolicy = ResetPolicy.of(string(ConsumerKeys.AUTO_OFFSET_RESET));
        this.serverGeneration = Optional.ofNullable(ServerGeneration.ofSetting(string(ZOOKEEPER_SERVER_VERSION)));
        checkAcrossKeys();
    }

    public static ZkConsumerConfig from(Properties properties) {
        Map<String, Object> map = new HashMap<>();
        properties.stringPropertyNames().forEach(k -> map.put(k, properties.getProperty(k)));
        return from(map);
    }

    /**
     * @throws ConfigException naming the key, the value and why of the first bad property, or both keys of a setting
     *                         given different values under its 0.8 and its Kafka name
     */
    public static ZkConsumerConfig from(Map<String, ?> properties) {
        PropertySorter sorted = PropertySorter.sort(properties, ZkClientSecurity::isSecurityKey);
        ZkClientSecurity zooKeeperSecurity;
        try {
            zooKeeperSecurity = ZkClientSecurity.parse(sorted.securityKeys(), "the consumer properties");
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
        ZkConsumerConfig config = new ZkConsumerConfig(sorted, zooKeeperSecurity);
        config.warnings.forEach(w -> LOG.warn("{}", w));
        return config;
    }

    /** The checks that span keys; each key's own check ran when it was parsed. */
    private void checkAcrossKeys() {
        int grace = intValue(RESTART_GRACE_MS);
        if (grace >= sessionTimeoutMs()) {
            throw new ConfigException(RESTART_GRACE_MS, grace, "must be less than "
                    + ConsumerKeys.SESSION_TIMEOUT_MS + " (" + sessionTimeoutMs() + "): the server ends a handed-over "
                    + "session that long after its holder let go");
        }
        AssignorType strategy = Assignors.find(assignmentStrategy());
        if (strategy.requiresCapabilities() && given.contains(ADVERTISE_CAPABILITIES) && !bool(ADVERTISE_CAPABILITIES)) {
            throw new ConfigException(ADVERTISE_CAPABILITIES, false, "cannot be false with "
                    + ConsumerKeys.ASSIGNMENT_STRATEGY + "=" + strategy.name() + ": members learn from the advertised "
                    + "capabilities that everyone computes the " + strategy.name() + " assignment");
        }
    }

    private String string(String key) {
        return (String) values.get(key);
    }

    private int intValue(String key) {
        return (Integer) values.get(key);
    }

    private boolean bool(String key) {
        return (Boolean) values.get(key);
    }

    private Duration millis(String key) {
        return Duration.ofMillis(intValue(key));
    }

    /** The value of a 0.8 or zkgroups property, or its default, as text; null if unset. */
    public String get(String key) {
        Object value = values.get(key);
        return value == null ? null : value.toString();
    }

    /** The hand-over file of restarts ({@value #RESTART_HANDOVER_FILE}), if set. */
    public Optional<Path> restartHandoverFile() {
        String value = string(RESTART_HANDOVER_FILE);
        return value.isEmpty() ? Optional.empty() : Optional.of(Paths.get(value));
    }

    /** How long a consumer with no ticket waits for its predecessor's ({@value #RESTART_AWAIT_MS}); zero: not at all. */
    public Duration restartAwait() {
        return millis(RESTART_AWAIT_MS);
    }

    /**
     * How long after a hand-over a successor may resume the session ({@value #RESTART_GRACE_MS}): less than the session
     * timeout, which is when the server ends the session its holder let go of.
     */
    public Duration restartGrace() {
        return millis(RESTART_GRACE_MS);
    }

    public String groupId() {
        return string(ConsumerKeys.GROUP_ID);
    }

    public String zookeeperConnect() {
        return string(ConsumerKeys.ZOOKEEPER_CONNECT);
    }

    public int sessionTimeoutMs() {
        return intValue(ConsumerKeys.SESSION_TIMEOUT_MS);
    }

    public int connectionTimeoutMs() {
        return intValue(ConsumerKeys.CONNECTION_TIMEOUT_MS);
    }

    /** TLS, SASL, digest credentials and ACLs of the ZooKeeper client. */
    public ZkClientSecurity zooKeeperSecurity() {
        return zooKeeperSecurity;
    }

    public Optional<String> consumerIdOverride() {
        return Optional.ofNullable(string(ConsumerKeys.CONSUMER_ID));
    }

    /** {@code auto.commit.enable}, or Kafka's {@code enable.auto.commit}. */
    public boolean autoCommit() {
        return bool(ConsumerKeys.AUTO_COMMIT);
    }

    public Duration autoCommitInterval() {
        return millis(ConsumerKeys.AUTO_COMMIT_INTERVAL_MS);
    }

    /** The {@code offsets.storage} type, one of {@link OffsetStores}. */
    public OffsetStoreType offsetsStorage() {
        return offsetsStorage;
    }

    /** Dual commit only means something with a store that supports it, Kafka's (0.8.2.2 ignores it otherwise). */
    public boolean dualCommit() {
        return offsetsStorage.dualCommit() && bool(ConsumerKeys.DUAL_COMMIT);
    }

    /** {@code smallest}/{@code largest} (0.8) and {@code earliest}/{@code latest}/{@code none} (Kafka). */
    public ResetPolicy resetPolicy() {
        return resetPolicy;
    }

    public String assignmentStrategy() {
        return string(ConsumerKeys.ASSIGNMENT_STRATEGY);
    }

    public boolean excludeInternalTopics() {
        return bool(ConsumerKeys.EXCLUDE_INTERNAL_TOPICS);
    }

    public int maxGroupSize() {
        return intValue(MAX_GROUP_SIZE);
    }

    public int streamsPerTopic() {
        return intValue(STREAMS_PER_TOPIC);
    }

    public Duration rebalanceDebounce() {
        return millis(REBALANCE_DEBOUNCE_MS);
    }

    public Duration rebalanceBackoff() {
        return millis(ConsumerKeys.REBALANCE_BACKOFF_MS);
    }

    /**
     * Kafka's group protocol ({@code group.protocol}) a member joins Kafka's group with after the group moved to
     * Kafka's coordinator (docs/cutover.md): {@code classic} or {@code consumer}.
     */
    public String cutoverGroupProtocol() {
        return string(ConsumerKeys.CUTOVER_GROUP_PROTOCOL).toLowerCase(Locale.ROOT);
    }

    /** Whether the registration carries the capability key ({@link GroupMemberConfig#advertises}). */
    public boolean advertiseCapabilities() {
        return GroupMemberConfig.advertises(assignmentStrategy(), bool(ADVERTISE_CAPABILITIES));
    }

    /**
     * How the {@link io.zkgroups.rebalancer.group.ZkGroupMember} of this consumer behaves: the group keys of this config
     * on top of the member's defaults.
     */
    public GroupMemberConfig memberConfig(ConsumerId consumerId, Subscription subscription) {
        return GroupMemberConfig.builder(groupId(), consumerId, subscription)
                .assignmentStrategy(assignmentStrategy())
                .excludeInternalTopics(excludeInternalTopics())
                .maxGroupSize(maxGroupSize())
                .debounce(rebalanceDebounce())
                .maxBackoff(rebalanceBackoff())
                .advertiseCapabilities(bool(ADVERTISE_CAPABILITIES))
                .build();
    }

    /** The server generation the setting declares; empty with {@code auto} (learned from the servers). */
    public Optional<ServerGeneration> zooKeeperServerGeneration() {
        return serverGeneration;
    }

    public Duration metadataRefresh() {
        return millis(METADATA_REFRESH_MS);
    }

    public Duration offsetsRefresh() {
        return millis(OFFSETS_REFRESH_MS);
    }

    public Duration revokeTimeout() {
        return millis(REVOKE_TIMEOUT_MS);
    }

    /** The longest a release of partitions waits on Kafka (their commit there): see docs/kafka-outage.md. */
    public Duration rebalanceKafkaTimeout() {
        return millis(REBALANCE_KAFKA_TIMEOUT_MS);
    }

    /** The most records of a partition handed out past its last confirmed commit; 0: no cap. */
    public int maxUncommittedRecords() {
        return intValue(MAX_UNCOMMITTED_RECORDS);
    }

    /** Whether the poll thread connects the fetcher to Kafka while the member joins (see {@code PartitionFetcher}). */
    public boolean connectEarly() {
        return bool(CONNECT_EARLY);
    }

    /**
     * Whether the consumer writes back ZooKeeper offsets of its partitions that others write lower: the key
     * {@code zkgroups.offsets.rewind.guard}, when offsets are written to ZooKeeper at all.
     */
    public boolean rewindGuard() {
        return bool(ConsumerKeys.REWIND_GUARD) && (!offsetsStorage().needsKafka() || dualCommit());
    }

    /** Whether the consumer registers the MBeans of the 0.8.2.2 consumer next to Kafka-style ones. */
    public boolean legacyMBeans() {
        return bool(LEGACY_MBEANS);
    }

    /** The client id of the consumer's metrics and of its fetcher ({@code client.id}, by default the group id). */
    public String clientId() {
        return string(ConsumerKeys.CLIENT_ID);
    }

    /** Problems with keys found while parsing (already logged). */
    public List<String> warnings() {
        return warnings;
    }

    /**
     * Properties for the inner {@code KafkaConsumer} (assign() mode, no Kafka group): the kafka-clients
     * properties given, plus the fetch settings set under their 0.8 or Kafka names, without a group id and without
     * auto-commit.
     */
    public Map<String, Object> fetchClientProperties(String bootstrapServers) {
        Map<String, Object> props = new HashMap<>(clientProperties);
        for (ConfigKey key : ConsumerKeys.all()) {
            if (key.isFetchSide() && given.contains(key.name())) {
                props.put(key.kafkaName().get(), values.get(key.name()));
            }
        }
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, clientId());
        withoutMetricsPushUnlessAsked(props);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        // Kafka's values are the policies' names: earliest, latest, none
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, resetPolicy.name().toLowerCase(Locale.ROOT));
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
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId() + "-admin");
        if (clientProperties.containsKey(ENABLE_METRICS_PUSH)) {
            props.put(ENABLE_METRICS_PUSH, clientProperties.get(ENABLE_METRICS_PUSH));
        }
        withoutMetricsPushUnlessAsked(props);
        return props;
    }

    /**
     * The inner clients push no metrics to the brokers (KIP-714, on by default since kafka-clients 3.7) unless
     * {@code enable.metrics.push} is set: a 0.8 consumer never did, and a fresh client that does loads the telemetry
     * code and asks each broker for a subscription before its first record (measured: a fifth of a second and a
     * tenth of the start-up CPU; docs/benchmarks.md). Left out for a kafka-clients that does not know the key.
     */
    private static void withoutMetricsPushUnlessAsked(Map<String, Object> props) {
        if (ConsumerConfig.configNames().contains(ENABLE_METRICS_PUSH)) {
            props.putIfAbsent(ENABLE_METRICS_PUSH, "false");
        }
    }

    /** The configured {@code bootstrap.servers}, if any (it may come from {@code /brokers/ids} instead). */
    public Optional<String> bootstrapServers() {
        Object value = clientProperties.get(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG);
        return value == null || value.toString().trim().isEmpty() ? Optional.empty() : Optional.of(value.toString());
    }
}
