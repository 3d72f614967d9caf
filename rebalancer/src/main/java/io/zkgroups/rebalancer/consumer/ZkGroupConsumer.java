package io.zkgroups.rebalancer.consumer;

import io.zkgroups.rebalancer.group.MemberHealth;
import io.zkgroups.rebalancer.group.ZkGroupMember;
import io.zkgroups.rebalancer.metrics.ConsumerMetrics;
import io.zkgroups.rebalancer.metrics.legacy.LegacyMBeans;
import io.zkgroups.rebalancer.restart.HandoverObserver;
import io.zkgroups.registry.Time;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.Subscription;
import org.apache.curator.framework.CuratorFramework;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.clients.consumer.OffsetCommitCallback;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.utils.LogContext;

import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.ConcurrentModificationException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Kafka's {@link Consumer} API over 0.8-style ZooKeeper group coordination: a drop-in replacement for
 * {@code KafkaConsumer} (or for the 0.8.2.2 high-level consumer) that joins a group in
 * {@code /consumers/<group>} next to real 0.8.2.2 consumers, with byte-identical znodes and the same
 * assignment, and fetches from Kafka through an inner {@code KafkaConsumer} in {@code assign()} mode.
 * <p>
 * Like {@code KafkaConsumer} it is not thread-safe: one thread polls; {@link #wakeup()} may be called from
 * any thread. Rebalance callbacks run on the polling thread, inside {@code poll}, {@code close} or
 * {@code unsubscribe}.
 * <p>
 * This class is the facade, split as Kafka's consumer is: what it subscribed to and owns, with positions, is a
 * {@link SubscriptionState}; the group side (the member, ownership events, callbacks) a {@link GroupCoordinator}; the
 * inner fetcher a {@link PartitionFetcher}; the commit policy an {@link OffsetCommitter}, which reads the state. Hand-outs
 * and commits pass the group member's ownership fence ({@link io.zkgroups.rebalancer.group.OwnershipFence}): records
 * are handed out, and offsets committed, only for partitions this member owns now, in the ZooKeeper session that owns
 * them, while that session's lease holds (docs/fence.md).
 * <p>
 * The poll loop and wakeups are a {@link PollLoop}; what the consumer opened, and its one close path, a
 * {@link ConsumerResources} list and the {@link ConsumerLifecycle}.
 * <p>
 * Which coordinator the consumer follows is the group's decision ({@code zkgroups migrate coordination},
 * docs/cutover.md), kept by a {@link CoordinationSwitch}: when it says Kafka, the next {@code poll} leaves the
 * ZooKeeper group and joins Kafka's group with the same group id and listener, fenced by the ZooKeeper owner znodes;
 * from then on the calls act on that Kafka-coordinated member ({@link #coordinator()}).
 * <p>
 * <b>Note on threading.</b> Every method that touches the consumer's state enters through
 * {@link ConsumerLifecycle#acquireAndEnsureOpen()}: the single-thread guard ({@link SingleThreadGuard}; a second
 * thread gets {@link ConcurrentModificationException}), then {@code IllegalStateException} once closed, as with
 * KafkaConsumer. So the state, fetcher, committer and coordinator are only ever used by one thread at a time. Outside
 * the guard: {@link #wakeup()} (a flag and the event queue), {@link #metrics()}, {@link #enforceRebalance()} and
 * {@link #groupHealth()} (the volatile member, itself thread-safe), and {@link #handOutFence()}, whose checks run on
 * the application's stream threads against the fence.
 * <p>
 * Differences from {@code KafkaConsumer} (all of them, with their reasons: docs/compatibility.md, "ZkGroupConsumer
 * compared with KafkaConsumer"): {@link #assign} and {@link #groupMetadata()} throw, saying why (partitions come from
 * the ZooKeeper group; it has no generation to fence transactions with); only the owner of a partition may commit its
 * offset.
 */
public final class ZkGroupConsumer<K, V> implements Consumer<K, V> {

    /** KafkaConsumer's close() waits up to 30 s. */
    private static final Duration DEFAULT_CLOSE_TIMEOUT = Duration.ofSeconds(30);

    static {
        // what the fetch client will load runs on another core while this consumer starts
        StartupWarmup.startUnlessDisabled();
    }

    private final ZkConsumerConfig config;
    private final RestartHandover restart;
    private final CuratorFramework curator;
    private final KafkaConsumer<K, V> kafka;
    private final OffsetReads offsetReads;
    private final ConsumerId consumerId;
    private final SubscriptionState state;
    private final PartitionFetcher<K, V> fetcher;
    private final GroupCoordinator coordinator;
    private final OffsetCommitter committer;
    private final ConsumerMetrics metrics;
    private final PollLoop<K, V> pollLoop;
    private final ConsumerLifecycle lifecycle;
    /** Which coordinator this consumer follows, and the crossing between them (docs/cutover.md). */
    private final CoordinationSwitch<K, V> cutover;
    /** {@code default.api.timeout.ms}: the bound of the calls that take no timeout, as with KafkaConsumer. */
    private final Duration defaultApiTimeout;
    private final Time time;

    public ZkGroupConsumer(Properties properties) {
        this(ZkConsumerConfig.from(properties), null, null);
    }

    public ZkGroupConsumer(Properties properties, Deserializer<K> keyDeserializer, Deserializer<V> valueDeserializer) {
        this(ZkConsumerConfig.from(properties), keyDeserializer, valueDeserializer);
    }

    public ZkGroupConsumer(Map<String, Object> configs) {
        this(ZkConsumerConfig.from(configs), null, null);
    }

    public ZkGroupConsumer(Map<String, Object> configs, Deserializer<K> keyDeserializer, Deserializer<V> valueDeserializer) {
        this(ZkConsumerConfig.from(configs), keyDeserializer, valueDeserializer);
    }

    /**
     * Connects to ZooKeeper (bounded by {@code zookeeper.connection.timeout.ms}) and prepares the fetcher;
     * joins no group until {@code subscribe}. If it fails, whatever it had opened is closed again.
     *
     * @throws org.apache.kafka.common.config.ConfigException if a property is bad, or no bootstrap servers are given or
     *                                                        registered
     * @throws KafkaException  if ZooKeeper cannot be reached
     */
    public ZkGroupConsumer(ZkConsumerConfig config, Deserializer<K> keyDeserializer, Deserializer<V> valueDeserializer) {
        this(config, keyDeserializer, valueDeserializer, HandoverObserver.NONE);
    }

    /**
     * As {@link #ZkGroupConsumer(ZkConsumerConfig, Deserializer, Deserializer)}; with
     * {@code zkgroups.restart.handover.file} set it first takes the session a previous process of this consumer handed
     * over (docs/restarts.md), telling {@code observer} of each step of the hand-over, here and in
     * {@link #closeForRestart()}.
     */
    public ZkGroupConsumer(ZkConsumerConfig config, Deserializer<K> keyDeserializer, Deserializer<V> valueDeserializer,
                           HandoverObserver observer) {
        this(config, keyDeserializer, valueDeserializer, observer, Time.SYSTEM);
    }

    /** As above, reading {@code time} wherever the consumer and its member read the clock (tests move it by hand). */
    ZkGroupConsumer(ZkConsumerConfig config, Deserializer<K> keyDeserializer, Deserializer<V> valueDeserializer,
                    HandoverObserver observer, Time time) {
        this.config = config;
        this.time = time;
        this.defaultApiTimeout = ConsumerStartup.defaultApiTimeout(config);
        Function<String, KafkaConsumer<K, V>> newFetcher = bootstrap ->
                new KafkaConsumer<>(config.fetchClientProperties(bootstrap), keyDeserializer, valueDeserializer);
        Function<Map<String, Object>, KafkaConsumer<K, V>> newGroupClient = props ->
                new KafkaConsumer<>(props, keyDeserializer, valueDeserializer);
        ConsumerResources opened = new ConsumerResources(config.groupId());
        ConsumerParts<K, V> parts;
        try {
            parts = new ConsumerParts<>(config, newFetcher, newGroupClient, observer, defaultApiTimeout, opened, time);
        } catch (RuntimeException | Error e) {
            opened.closeAll();
            throw e;
        }
        this.restart = parts.restart;
        this.consumerId = parts.consumerId;
        this.curator = parts.curator;
        this.kafka = parts.kafka;
        this.metrics = parts.metrics;
        this.offsetReads = parts.offsetReads;
        this.state = parts.state;
        this.fetcher = parts.fetcher;
        this.committer = parts.committer;
        this.coordinator = parts.coordinator;
        this.cutover = parts.cutover;
        this.pollLoop = new PollLoop<>(coordinator, fetcher, committer, parts.rewindGuard, metrics, kafka, time);
        this.lifecycle = new ConsumerLifecycle(consumerId.toString(), opened, time);
    }

    // --- subscription -----------------------------------------------------------------------------------

    @Override
    public void subscribe(Collection<String> topics) {
        subscribe(topics, NoOpListener.INSTANCE);
    }

    @Override
    public void subscribe(Collection<String> topics, ConsumerRebalanceListener listener) {
        lifecycle.run(() -> {
            Subscription.Static subscription = SubscriptionRequests.topics(topics, config.streamsPerTopic());
            if (subscription.streamsPerTopic().isEmpty()) {
                leave();
            } else {
                join(subscription, subscription.streamsPerTopic().keySet(), null, listener);
            }
        });
    }

    @Override
    public void subscribe(Pattern pattern) {
        subscribe(pattern, NoOpListener.INSTANCE);
    }

    /** A pattern subscription is a 0.8 {@code white_list}: other members see and expand the same regex. */
    @Override
    public void subscribe(Pattern pattern, ConsumerRebalanceListener listener) {
        lifecycle.run(() -> join(SubscriptionRequests.pattern(pattern, config.streamsPerTopic()),
                Collections.<String>emptySet(), pattern, listener));
    }

    /**
     * Subscribes with a 0.8 subscription as it is registered: a number of streams (consumer threads {@code CID-0..n-1})
     * per topic, as 0.8's {@code createMessageStreams(topicCountMap)} declares them, or a white list / black list regex
     * with a number of streams ({@code createMessageStreamsByFilter}). {@link #streamAssignment()} tells which stream
     * each assigned partition was given to.
     */
    public void subscribe(Subscription subscription, ConsumerRebalanceListener listener) {
        lifecycle.run(() -> {
            Subscription checked = SubscriptionRequests.checked(subscription);
            join(checked, SubscriptionRequests.namedTopics(checked), SubscriptionRequests.patternOf(checked), listener);
        });
    }

    /**
     * The partitions that handed out all {@code zkgroups.max.uncommitted.records} allows past their last confirmed
     * commit: {@code poll()} hands out nothing more of them until a commit of them is confirmed. With auto-commit the
     * consumer commits them itself; an application that commits itself (or hands records on later, as the 0.8 bridge
     * does) commits when this is not empty. Empty with the cap off.
     */
    public Set<TopicPartition> atUncommittedCap() {
        return lifecycle.call(fetcher::atCap);
    }

    /**
     * The partitions past half of {@code zkgroups.max.uncommitted.records}: committing them now keeps them off the cap
     * (where the fetch of a partition stops and what was fetched past it is fetched again), as the consumer's own
     * auto-commit does. Empty with the cap off.
     */
    public Set<TopicPartition> nearUncommittedCap() {
        return lifecycle.call(fetcher::pastHalfCap);
    }

    /**
     * Which stream each assigned partition belongs to: the index {@code k} of the consumer thread {@code CID-k} the
     * group's assignment gave it to (0 for every partition with one stream per topic).
     */
    public Map<TopicPartition, Integer> streamAssignment() {
        return lifecycle.call(() -> cutover.active() != null ? cutover.kafkaStreams() : state.streams());
    }

    /**
     * The ownership fence for records handed out after {@code poll} returned them, on other threads (the 0.8 API's
     * streams): see {@link HandOutFence}. Its {@code epochOf} belongs to the thread that polls.
     */
    public HandOutFence handOutFence() {
        return new SubscriptionHandOutFence(state, cutover::active);
    }

    private void join(Subscription sub, Set<String> topics, Pattern pattern, ConsumerRebalanceListener listener) {
        if (listener == null) {
            throw new IllegalArgumentException("RebalanceListener cannot be null");
        }
        if (coordinator.subscribed() || cutover.active() != null) {
            leave();
        }
        if (cutover.joinedKafka(sub, topics, pattern, listener)) {
            return;
        }
        coordinator.join(sub, topics, pattern, listener, Deadline.after(defaultApiTimeout, time));
    }

    @Override
    public void unsubscribe() {
        lifecycle.run(this::leave);
    }

    private void leave() {
        cutover.leaveKafka(defaultApiTimeout);
        coordinator.leave(Deadline.after(defaultApiTimeout, time));
    }

    @Override
    public Set<String> subscription() {
        return lifecycle.call(() -> onKafka() != null ? onKafka().consumer().subscription() : state.subscription());
    }

    @Override
    public Set<TopicPartition> assignment() {
        return lifecycle.call(() -> onKafka() != null ? onKafka().assignment() : state.assigned());
    }

    /** Manual assignment has no place in a ZooKeeper-coordinated group. */
    @Override
    public void assign(Collection<TopicPartition> partitions) {
        lifecycle.run(() -> {
            throw new IllegalStateException("ZkGroupConsumer only supports group subscription (subscribe); partitions "
                    + "are assigned by the ZooKeeper group. For manual assignment use a plain KafkaConsumer without "
                    + "group.id.");
        });
    }

    // --- poll -----------------------------------------------------------------------------------------------

    @Override
    @Deprecated
    public ConsumerRecords<K, V> poll(long timeoutMs) {
        return poll(Duration.ofMillis(timeoutMs));
    }

    @Override
    public ConsumerRecords<K, V> poll(Duration timeout) {
        return lifecycle.call(() -> cutover.onKafka() ? cutover.active().poll(timeout) : pollLoop.poll(timeout));
    }

    // --- commits ----------------------------------------------------------------------------------------

    @Override
    public void commitSync() {
        commitSync(defaultApiTimeout);
    }

    /**
     * Commits the position of every fetched partition, looking up within {@code timeout} those the fetcher has still
     * to find (an offset reset), and writing within what is left of it.
     *
     * @throws org.apache.kafka.common.errors.TimeoutException if a position could not be looked up, or the write did
     *                                                         not finish, within {@code timeout}
     * @throws org.apache.kafka.clients.consumer.CommitFailedException if this member does not own a partition now
     * @throws org.apache.kafka.common.errors.WakeupException if {@link #wakeup()} was called before or during it
     */
    @Override
    public void commitSync(Duration timeout) {
        lifecycle.run(() -> {
            if (onKafka() != null) {
                onKafka().commitSync(timeout);
                return;
            }
            pollLoop.checkWakeup();
            Deadline deadline = Deadline.after(timeout, time);
            pollLoop.delivering(() -> fetcher.resolvePositions(deadline));
            committer.commitPositions(deadline);
        });
    }

    @Override
    public void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets) {
        commitSync(offsets, defaultApiTimeout);
    }

    @Override
    public void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets, Duration timeout) {
        lifecycle.run(() -> {
            if (offsets.isEmpty()) {
                return;
            }
            if (onKafka() != null) {
                onKafka().commitSync(offsets, timeout);
                return;
            }
            pollLoop.checkWakeup();
            Map<TopicPartition, Long> positions = new HashMap<>();
            offsets.forEach((tp, om) -> positions.put(tp, om.offset()));
            committer.commit(positions, Deadline.after(timeout, time));
        });
    }

    @Override
    public void commitAsync() {
        commitAsync(null);
    }

    @Override
    public void commitAsync(OffsetCommitCallback callback) {
        lifecycle.run(() -> {
            if (onKafka() != null) {
                commitAsync(Collections.emptyMap(), callback, () -> onKafka().commitSync(defaultApiTimeout));
                return;
            }
            // the positions known now, as KafkaConsumer's commitAsync takes them: it never waits for a lookup
            fetcher.resolvePositionsQuietly(state.fetched(), Deadline.after(Duration.ZERO, time));
            Map<TopicPartition, OffsetAndMetadata> positions = new HashMap<>();
            state.positions().forEach((tp, offset) -> positions.put(tp, new OffsetAndMetadata(offset)));
            commitAsync(positions, callback);
        });
    }

    /**
     * Writes {@code offsets} on the consumer's commit thread and returns; {@code callback} hears the outcome on this
     * thread, from the next poll, commit or close after the write (a failure without a callback is logged). A commit
     * still being written is waited for first, so commits land in the order they were made.
     */
    @Override
    public void commitAsync(Map<TopicPartition, OffsetAndMetadata> offsets, OffsetCommitCallback callback) {
        lifecycle.run(() -> {
            if (onKafka() != null) {
                commitAsync(offsets, callback, () -> onKafka().commitSync(offsets, defaultApiTimeout));
                return;
            }
            Map<TopicPartition, Long> positions = new HashMap<>();
            offsets.forEach((tp, om) -> positions.put(tp, om.offset()));
            committer.commitAsync(positions, error -> completed(offsets, callback, error));
        });
    }

    /** On Kafka's coordinator: commits synchronously, then calls {@code callback}. */
    private void commitAsync(Map<TopicPartition, OffsetAndMetadata> offsets, OffsetCommitCallback callback,
                             Runnable commit) {
        RuntimeException error = null;
        try {
            commit.run();
        } catch (RuntimeException e) {
            error = e;
        }
        completed(offsets, callback, error);
    }

    private void completed(Map<TopicPartition, OffsetAndMetadata> offsets, OffsetCommitCallback callback,
                           RuntimeException error) {
        if (callback != null) {
            callback.onComplete(offsets, error);
        } else if (error != null) {
            new LogContext("[" + consumerId + "] ").logger(ZkGroupConsumer.class)
                    .warn("async commit failed: {}", error.getMessage());
        }
    }

    @Override
    @Deprecated
    public OffsetAndMetadata committed(TopicPartition partition) {
        return committed(Collections.singleton(partition)).get(partition);
    }

    @Override
    @Deprecated
    public OffsetAndMetadata committed(TopicPartition partition, Duration timeout) {
        return committed(Collections.singleton(partition), timeout).get(partition);
    }

    @Override
    public Map<TopicPartition, OffsetAndMetadata> committed(Set<TopicPartition> partitions) {
        return committed(partitions, defaultApiTimeout);
    }

    /**
     * The offsets stored for {@code partitions} (null for one without), read within {@code timeout}.
     *
     * @throws org.apache.kafka.common.errors.TimeoutException if the store did not answer within {@code timeout}
     * @throws org.apache.kafka.common.errors.WakeupException if {@link #wakeup()} was called before it
     */
    @Override
    public Map<TopicPartition, OffsetAndMetadata> committed(Set<TopicPartition> partitions, Duration timeout) {
        return lifecycle.call(() -> {
            if (onKafka() != null) {
                return onKafka().consumer().committed(partitions, timeout);
            }
            pollLoop.checkWakeup();
            return offsetReads.committed(partitions, Deadline.after(timeout, time));
        });
    }

    // --- delegated to the fetcher ---------------------------------------------------------------------------

    @Override
    public void seek(TopicPartition partition, long offset) {
        lifecycle.run(() -> {
            if (onKafka() != null) {
                onKafka().consumer().seek(partition, offset);
            } else {
                fetcher.seek(partition, offset);
            }
        });
    }

    @Override
    public void seek(TopicPartition partition, OffsetAndMetadata offsetAndMetadata) {
        lifecycle.run(() -> {
            if (onKafka() != null) {
                onKafka().consumer().seek(partition, offsetAndMetadata);
            } else {
                fetcher.seek(partition, offsetAndMetadata);
            }
        });
    }

    @Override
    public void seekToBeginning(Collection<TopicPartition> partitions) {
        lifecycle.run(() -> fetcher.seekToBeginning(partitions));
    }

    @Override
    public void seekToEnd(Collection<TopicPartition> partitions) {
        lifecycle.run(() -> fetcher.seekToEnd(partitions));
    }

    @Override
    public long position(TopicPartition partition) {
        return lifecycle.call(() -> onKafka() != null ? onKafka().consumer().position(partition)
                : pollLoop.delivering(() -> fetcher.position(partition)));
    }

    @Override
    public long position(TopicPartition partition, Duration timeout) {
        return lifecycle.call(() -> onKafka() != null ? onKafka().consumer().position(partition, timeout)
                : pollLoop.delivering(() -> fetcher.position(partition, timeout)));
    }

    @Override
    public Uuid clientInstanceId(Duration timeout) {
        return lifecycle.call(() -> kafka.clientInstanceId(timeout));
    }

    /**
     * The fetcher's metrics (Kafka's {@code consumer-fetch-manager-metrics} and others of the inner {@code KafkaConsumer})
     * and this consumer's own: Kafka's {@code consumer-coordinator-metrics} and {@code zkgroups-consumer-metrics}
     * (docs/monitoring.md). Safe to call from any thread, as metrics reporters do.
     */
    @Override
    public Map<MetricName, ? extends Metric> metrics() {
        Map<MetricName, Metric> all = new HashMap<>(kafka.metrics());
        all.putAll(metrics.metrics());
        return Collections.unmodifiableMap(all);
    }

    @Override
    public List<PartitionInfo> partitionsFor(String topic) {
        return lifecycle.call(() -> pollLoop.delivering(() -> kafka.partitionsFor(topic)));
    }

    @Override
    public List<PartitionInfo> partitionsFor(String topic, Duration timeout) {
        return lifecycle.call(() -> pollLoop.delivering(() -> kafka.partitionsFor(topic, timeout)));
    }

    @Override
    public Map<String, List<PartitionInfo>> listTopics() {
        return lifecycle.call(() -> pollLoop.delivering(kafka::listTopics));
    }

    @Override
    public Map<String, List<PartitionInfo>> listTopics(Duration timeout) {
        return lifecycle.call(() -> pollLoop.delivering(() -> kafka.listTopics(timeout)));
    }

    @Override
    public Set<TopicPartition> paused() {
        return lifecycle.call(() -> onKafka() != null ? onKafka().consumer().paused() : fetcher.paused());
    }

    @Override
    public void pause(Collection<TopicPartition> partitions) {
        lifecycle.run(() -> {
            if (onKafka() != null) {
                onKafka().consumer().pause(partitions);
            } else {
                fetcher.pause(partitions);
            }
        });
    }

    @Override
    public void resume(Collection<TopicPartition> partitions) {
        lifecycle.run(() -> {
            if (onKafka() != null) {
                onKafka().consumer().resume(partitions);
            } else {
                fetcher.resume(partitions);
            }
        });
    }

    @Override
    public Map<TopicPartition, OffsetAndTimestamp> offsetsForTimes(Map<TopicPartition, Long> timestampsToSearch) {
        return lifecycle.call(() -> pollLoop.delivering(() -> kafka.offsetsForTimes(timestampsToSearch)));
    }

    @Override
    public Map<TopicPartition, OffsetAndTimestamp> offsetsForTimes(Map<TopicPartition, Long> timestampsToSearch, Duration timeout) {
        return lifecycle.call(() -> pollLoop.delivering(() -> kafka.offsetsForTimes(timestampsToSearch, timeout)));
    }

    @Override
    public Map<TopicPartition, Long> beginningOffsets(Collection<TopicPartition> partitions) {
        return lifecycle.call(() -> pollLoop.delivering(() -> kafka.beginningOffsets(partitions)));
    }

    @Override
    public Map<TopicPartition, Long> beginningOffsets(Collection<TopicPartition> partitions, Duration timeout) {
        return lifecycle.call(() -> pollLoop.delivering(() -> kafka.beginningOffsets(partitions, timeout)));
    }

    @Override
    public Map<TopicPartition, Long> endOffsets(Collection<TopicPartition> partitions) {
        return lifecycle.call(() -> pollLoop.delivering(() -> kafka.endOffsets(partitions)));
    }

    @Override
    public Map<TopicPartition, Long> endOffsets(Collection<TopicPartition> partitions, Duration timeout) {
        return lifecycle.call(() -> pollLoop.delivering(() -> kafka.endOffsets(partitions, timeout)));
    }

    @Override
    public OptionalLong currentLag(TopicPartition topicPartition) {
        return lifecycle.call(() -> fetcher.currentLag(topicPartition));
    }

    /** There is no Kafka group generation behind a ZooKeeper group, so transactions cannot be fenced by it. */
    @Override
    public ConsumerGroupMetadata groupMetadata() {
        return lifecycle.call(() -> {
            throw new UnsupportedOperationException("a ZooKeeper-coordinated group has no Kafka group metadata: "
                    + "sendOffsetsToTransaction cannot fence zombie members of it");
        });
    }

    @Override
    public void enforceRebalance() {
        enforceRebalance("requested by the application");
    }

    /** Any thread, as the member is thread-safe. */
    @Override
    public void enforceRebalance(String reason) {
        lifecycle.ensureOpen();
        ZkGroupMember current = coordinator.member();
        if (current != null) {
            current.requestRebalance(reason == null ? "requested by the application" : reason);
        }
    }

    /** The group member behind this consumer (health, owned partitions), or empty when not subscribed. */
    public Optional<MemberHealth> groupHealth() {
        ZkGroupMember current = coordinator.member();
        return current == null ? Optional.empty() : Optional.of(current.health());
    }

    public ConsumerId consumerId() {
        return consumerId;
    }

    /**
     * The 0.8.2.2 MBeans of this consumer (docs/monitoring.md), for the 0.8 API to add its streams' queues to; empty
     * with {@code zkgroups.metrics.legacy.mbeans=false}.
     */
    public Optional<LegacyMBeans> legacyMBeans() {
        return metrics.legacyMBeans();
    }

    /** The Kafka-coordinated member this consumer is after a crossing, or null (docs/cutover.md). */
    private io.zkgroups.rebalancer.cutover.KafkaGroupMode<K, V> onKafka() {
        return cutover.active();
    }

    /**
     * Which coordinator this consumer follows now: {@code zookeeper}, or {@code kafka} after it crossed (or joined
     * directly) because the group's decision says so (docs/cutover.md). Any thread.
     */
    public String coordinator() {
        return cutover.active() != null ? "kafka" : "zookeeper";
    }

    // --- lifecycle --------------------------------------------------------------------------------------------

    /** Any thread: the blocking call running now, or the next one, throws {@code WakeupException}. */
    @Override
    public void wakeup() {
        pollLoop.wakeup();
        cutover.wakeup();
    }

    @Override
    public void close() {
        close(DEFAULT_CLOSE_TIMEOUT);
    }

    /**
     * Revokes (committing with auto-commit), leaves the group, closes the fetcher and ZooKeeper session. With
     * {@code zkgroups.restart.handover.file} set it hands over instead, as {@link #closeForRestart()}. {@code timeout}
     * bounds what close waits for Kafka: the lookup of positions not known yet and the commit of the revocation; what
     * cannot be done by then is not committed (the next owner starts at the last committed offset). The application's
     * {@code onPartitionsRevoked} runs to its end, as with KafkaConsumer. With ZooKeeper unreachable it returns within
     * {@code timeout} or the ZooKeeper session timeout, whichever is shorter (the session's end removes the
     * registration), logging at WARN that it could not leave. Closing again does nothing.
     *
     * @throws IllegalArgumentException if {@code timeout} is negative
     */
    @Override
    public void close(Duration timeout) {
        close(restart.onClose(), Deadline.after(timeout, time));
    }

    /**
     * Stops for a restart without a rebalance (docs/restarts.md): revokes on this thread (the listener's
     * {@code onPartitionsRevoked}, the commit with auto-commit) while the fence lets no more records out, withdraws
     * every grant, then drops the ZooKeeper connection <em>without</em> ending the session and leaves the session, the
     * consumer id and the owned partitions in {@code zkgroups.restart.handover.file}. A successor started within
     * {@code zkgroups.restart.grace.ms} resumes them: no member of the group sees a change. Otherwise the session
     * expires and the group rebalances, as after a crash.
     *
     * @throws IllegalStateException if {@code zkgroups.restart.handover.file} is not set
     */
    public void closeForRestart() {
        if (!restart.onClose()) {
            throw new IllegalStateException("closeForRestart needs " + ZkConsumerConfig.RESTART_HANDOVER_FILE
                    + " (where the successor finds the session); it is not set for consumer " + consumerId);
        }
        close(true, Deadline.after(DEFAULT_CLOSE_TIMEOUT, time));
    }

    private void close(boolean handOver, Deadline deadline) {
        Deadline zooKeeperBound = deadline.within(Duration.ofMillis(config.sessionTimeoutMs()));
        lifecycle.close(() -> {
            cutover.leaveKafka(Duration.ofNanos(Math.max(0, deadline.remainingNanos())));
            if (!handOver || !restart.handOver(coordinator, consumerId, deadline)) {
                coordinator.leaveBeforeClosing(deadline);
            }
        }, curator, zooKeeperBound, deadline);
    }
}
