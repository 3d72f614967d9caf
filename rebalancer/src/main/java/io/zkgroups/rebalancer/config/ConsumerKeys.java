package io.zkgroups.rebalancer.config;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.zkgroups.rebalancer.assign.Assignors;
import io.zkgroups.rebalancer.offsets.OffsetStoreType;
import io.zkgroups.rebalancer.offsets.OffsetStores;
import io.zkgroups.registry.server.ServerGeneration;

import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static io.zkgroups.rebalancer.config.ConfigSection.LEGACY;
import static io.zkgroups.rebalancer.config.ConfigSection.ZKGROUPS;

/**
 * The one table of consumer keys (after Kafka's {@code ConfigDef}): every 0.8.2.2 consumer property and every
 * {@code zkgroups.*} one, with default, check and meaning. {@code ZkConsumerConfig} parses and checks by it,
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

    public static final String STREAMS_PER_TOPIC = "zkgroups.streams.per.topic";
    public static final String MAX_GROUP_SIZE = "zkgroups.max.group.size";
    public static final String REBALANCE_DEBOUNCE_MS = "zkgroups.rebalance.debounce.ms";
    public static final String ADVERTISE_CAPABILITIES = "zkgroups.advertise.capabilities";
    public static final String METADATA_REFRESH_MS = "zkgroups.metadata.refresh.ms";
    public static final String OFFSETS_REFRESH_MS = "zkgroups.offsets.refresh.ms";
    public static final String REVOKE_TIMEOUT_MS = "zkgroups.revoke.timeout.ms";
    public static final String REBALANCE_KAFKA_TIMEOUT_MS = "zkgroups.rebalance.kafka.timeout.ms";
    public static final String LEGACY_MBEANS = "zkgroups.metrics.legacy.mbeans";
    public static final String CONNECT_EARLY = "zkgroups.fetch.connect.early";
    public static final String RESTART_HANDOVER_FILE = "zkgroups.restart.handover.file";
    public static final String RESTART_GRACE_MS = "zkgroups.restart.grace.ms";
    public static final String RESTART_AWAIT_MS = "zkgroups.restart.handover.await.ms";
    public static final String ZOOKEEPER_SERVER_VERSION = "zkgroups.zookeeper.server.version";

    private static final String IGNORED = "Accepted for compatibility; no effect in zkgroups.";

    /** In the order of conf/consumer.properties. */
    private static final List<ConfigKey> KEYS = ImmutableList.of(
            // the group
            ConfigKey.required(GROUP_ID, Validator.zkName(), LEGACY,
                    "Group id: the znodes live under /consumers/<group.id>. Letters, digits, '.', '_', '-'."),
            ConfigKey.required(ZOOKEEPER_CONNECT, Validator.any(), LEGACY,
                    "ZooKeeper connect string with the Kafka cluster's chroot, if any (host1:2181,host2:2181/kafka)."),
            ConfigKey.optional(CONSUMER_ID, Validator.zkName(), LEGACY,
                    "Overrides the generated part of the consumer id (<group>_<value>)."),
            ConfigKey.sameAs(CLIENT_ID, GROUP_ID, Validator.zkName(), LEGACY, "The client id sent to Kafka."),
            ConfigKey.of(SESSION_TIMEOUT_MS, "6000", Validator.positiveInt(), LEGACY,
                    "ZooKeeper session timeout: a member that stops heart-beating loses its partitions after this long."),
            ConfigKey.sameAs(CONNECTION_TIMEOUT_MS, SESSION_TIMEOUT_MS, Validator.positiveInt(), LEGACY,
                    "Longest wait for the first ZooKeeper connection."),
            ConfigKey.of(SYNC_TIME_MS, "2000", Validator.positiveInt(), LEGACY, "Default of rebalance.backoff.ms."),
            ConfigKey.of(ASSIGNMENT_STRATEGY, "range", Validator.dynamic(ConsumerKeys::assignorProblem), LEGACY,
                    "The assignor every member of the group runs."),
            ConfigKey.sameAs(REBALANCE_BACKOFF_MS, SYNC_TIME_MS, Validator.positiveInt(), LEGACY,
                    "Cap of the wait after a failed rebalance attempt (attempts never stop)."),
            ConfigKey.of("rebalance.max.retries", "4", Validator.nonNegativeInt(), LEGACY, IGNORED),
            ConfigKey.of(EXCLUDE_INTERNAL_TOPICS, "true", Validator.bool(), LEGACY,
                    "Wildcard subscriptions skip Kafka's internal topics (__consumer_offsets)."),
            // offsets
            ConfigKey.of(OFFSETS_STORAGE, "zookeeper", Validator.dynamic(ConsumerKeys::storageProblem), LEGACY,
                    "Where committed offsets live."),
            ConfigKey.computed(DUAL_COMMIT, ConsumerKeys::dualCommitDefault, "true iff kafka", Validator.bool(), LEGACY,
                    "With offsets.storage=kafka, also write ZooKeeper; reading takes the larger of both."),
            ConfigKey.of(AUTO_COMMIT, "true", Validator.bool(), LEGACY, "Commit periodically, on rebalance and on close."),
            ConfigKey.of(AUTO_COMMIT_INTERVAL_MS, "60000", Validator.positiveInt(), LEGACY, "Auto-commit period."),
            ConfigKey.of(AUTO_OFFSET_RESET, "largest", Validator.oneOfIgnoringCase(
                    "must be smallest, largest, earliest, latest or none",
                    "smallest", "largest", "earliest", "latest", "none"), LEGACY,
                    "Without a committed offset: smallest/earliest, largest/latest or none (fail)."),
            ConfigKey.of("offsets.channel.backoff.ms", "1000", Validator.positiveInt(), LEGACY, IGNORED),
            ConfigKey.of("offsets.channel.socket.timeout.ms", "10000", Validator.positiveInt(), LEGACY, IGNORED),
            ConfigKey.of("offsets.commit.max.retries", "5", Validator.nonNegativeInt(), LEGACY, IGNORED),
            // fetching
            ConfigKey.of("fetch.message.max.bytes", "1048576", Validator.positiveInt(), LEGACY,
                    "max.partition.fetch.bytes of the inner KafkaConsumer."),
            ConfigKey.of("fetch.min.bytes", "1", Validator.nonNegativeInt(), LEGACY,
                    "fetch.min.bytes of the inner KafkaConsumer."),
            ConfigKey.of("fetch.wait.max.ms", "100", Validator.positiveInt(), LEGACY,
                    "fetch.max.wait.ms of the inner KafkaConsumer."),
            ConfigKey.of("socket.receive.buffer.bytes", "65536", Validator.positiveInt(), LEGACY,
                    "receive.buffer.bytes of the inner KafkaConsumer."),
            ConfigKey.of("refresh.leader.backoff.ms", "200", Validator.positiveInt(), LEGACY,
                    "retry.backoff.ms of the inner KafkaConsumer."),
            ConfigKey.of("socket.timeout.ms", "30000", Validator.positiveInt(), LEGACY, IGNORED),
            ConfigKey.of("num.consumer.fetchers", "1", Validator.nonNegativeInt(), LEGACY, IGNORED),
            ConfigKey.of("queued.max.message.chunks", "2", Validator.nonNegativeInt(), LEGACY, IGNORED),
            ConfigKey.of(CONSUMER_TIMEOUT_MS, "-1", Validator.anyInt(), LEGACY, IGNORED),
            // zkgroups' own
            ConfigKey.of(STREAMS_PER_TOPIC, "1", Validator.intAtLeast(1), ZKGROUPS,
                    "Threads (streams) per topic this member registers."),
            ConfigKey.of(MAX_GROUP_SIZE, "0", Validator.nonNegativeInt(), ZKGROUPS,
                    "Largest group this member joins (0: no limit)."),
            ConfigKey.of(REBALANCE_DEBOUNCE_MS, "0", Validator.nonNegativeInt(), ZKGROUPS,
                    "How long changes are gathered before a rebalance attempt runs."),
            ConfigKey.of(ADVERTISE_CAPABILITIES, "false", Validator.bool(), ZKGROUPS,
                    "Write a zkgroups capability key in the member's registration."),
            ConfigKey.of(METADATA_REFRESH_MS, "1000", Validator.positiveInt(), ZKGROUPS,
                    "How often topic metadata is re-read from Kafka when no broker registers in ZooKeeper."),
            ConfigKey.of(OFFSETS_REFRESH_MS, "3600000", Validator.positiveInt(), ZKGROUPS,
                    "How often offsets of held partitions are re-read (and idle ones re-committed to Kafka)."),
            ConfigKey.of(REVOKE_TIMEOUT_MS, "300000", Validator.positiveInt(), ZKGROUPS,
                    "Longest wait for onPartitionsRevoked before the partitions are given up anyway."),
            ConfigKey.of(REBALANCE_KAFKA_TIMEOUT_MS, "2000", Validator.positiveInt(), ZKGROUPS,
                    "Longest wait on Kafka while releasing partitions (their commit to Kafka, dual commit): keep it "
                            + "well below rebalance.max.retries x rebalance.backoff.ms of 0.8.2.2 peers (8 s)."),
            ConfigKey.of(ZOOKEEPER_SERVER_VERSION, "auto", Validator.dynamic(ConsumerKeys::serverVersionProblem),
                    ZKGROUPS, "The oldest ZooKeeper server version of the ensemble; auto: learned at start."),
            ConfigKey.of(LEGACY_MBEANS, "true", Validator.bool(), ZKGROUPS,
                    "Also register the 0.8.2.2 consumer's MBeans."),
            ConfigKey.of(CONNECT_EARLY, "true", Validator.bool(), ZKGROUPS,
                    "While joining, the poll thread connects the fetcher to Kafka (one metadata request)."),
            ConfigKey.of(RESTART_HANDOVER_FILE, "", Validator.any(), ZKGROUPS,
                    "Where close() hands the ZooKeeper session to the next process; empty: it leaves."),
            ConfigKey.computed(RESTART_GRACE_MS, effective -> "", "⅔ of `" + SESSION_TIMEOUT_MS + "`",
                    (key, value) -> value.isEmpty() ? null : Validator.positiveInt().problem(key, value), ZKGROUPS,
                    "How long after a hand-over a successor may still resume the session."),
            ConfigKey.of(RESTART_AWAIT_MS, "0", Validator.nonNegativeInt(), ZKGROUPS,
                    "How long a consumer without a ticket in its hand-over file waits for one."));

    private static final Map<String, ConfigKey> BY_NAME = KEYS.stream()
            .collect(ImmutableMap.toImmutableMap(ConfigKey::name, k -> k));

    private ConsumerKeys() {
    }

    /** Every key, in the order of conf/consumer.properties. */
    public static List<ConfigKey> all() {
        return KEYS;
    }

    /** The key named {@code name}, or null. */
    public static ConfigKey find(String name) {
        return BY_NAME.get(name);
    }

    /** The default of {@code name} when nothing else is set; null if it has none. */
    public static String defaultOf(String name) {
        return BY_NAME.get(name).defaultValue(ConsumerKeys::defaultOf);
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

    private static String dualCommitDefault(Function<String, String> effective) {
        OffsetStoreType type = OffsetStores.find(effective.apply(OFFSETS_STORAGE));
        return Boolean.toString(type != null && type.dualCommit());
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
