package io.zkgroups.rebalancer.config;

import io.zkgroups.rebalancer.assign.Assignors;
import io.zkgroups.rebalancer.offsets.OffsetStoreType;
import io.zkgroups.rebalancer.offsets.OffsetStores;
import io.zkgroups.registry.Immutable;
import io.zkgroups.registry.server.ServerGeneration;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.config.ConfigDef;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;

import static io.zkgroups.rebalancer.config.ConfigSection.LEGACY;
import static io.zkgroups.rebalancer.config.ConfigSection.ZKGROUPS;
import static org.apache.kafka.common.config.ConfigDef.Type.BOOLEAN;
import static org.apache.kafka.common.config.ConfigDef.Type.INT;
import static org.apache.kafka.common.config.ConfigDef.Type.STRING;

/**
 * The one table of consumer keys, as Kafka's {@link ConfigDef}: every 0.8.2.2 consumer property and every
 * {@code zkgroups.*} one, with type, default, check, Kafka's name of the same setting and meaning.
 * {@code ZkConsumerConfig} parses and checks by it,
 * {@code GroupMemberConfig} takes its defaults from it, and tests hold {@code conf/consumer.properties} and
 * docs/compatibility.md to it. ZooKeeper security keys are {@code ZkClientSecurity}'s; kafka-clients keys are passed
 * through.
 */
public final class ConsumerKeys {

    public static final String GROUP_ID = "group.id";
    public static final String ZOOKEEPER_CONNECT = "zookeeper.connect";
    public static final String CONSUMER_ID = "consumer.id";
    public static final String CLIENT_ID = "client.id";
    public static final String SESSION_TIMEOUT_MS = "zookeeper.session.timeout.ms";
    public static final String CONNECTION_TIMEOUT_MS = "zookeeper.connection.timeout.ms";
    public static final String SYNC_TIME_MS = "zookeeper.sync.time.ms";
    public static final String ASSIGNMENT_STRATEGY = "partition.assignment.strategy";
    public static final String REBALANCE_BACKOFF_MS = "rebalance.backoff.ms";
    public static final String EXCLUDE_INTERNAL_TOPICS = "exclude.internal.topics";
    public static final String OFFSETS_STORAGE = "offsets.storage";
    public static final String DUAL_COMMIT = "dual.commit.enabled";
    public static final String AUTO_COMMIT = "auto.commit.enable";
    public static final String AUTO_COMMIT_INTERVAL_MS = "auto.commit.interval.ms";
    public static final String AUTO_OFFSET_RESET = "auto.offset.reset";
    public static final String CONSUMER_TIMEOUT_MS = "consumer.timeout.ms";
    public static final String FETCH_MESSAGE_MAX_BYTES = "fetch.message.max.bytes";
    public static final String FETCH_MIN_BYTES = "fetch.min.bytes";
    public static final String FETCH_WAIT_MAX_MS = "fetch.wait.max.ms";
    public static final String SOCKET_RECEIVE_BUFFER_BYTES = "socket.receive.buffer.bytes";
    public static final String REFRESH_LEADER_BACKOFF_MS = "refresh.leader.backoff.ms";

    public static final String STREAMS_PER_TOPIC = "zkgroups.streams.per.topic";
    public static final String MAX_GROUP_SIZE = "zkgroups.max.group.size";
    public static final String REBALANCE_DEBOUNCE_MS = "zkgroups.rebalance.debounce.ms";
    public static final String ADVERTISE_CAPABILITIES = "zkgroups.advertise.capabilities";
    public static final String CUTOVER_GROUP_PROTOCOL = "zkgroups.cutover.group.protocol";
    public static final String METADATA_REFRESH_MS = "zkgroups.metadata.refresh.ms";
    public static final String OFFSETS_REFRESH_MS = "zkgroups.offsets.refresh.ms";
    public static final String REVOKE_TIMEOUT_MS = "zkgroups.revoke.timeout.ms";
    public static final String MAX_UNCOMMITTED_RECORDS = "zkgroups.max.uncommitted.records";
    public static final String REBALANCE_KAFKA_TIMEOUT_MS = "zkgroups.rebalance.kafka.timeout.ms";
    public static final String LEGACY_MBEANS = "zkgroups.metrics.legacy.mbeans";
    public static final String REWIND_GUARD = "zkgroups.offsets.rewind.guard";
    public static final String CONNECT_EARLY = "zkgroups.fetch.connect.early";
    public static final String RESTART_HANDOVER_FILE = "zkgroups.restart.handover.file";
    public static final String RESTART_GRACE_MS = "zkgroups.restart.grace.ms";
    public static final String RESTART_AWAIT_MS = "zkgroups.restart.handover.await.ms";
    public static final String ZOOKEEPER_SERVER_VERSION = "zkgroups.zookeeper.server.version";

