package io.zkgroups.rebalancer.consumer;

import io.zkgroups.rebalancer.cutover.CoordinationWatch;
import io.zkgroups.rebalancer.cutover.HandOffOffsets;
import io.zkgroups.rebalancer.cutover.KafkaGroupMode;
import io.zkgroups.registry.Time;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.Coordinator;
import io.zkgroups.registry.model.ThreadId;
import org.apache.curator.framework.CuratorFramework;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.LogContext;
import org.slf4j.Logger;

import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Which coordinator a {@link ZkGroupConsumer} follows, and the crossing between them (docs/cutover.md). It watches
 * the group's decision ({@link CoordinationWatch}); when it says {@code kafka} while the consumer is a
 * ZooKeeper-coordinated member, {@link #onKafka()} crosses on the polling thread: commits go to ZooKeeper only
 * ({@link HandOffOffsets}), the member leaves (the application's {@code onPartitionsRevoked}, the commit, the owner
 * znodes and the registration go), and a {@link KafkaGroupMode} joins Kafka's group with the same group id and
 * listener. A consumer that subscribes while the decision says {@code kafka} joins Kafka's group directly.
 * <p>
 * <b>Threading.</b> The thread inside the consumer, except {@link #wakeup()} and {@link #active()} (a volatile).
 */
final class CoordinationSwitch<K, V> {

    private final Logger log;
    private final ZkConsumerConfig config;
    private final ConsumerId consumerId;
    private final CuratorFramework curator;
    private final HandOffOffsets offsets;
    private final GroupCoordinator coordinator;
    private final SubscriptionState state;
    private final Function<Map<String, Object>, KafkaConsumer<K, V>> newGroupClient;
    private final String bootstrap;
    private final Duration apiTimeout;
    private final Time time;
    private final CoordinationWatch watch;
    private volatile KafkaGroupMode<K, V> active;
    /** What the ZooKeeper-coordinated member had subscribed to: the subscription it registers again when back. */
    private ZkSubscription zkSubscription;

    CoordinationSwitch(ZkConsumerConfig config, ConsumerId consumerId, CuratorFramework curator, HandOffOffsets offsets,
                       GroupCoordinator coordinator, SubscriptionState state,
                       Function<Map<String, Object>, KafkaConsumer<K, V>> newGroupClient, String bootstrap,
                       Duration apiTimeout, Time time) {
        this.config = config;
        this.consumerId = consumerId;
        this.curator = curator;
        this.offsets = offsets;
        this.coordinator = coordinator;
        this.state = state;
        this.newGroupClient = newGroupClient;
        this.bootstrap = bootstrap;
        this.apiTimeout = apiTimeout;
        this.time = time;
        this.log = new LogContext("[" + consumerId + "] ").logger(CoordinationSwitch.class);
        // as soon as the decision says kafka, commits go to ZooKeeper only: a member that joined Kafka's group already
        // makes Kafka refuse this member's commits (docs/cutover.md)
        this.watch = new CoordinationWatch(curator, config.groupId(), "[" + consumerId + "] ", decided -> {
            if (decided == Coordinator.KAFKA) {
                offsets.handOff();
            }
        });
    }

    /** Reads the decision and watches it. */
    void start() {
        watch.start();
    }

    /** The Kafka-coordinated member, null while on ZooKeeper. Any thread. */
    KafkaGroupMode<K, V> active() {
        return active;
    }

    /**
     * At a subscription: whether the decision says Kafka, in which case this consumer has joined Kafka's group for
     * {@code topics} (or {@code pattern}) instead of the ZooKeeper group.
     */
    boolean joinedKafka(io.zkgroups.registry.model.Subscription sub, Set<String> topics, Pattern pattern,
                        ConsumerRebalanceListener listener) {
        if (watch.coordinator() != Coordinator.KAFKA) {
            return false;
        }
        zkSubscription = new ZkSubscription(sub, topics, pattern, listener);
        leaveKafka(apiTimeout);
        join(topics, pattern, listener);
        log.info("group {} is coordinated by Kafka: joined Kafka's group", config.groupId());
        return true;
    }

    /**
     * At the top of every poll: crosses to Kafka's coordinator if the decision says so and this consumer is a
     * ZooKeeper-coordinated member. Returns whether Kafka coordinates this consumer now.
     */
    boolean onKafka() {
        Coordinator decided = watch.coordinator();
        if (active == null && decided == Coordinator.KAFKA && coordinator.subscribed()) {
            cross();
        } else if (active != null && decided == Coordinator.ZOOKEEPER) {
            crossBack();
        }
        return active != null;
    }

    /**
     * Back to the ZooKeeper group: the Kafka-coordinated member leaves Kafka's group (revoking through the fence: the
     * listener, the commit to Kafka and ZooKeeper, the owner znodes), then the member registers the subscription it
     * had, reading and writing offsets in ZooKeeper alone ({@link HandOffOffsets#backOnZooKeeper()}).
     */
    private void crossBack() {
        long started = time.nanoseconds();
        log.info("group {}: crossing back to ZooKeeper coordination", config.groupId());
        offsets.backOnZooKeeper();
        leaveKafka(apiTimeout);
        ZkSubscription sub = zkSubscription;
        if (sub != null) {
            coordinator.join(sub.registered, sub.topics, sub.pattern, sub.listener, Deadline.after(apiTimeout, time));
        }
        log.info("group {}: left Kafka's group and registered in the ZooKeeper group again in {} ms",
                config.groupId(), TimeUnit.NANOSECONDS.toMillis(time.nanoseconds() - started));
    }

    /** The subscription as the ZooKeeper member registered it. */
    private static final class ZkSubscription {
        final io.zkgroups.registry.model.Subscription registered;
        final Set<String> topics;
        final Pattern pattern;
        final ConsumerRebalanceListener listener;

        ZkSubscription(io.zkgroups.registry.model.Subscription registered, Set<String> topics, Pattern pattern,
                       ConsumerRebalanceListener listener) {
            this.registered = registered;
            this.topics = topics;
            this.pattern = pattern;
            this.listener = listener;
        }
    }

    private void cross() {
        long started = time.nanoseconds();
        Set<String> topics = state.subscription();
        Pattern pattern = state.pattern();
        ConsumerRebalanceListener listener = state.listener();
        log.info("group {}: crossing to Kafka's group coordinator (commits go to ZooKeeper until the partitions are "
                + "released)", config.groupId());
        zkSubscription = new ZkSubscription(state.registered(), topics, pattern, listener);
        offsets.handOff();
        coordinator.leave(Deadline.after(apiTimeout, time));
        join(topics, pattern, listener);
        log.info("group {}: left the ZooKeeper group and joined Kafka's in {} ms", config.groupId(),
                TimeUnit.NANOSECONDS.toMillis(time.nanoseconds() - started));
    }

    private void join(Set<String> topics, Pattern pattern, ConsumerRebalanceListener listener) {
        Map<String, Object> props = config.fetchClientProperties(bootstrap);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, config.groupId());
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, config.cutoverGroupProtocol());
        if (config.cutoverGroupProtocol().equals("consumer")) {
            // the broker assigns; these classic-protocol settings are refused with it
            props.remove(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG);
            props.remove(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG);
            props.remove(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG);
        }
        // the suffix tells zkgroups migrate coordination that this member of Kafka's group is a zkgroups one
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, config.clientId() + KafkaGroupMode.CLIENT_ID_SUFFIX);
        KafkaGroupMode<K, V> mode = new KafkaGroupMode<>(newGroupClient.apply(props), ZkRegistry.of(curator),
                config.groupId(), new ThreadId(consumerId, 0), config.autoCommit(), config.autoCommitInterval(),
                apiTimeout, maxPollInterval(props), time);
        if (pattern != null) {
            mode.subscribe(pattern, listener);
        } else {
            mode.subscribe(topics, listener);
        }
        active = mode;
    }

    /**
     * On Kafka, the stream (0.8 consumer thread) of each fenced partition: its number modulo the topic's streams in
     * the subscription, so a partition keeps its stream however Kafka's group moves the others.
     */
    Map<TopicPartition, Integer> kafkaStreams() {
        Map<TopicPartition, Integer> streams = new HashMap<>();
        KafkaGroupMode<K, V> mode = active;
        if (mode == null) {
            return streams;
        }
        for (TopicPartition tp : mode.assignment()) {
            Integer n = zkSubscription.registered.topicStreams(Collections.singleton(tp.topic()), false).get(tp.topic());
            streams.put(tp, n == null || n < 1 ? 0 : tp.partition() % n);
        }
        return streams;
    }

    /** The {@code max.poll.interval.ms} the group client is given (kafka-clients' default when none). */
    static Duration maxPollInterval(Map<String, Object> props) {
        Object value = props.get(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG);
        if (value == null) {
            return Duration.ofMillis(DEFAULT_MAX_POLL_INTERVAL_MS);
        }
        return Duration.ofMillis(value instanceof Number ? ((Number) value).longValue() : Long.parseLong(value.toString().trim()));
    }

    /** kafka-clients' default {@code max.poll.interval.ms}. */
    private static final long DEFAULT_MAX_POLL_INTERVAL_MS = 300_000;

    /** Leaves Kafka's group, if this consumer is in it (revoking through the fence). */
    void leaveKafka(Duration timeout) {
        KafkaGroupMode<K, V> current = active;
        if (current != null) {
            active = null;
            current.close(timeout);
        }
    }

    /** Any thread. */
    void wakeup() {
        KafkaGroupMode<K, V> current = active;
        if (current != null) {
            current.wakeup();
        }
    }

    void close() {
        watch.close();
    }
}