    /** {@value #MAX_UNCOMMITTED_RECORDS}'s default with auto-commit (docs/benchmarks.md measures its cost). */
    public static final int DEFAULT_MAX_UNCOMMITTED_RECORDS = 25_000;

    private static final String IGNORED = "Accepted for compatibility; no effect in zkgroups.";

    /** In the order of conf/consumer.properties; a derived default follows the keys it is derived from. */
    private static final List<ConfigKey> KEYS = Immutable.listOf(
            // the group
            ConfigKey.required(GROUP_ID, STRING, Validators.zkName(), LEGACY,
                    "Group id: the znodes live under /consumers/<group.id>. Letters, digits, '.', '_', '-'.")
                    .kafkaName(GROUP_ID),
            ConfigKey.required(ZOOKEEPER_CONNECT, STRING, Validators.nonEmpty(), LEGACY,
                    "ZooKeeper connect string with the Kafka cluster's chroot, if any (host1:2181,host2:2181/kafka)."),
            ConfigKey.optional(CONSUMER_ID, STRING, Validators.zkName(), LEGACY,
                    "Overrides the generated part of the consumer id (<group>_<value>)."),
            ConfigKey.sameAs(CLIENT_ID, STRING, GROUP_ID, Validators.zkName(), LEGACY, "The client id sent to Kafka.")
                    .kafkaName(CLIENT_ID),
            ConfigKey.of(SESSION_TIMEOUT_MS, INT, "6000", Validators.atLeast(1), LEGACY,
                    "ZooKeeper session timeout: a member that stops heart-beating loses its partitions after this long.")
                    .kafkaName(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG),
            ConfigKey.sameAs(CONNECTION_TIMEOUT_MS, INT, SESSION_TIMEOUT_MS, Validators.atLeast(1), LEGACY,
                    "Longest wait for the first ZooKeeper connection."),
            ConfigKey.of(SYNC_TIME_MS, INT, "2000", Validators.atLeast(1), LEGACY, "Default of rebalance.backoff.ms."),
            ConfigKey.of(ASSIGNMENT_STRATEGY, STRING, "range", Validators.check(ConsumerKeys::assignorProblem), LEGACY,
                    "The assignor every member of the group runs."),
            ConfigKey.sameAs(REBALANCE_BACKOFF_MS, INT, SYNC_TIME_MS, Validators.atLeast(1), LEGACY,
                    "Cap of the wait after a failed rebalance attempt (attempts never stop)."),
            ConfigKey.of("rebalance.max.retries", INT, "4", Validators.atLeast(0), LEGACY, IGNORED),
            ConfigKey.of(EXCLUDE_INTERNAL_TOPICS, BOOLEAN, "true", null, LEGACY,
                    "Wildcard subscriptions skip Kafka's internal topics (__consumer_offsets).")
                    .kafkaName(EXCLUDE_INTERNAL_TOPICS),
            // offsets
            ConfigKey.of(OFFSETS_STORAGE, STRING, "zookeeper", Validators.check(ConsumerKeys::storageProblem), LEGACY,
                    "Where committed offsets live."),
            ConfigKey.computed(DUAL_COMMIT, BOOLEAN, ConsumerKeys::dualCommitDefault, "true iff kafka", null, LEGACY,
                    "With offsets.storage=kafka, also write ZooKeeper; reading takes the larger of both."),
            ConfigKey.of(AUTO_COMMIT, BOOLEAN, "true", null, LEGACY, "Commit periodically, on rebalance and on close.")
                    .kafkaName(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG),
            ConfigKey.of(AUTO_COMMIT_INTERVAL_MS, INT, "60000", Validators.atLeast(1), LEGACY, "Auto-commit period.")
                    .kafkaName(AUTO_COMMIT_INTERVAL_MS),
            ConfigKey.of(AUTO_OFFSET_RESET, STRING, "largest", Validators.oneOfIgnoringCase(
                            "smallest", "largest", "earliest", "latest", "none"), LEGACY,
                    "Without a committed offset: smallest/earliest, largest/latest or none (fail).")
                    .kafkaName(AUTO_OFFSET_RESET),
            ConfigKey.of("offsets.channel.backoff.ms", INT, "1000", Validators.atLeast(1), LEGACY, IGNORED),
            ConfigKey.of("offsets.channel.socket.timeout.ms", INT, "10000", Validators.atLeast(1), LEGACY, IGNORED),
            ConfigKey.of("offsets.commit.max.retries", INT, "5", Validators.atLeast(0), LEGACY, IGNORED),
            // fetching
            fetchKey(FETCH_MESSAGE_MAX_BYTES, "1048576", 1, ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG),
            fetchKey(FETCH_MIN_BYTES, "1", 0, ConsumerConfig.FETCH_MIN_BYTES_CONFIG),
            fetchKey(FETCH_WAIT_MAX_MS, "100", 1, ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG),
            fetchKey(SOCKET_RECEIVE_BUFFER_BYTES, "65536", 1, ConsumerConfig.RECEIVE_BUFFER_CONFIG),
            fetchKey(REFRESH_LEADER_BACKOFF_MS, "200", 1, ConsumerConfig.RETRY_BACKOFF_MS_CONFIG),
            ConfigKey.of("socket.timeout.ms", INT, "30000", Validators.atLeast(1), LEGACY, IGNORED),
            ConfigKey.of("num.consumer.fetchers", INT, "1", Validators.atLeast(0), LEGACY, IGNORED),
            ConfigKey.of("queued.max.message.chunks", INT, "2", Validators.atLeast(0), LEGACY, IGNORED),
            ConfigKey.of(CONSUMER_TIMEOUT_MS, INT, "-1", null, LEGACY, IGNORED),
            // zkgroups' own
            ConfigKey.of(STREAMS_PER_TOPIC, INT, "1", Validators.atLeast(1), ZKGROUPS,
                    "Threads (streams) per topic this member registers."),
            ConfigKey.of(MAX_GROUP_SIZE, INT, "0", Validators.atLeast(0), ZKGROUPS,
                    "Largest group this member joins (0: no limit)."),
            ConfigKey.of(REBALANCE_DEBOUNCE_MS, INT, "0", Validators.atLeast(0), ZKGROUPS,
                    "How long changes are gathered before a rebalance attempt runs."),
            ConfigKey.of(ADVERTISE_CAPABILITIES, BOOLEAN, "false", null, ZKGROUPS,
                    "Write a zkgroups capability key in the member's registration."),
            ConfigKey.of(CUTOVER_GROUP_PROTOCOL, STRING, "classic", Validators.oneOfIgnoringCase("classic", "consumer"),
                    ZKGROUPS, "Kafka's group protocol the member joins with after zkgroups migrate coordination: "
                            + "classic, or consumer (KIP-848, brokers 4.0+)."),
            ConfigKey.of(METADATA_REFRESH_MS, INT, "1000", Validators.atLeast(1), ZKGROUPS,
                    "How often topic metadata is re-read from Kafka when no broker registers in ZooKeeper."),
            ConfigKey.of(OFFSETS_REFRESH_MS, INT, "3600000", Validators.atLeast(1), ZKGROUPS,
                    "How often offsets of held partitions are re-read (and idle ones re-committed to Kafka)."),
            ConfigKey.of(REVOKE_TIMEOUT_MS, INT, "300000", Validators.atLeast(1), ZKGROUPS,
                    "Longest wait for onPartitionsRevoked before the partitions are given up anyway."),
            ConfigKey.computed(MAX_UNCOMMITTED_RECORDS, INT, ConsumerKeys::maxUncommittedDefault,
                    "25000 with auto-commit, else 0", Validators.atLeast(0), ZKGROUPS,
                    "The most records of a partition handed out past its last confirmed commit (0: no cap): what a "
                            + "kill, a lost session or a revocation without commit hands out again. Auto-commit commits "
                            + "a partition past half of it at once; without auto-commit, poll() hands out nothing "
                            + "more of a partition at the cap until the application commits."),
            ConfigKey.of(REBALANCE_KAFKA_TIMEOUT_MS, INT, "2000", Validators.atLeast(1), ZKGROUPS,
                    "Longest wait on Kafka while releasing partitions (their commit to Kafka, dual commit): keep it "
                            + "well below rebalance.max.retries x rebalance.backoff.ms of 0.8.2.2 peers (8 s)."),
            ConfigKey.of(ZOOKEEPER_SERVER_VERSION, STRING, "auto", Validators.check(ConsumerKeys::serverVersionProblem),
                    ZKGROUPS, "The oldest ZooKeeper server version of the ensemble; auto: learned at start."),
            ConfigKey.of(REWIND_GUARD, BOOLEAN, "true", null, ZKGROUPS,
                    "Watch the ZooKeeper offsets of owned partitions, and write back one that another writer (a "
                            + "0.8.2.2 member whose session ended, an operator) sets lower than this member's last "
                            + "commit: counted in rewind-restored-total, an alarm in health (docs/fence.md)."),
            ConfigKey.of(LEGACY_MBEANS, BOOLEAN, "true", null, ZKGROUPS,
                    "Also register the 0.8.2.2 consumer's MBeans."),
            ConfigKey.of(CONNECT_EARLY, BOOLEAN, "true", null, ZKGROUPS,
                    "While joining, the poll thread connects the fetcher to Kafka (one metadata request)."),
            ConfigKey.of(RESTART_HANDOVER_FILE, STRING, "", null, ZKGROUPS,
                    "Where close() hands the ZooKeeper session to the next process; empty: it leaves."),
            ConfigKey.computed(RESTART_GRACE_MS, INT, ConsumerKeys::restartGraceDefault,
                    "⅔ of `" + SESSION_TIMEOUT_MS + "`", Validators.atLeast(1), ZKGROUPS,
                    "How long after a hand-over a successor may still resume the session."),
            ConfigKey.of(RESTART_AWAIT_MS, INT, "0", Validators.atLeast(0), ZKGROUPS,
                    "How long a consumer without a ticket in its hand-over file waits for one."));

    private static final Map<String, ConfigKey> BY_NAME = index(KEYS.stream(), ConfigKey::name);

    /** Kafka's names that differ from the 0.8 name of the same setting, to that row. */
    private static final Map<String, ConfigKey> BY_KAFKA_NAME = index(KEYS.stream()
            .filter(k -> k.kafkaName().isPresent() && !k.kafkaName().get().equals(k.name())), k -> k.kafkaName().get());

    /** {@code keys} by {@code name}, in their order; two keys of one name are a mistake. */
    private static Map<String, ConfigKey> index(Stream<ConfigKey> keys, Function<ConfigKey, String> name) {
        Map<String, ConfigKey> byName = new LinkedHashMap<>();
        keys.forEach(key -> {
            if (byName.put(name.apply(key), key) != null) {
                throw new IllegalArgumentException("two keys named " + name.apply(key));
            }
        });
        return Collections.unmodifiableMap(byName);
    }

    private static final ConfigDef DEFINITION = define();

    private ConsumerKeys() {
    }

    /** A 0.8 fetch setting: passed to the inner KafkaConsumer under {@code kafkaName} when set. */
    private static ConfigKey fetchKey(String name, String defaultValue, int min, String kafkaName) {
        return ConfigKey.of(name, INT, defaultValue, Validators.atLeast(min), LEGACY,
                kafkaName + " of the inner KafkaConsumer.").fetchClientKey(kafkaName);
    }

    private static ConfigDef define() {
        ConfigDef def = new ConfigDef();
        KEYS.forEach(key -> key.defineIn(def));
        return def;
    }

    /** Every key, in the order of conf/consumer.properties. */
    public static List<ConfigKey> all() {
        return KEYS;
    }

    /** The key named {@code name}, or null. */
    public static ConfigKey find(String name) {
        return BY_NAME.get(name);
    }

    /** The row whose Kafka name is {@code kafkaName} where it differs from the 0.8 name, or null. */
    public static ConfigKey findByKafkaName(String kafkaName) {
        return BY_KAFKA_NAME.get(kafkaName);
    }

    /** The keys as Kafka's {@link ConfigDef}: types, literal defaults, checks and docs. */
    public static ConfigDef definition() {
        return DEFINITION;
    }

    /** The typed default of {@code name} when nothing else is set; null if it has none. */
    public static <T> T defaultOf(String name, Class<T> type) {
        return type.cast(BY_NAME.get(name).defaultValue(other -> defaultOf(other, Object.class)));
    }

    private static String assignorProblem(String value) {
        if (Assignors.find(value) != null) {
            return null;
        }
        return "must be " + Assignors.namesJoined(" or ") + " (0.8.2.2 would silently use range; "
                + Assignors.ownAssignorsNote() + ")";
    }

    private static String storageProblem(String value) {
        return OffsetStores.find(value) != null ? null : "must be " + OffsetStores.namesJoined();
    }

    private static Object dualCommitDefault(Function<String, Object> effective) {
        Object storage = effective.apply(OFFSETS_STORAGE);
        OffsetStoreType type = storage == null ? null : OffsetStores.find((String) storage);
        return type != null && type.dualCommit();
    }

    /**
     * With auto-commit the consumer commits at the cap itself; an application that commits itself (or never: offsets
     * kept elsewhere) would wait at it, so without auto-commit the cap is the application's to set.
     */
    private static Object maxUncommittedDefault(Function<String, Object> effective) {
        Object autoCommit = effective.apply(AUTO_COMMIT);
        return autoCommit == null || (Boolean) autoCommit ? DEFAULT_MAX_UNCOMMITTED_RECORDS : 0;
    }

    /** Two thirds of the session timeout: the server ends a handed-over session a session timeout after it let go. */
    private static Object restartGraceDefault(Function<String, Object> effective) {
        Object session = effective.apply(SESSION_TIMEOUT_MS);
        return session == null ? null : (int) ((Integer) session * 2L / 3);
    }

    private static String serverVersionProblem(String value) {
        try {
            ServerGeneration.ofSetting(value);
            return null;
        } catch (IllegalArgumentException e) {
            return "must be auto or a ZooKeeper version 3.4 or later: " + e.getMessage();
        }
    }
}
