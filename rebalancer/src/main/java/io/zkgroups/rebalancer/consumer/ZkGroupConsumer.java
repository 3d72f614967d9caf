package io.zkgroups.rebalancer.consumer;

import io.zkgroups.rebalancer.group.ZkGroupMember;
import io.zkgroups.rebalancer.group.KafkaTopicMetadata;
import io.zkgroups.rebalancer.group.MemberHealth;
import io.zkgroups.rebalancer.group.TopicMetadata;
import io.zkgroups.rebalancer.group.ZkTopicMetadata;
import io.zkgroups.rebalancer.metrics.ConsumerMetrics;
import io.zkgroups.rebalancer.metrics.legacy.LegacyMBeans;
import io.zkgroups.rebalancer.offsets.OffsetStore;
import io.zkgroups.rebalancer.restart.HandoverObserver;
import io.zkgroups.registry.ZkNames;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.BrokerInfo;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.Subscription;
import io.zkgroups.registry.model.TopicAndPartition;
import org.apache.curator.framework.CuratorFramework;
import org.apache.kafka.clients.admin.Admin;
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
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.Deserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.ConcurrentModificationException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
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
 * <b>Note on threading.</b> Every method that touches the consumer's state runs under the single-thread guard
 * ({@link SingleThreadGuard}; a second thread gets {@link ConcurrentModificationException}), so the state,
 * fetcher, committer and coordinator are only ever used by one thread at a time. Outside it: {@link #wakeup()} (a flag
 * and the event queue), {@link #metrics()}, {@link #enforceRebalance()} and {@link #groupHealth()} (the volatile
 * member, itself thread-safe), and {@link #handOutFence()}, whose checks run on the application's stream threads
 * against the fence.
 * <p>
 * Differences from {@code KafkaConsumer}, all throwing with a message that says why:
 * {@link #assign} (manual assignment has no place in a ZooKeeper group: use a plain KafkaConsumer),
 * {@link #groupMetadata()} (there is no Kafka group generation to fence transactions with).
 * {@link #commitAsync} commits synchronously and then calls the callback.
 */
public final class ZkGroupConsumer<K, V> implements Consumer<K, V> {

    private static final Logger LOG = LoggerFactory.getLogger(ZkGroupConsumer.class);
    /** Longest stretch the fetcher blocks: bounds how late the poll thread sees a revocation. */
    private static final Duration POLL_SLICE = Duration.ofMillis(50);
    /** KafkaConsumer's close() waits up to 30 s. */
    private static final Duration DEFAULT_CLOSE_TIMEOUT = Duration.ofSeconds(30);

    private final ZkConsumerConfig config;
    private final RestartHandover restart;
    private final CuratorFramework curator;
    private final KafkaConsumer<K, V> kafka;
    private final Admin admin;
    private final OffsetStore offsets;
    private final OffsetReads offsetReads;
    private final TopicMetadata topicMetadata;
    private final ConsumerId consumerId;
    private final SubscriptionState state;
    private final PartitionFetcher<K, V> fetcher;
    private final GroupCoordinator coordinator;
    private final OffsetCommitter committer;
    private final ConsumerMetrics metrics;
    /** {@code default.api.timeout.ms}: the bound of the calls that take no timeout, as with KafkaConsumer. */
    private final Duration defaultApiTimeout;
    private final SingleThreadGuard guard = new SingleThreadGuard("ZkGroupConsumer");
    private volatile boolean userWakeup;
    /** Set once close() has begun: the revocation it runs may still commit (in onPartitionsRevoked), as with KafkaConsumer. */
    private boolean closing;
    private boolean closed;

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
     * joins no group until {@code subscribe}.
     *
     * @throws ConfigException if a property is bad, or no bootstrap servers are given or registered
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
        this.config = config;
        this.defaultApiTimeout = ConsumerStartup.defaultApiTimeout(config);
        Function<String, KafkaConsumer<K, V>> newFetcher = bootstrap ->
                new KafkaConsumer<>(config.fetchClientProperties(bootstrap), keyDeserializer, valueDeserializer);
        // a successor waiting for its ticket builds its fetch client meanwhile (EarlyFetchClient)
        AtomicReference<KafkaConsumer<K, V>> earlyFetcher = new AtomicReference<>();
        try {
            this.restart = RestartHandover.atStart(config, observer,
                    () -> earlyFetcher.set(EarlyFetchClient.build(config, newFetcher)));
            this.consumerId = ConsumerStartup.consumerIdOf(restart.consumerId(), config);
            this.curator = ZooKeeperConnection.open(config, restart.handles());
        } catch (RuntimeException | Error e) {
            if (earlyFetcher.get() != null) {
                earlyFetcher.get().close(Duration.ZERO);
            }
            throw e;
        }
        boolean started = false;
        KafkaConsumer<K, V> inner = earlyFetcher.get(); // built with the configured bootstrap.servers, if any
        Admin adminClient = null;
        ConsumerMetrics consumerMetrics = null;
        try {
            ZkRegistry registry = ZkRegistry.of(curator);
            List<BrokerInfo> brokers = registry.brokers().list().entries();
            String bootstrap = config.bootstrapServers().orElseGet(() -> ConsumerStartup.bootstrapFrom(brokers, config));
            if (inner == null) {
                inner = newFetcher.apply(bootstrap);
            }
            boolean zkMetadata = !brokers.isEmpty();
            adminClient = (ConfiguredOffsetStores.needsKafka(config) || !zkMetadata) ? Admin.create(config.adminProperties(bootstrap)) : null;
            this.kafka = inner;
            this.admin = adminClient;
            this.topicMetadata = zkMetadata ? new ZkTopicMetadata(registry.topics())
                    : new KafkaTopicMetadata(adminClient, config.metadataRefresh(), Duration.ofSeconds(30));
            KafkaConsumer<K, V> fetcherRef = inner;
            consumerMetrics = new ConsumerMetrics(config.clientId(), config.groupId(), config.legacyMBeans(),
                    fetcherRef::metrics, new RegisteredBrokers(registry));
            this.metrics = consumerMetrics;
            this.offsets = ConfiguredOffsetStores.forConfig(config, registry, adminClient, consumerMetrics);
            this.offsetReads = new OffsetReads(offsets, config.groupId(), config.clientId());
            this.state = new SubscriptionState(consumerId.toString(), config.groupId());
            this.fetcher = new PartitionFetcher<>(inner, state, config.resetPolicy(), defaultApiTimeout,
                    config.connectEarly());
            consumerMetrics.kafkaReachability(() -> fetcher.reachability().snapshot().unreachableSince(),
                    () -> fetcher.reachability().snapshot().unfetchable().size());
            this.committer = new OffsetCommitter(config, consumerId.toString(), offsets, state, consumerMetrics);
            this.coordinator = new GroupCoordinator(config, consumerId, curator, topicMetadata, offsets, state, fetcher,
                    committer, consumerMetrics);
            restart.resumed(curator).ifPresent(coordinator::resumeOnJoin);
            started = true;
        } finally {
            if (!started) {
                if (consumerMetrics != null) {
                    consumerMetrics.close();
                }
                if (inner != null) {
                    inner.close(Duration.ZERO);
                }
                if (adminClient != null) {
                    adminClient.close(Duration.ZERO);
                }
                curator.close();
            }
        }
    }

    // --- subscription -----------------------------------------------------------------------------------

    @Override
    public void subscribe(Collection<String> topics) {
        subscribe(topics, NoOpListener.INSTANCE);
    }

    @Override
    public void subscribe(Collection<String> topics, ConsumerRebalanceListener listener) {
        guard.acquire();
        try {
            if (topics == null) {
                throw new IllegalArgumentException("topic collection to subscribe to cannot be null");
            }
            if (topics.isEmpty()) {
                unsubscribeInternal();
                return;
            }
            Map<String, Integer> streams = new LinkedHashMap<>();
            for (String topic : topics) {
                streams.put(ZkNames.requireValid("topic", topic == null ? null : topic.trim()), config.streamsPerTopic());
            }
            join(Subscription.topics(streams), streams.keySet(), null, listener);
        } finally {
            guard.release();
        }
    }

    @Override
    public void subscribe(Pattern pattern) {
        subscribe(pattern, NoOpListener.INSTANCE);
    }

    /** A pattern subscription is a 0.8 {@code white_list}: other members see and expand the same regex. */
    @Override
    public void subscribe(Pattern pattern, ConsumerRebalanceListener listener) {
        guard.acquire();
        try {
            if (pattern == null || pattern.pattern().isEmpty()) {
                throw new IllegalArgumentException("topic pattern to subscribe to cannot be " + (pattern == null ? "null" : "empty"));
            }
            Subscription whitelist = new Subscription.Wildcard(Subscription.Wildcard.Kind.WHITE_LIST, pattern.pattern(),
                    config.streamsPerTopic());
            join(whitelist, Collections.<String>emptySet(), pattern, listener);
        } finally {
            guard.release();
        }
    }

    /**
     * Subscribes with a 0.8 subscription as it is registered: a number of streams (consumer threads {@code CID-0..n-1})
     * per topic, as 0.8's {@code createMessageStreams(topicCountMap)} declares them, or a white list / black list regex
     * with a number of streams ({@code createMessageStreamsByFilter}). {@link #streamAssignment()} tells which stream
     * each assigned partition was given to.
     */
    public void subscribe(Subscription subscription, ConsumerRebalanceListener listener) {
        guard.acquire();
        try {
            if (subscription instanceof Subscription.Static) {
                Subscription.Static fixed = (Subscription.Static) subscription;
                fixed.streamsPerTopic().forEach((topic, streams) -> {
                    if (streams < 1) { // a registration may say 0 (read as no threads), but 0.8 never creates one
                        throw new IllegalArgumentException("stream count of topic " + topic + " must be >= 1, got " + streams);
                    }
                });
                join(subscription, fixed.streamsPerTopic().keySet(), null, listener);
            } else if (subscription instanceof Subscription.Wildcard) {
                Subscription.Wildcard wildcard = (Subscription.Wildcard) subscription;
                if (wildcard.streams() < 1) {
                    throw new IllegalArgumentException("stream count of " + wildcard.regex() + " must be >= 1, got "
                            + wildcard.streams());
                }
                join(subscription, Collections.<String>emptySet(), Pattern.compile(wildcard.regex()), listener);
            } else {
                throw new IllegalArgumentException("subscription cannot be " + subscription);
            }
        } finally {
            guard.release();
        }
    }

    /**
     * Which stream each assigned partition belongs to: the index {@code k} of the consumer thread {@code CID-k} the
     * group's assignment gave it to (0 for every partition with one stream per topic).
     */
    public Map<TopicPartition, Integer> streamAssignment() {
        guard.acquire();
        try {
            return state.streams();
        } finally {
            guard.release();
        }
    }

    /**
     * The ownership fence for records handed out after {@code poll} returned them, on other threads (the 0.8 API's
     * streams): see {@link HandOutFence}. Its {@code epochOf} belongs to the thread that polls.
     */
    public HandOutFence handOutFence() {
        return new SubscriptionHandOutFence(state);
    }

    private void join(Subscription sub, Set<String> topics, Pattern pattern, ConsumerRebalanceListener listener) {
        ensureOpen();
        if (listener == null) {
            throw new IllegalArgumentException("RebalanceListener cannot be null");
        }
        coordinator.join(sub, topics, pattern, listener, Deadline.after(defaultApiTimeout));
    }

    @Override
    public void unsubscribe() {
        guard.acquire();
        try {
            unsubscribeInternal();
        } finally {
            guard.release();
        }
    }

    private void unsubscribeInternal() {
        ensureOpen();
        coordinator.leave(Deadline.after(defaultApiTimeout));
    }

    @Override
    public Set<String> subscription() {
        guard.acquire();
        try {
            return state.subscription();
        } finally {
            guard.release();
        }
    }

    @Override
    public Set<TopicPartition> assignment() {
        guard.acquire();
        try {
            return state.assigned();
        } finally {
            guard.release();
        }
    }

    /** Manual assignment has no place in a ZooKeeper-coordinated group. */
    @Override
    public void assign(Collection<TopicPartition> partitions) {
        throw new IllegalStateException("ZkGroupConsumer only supports group subscription (subscribe); partitions are "
                + "assigned by the ZooKeeper group. For manual assignment use a plain KafkaConsumer without group.id.");
    }

    // --- poll -----------------------------------------------------------------------------------------------

    @Override
    @Deprecated
    public ConsumerRecords<K, V> poll(long timeoutMs) {
        return poll(Duration.ofMillis(timeoutMs));
    }

    @Override
    public ConsumerRecords<K, V> poll(Duration timeout) {
        guard.acquire();
        try {
            ensureOpen();
            if (!coordinator.subscribed()) {
                throw new IllegalStateException("Consumer is not subscribed to any topics");
            }
            long deadline = System.nanoTime() + Math.max(0, timeout.toNanos());
            do {
                checkWakeup();
                coordinator.checkMember();
                if (coordinator.processEvents()) {
                    userWakeup = true;
                    checkWakeup();
                }
                committer.maybeAutoCommit();
                long slice = Math.max(0, Math.min(deadline - System.nanoTime(), POLL_SLICE.toNanos()));
                if (!fetcher.canFetch()) {
                    if (!connectEarly(Duration.ofNanos(slice))) {
                        coordinator.awaitEvent(slice);
                    }
                    continue;
                }
                ConsumerRecords<K, V> records = fetch(Duration.ofNanos(slice));
                if (!records.isEmpty()) {
                    metrics.delivered(records);
                    return records;
                }
            } while (System.nanoTime() < deadline);
            return ConsumerRecords.empty();
        } finally {
            guard.release();
        }
    }

    private ConsumerRecords<K, V> fetch(Duration slice) {
        try {
            return fetcher.poll(slice);
        } catch (WakeupException e) {
            throw wokenUp(e);
        }
    }

    private boolean connectEarly(Duration slice) {
        try {
            return fetcher.connectEarly(slice);
        } catch (WakeupException e) {
            throw wokenUp(e);
        }
    }

    /** The application's wakeup reached the inner consumer: delivered, so the pending ones are dropped. */
    private WakeupException wokenUp(WakeupException e) {
        userWakeup = false;
        coordinator.clearWakeups();
        return e;
    }

    private void checkWakeup() {
        if (userWakeup) {
            userWakeup = false;
            coordinator.clearWakeups();
            throw new WakeupException();
        }
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
     */
    @Override
    public void commitSync(Duration timeout) {
        guard.acquire();
        try {
            ensureOpen();
            Deadline deadline = Deadline.after(timeout);
            fetcher.resolvePositions(deadline);
            committer.commitPositions(deadline);
        } finally {
            guard.release();
        }
    }

    @Override
    public void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets) {
        commitSync(offsets, defaultApiTimeout);
    }

    @Override
    public void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets, Duration timeout) {
        guard.acquire();
        try {
            ensureOpen();
            Deadline deadline = Deadline.after(timeout);
            Map<TopicPartition, Long> positions = new HashMap<>();
            offsets.forEach((tp, om) -> positions.put(tp, om.offset()));
            committer.commit(positions, deadline);
        } finally {
            guard.release();
        }
    }

    @Override
    public void commitAsync() {
        commitAsync(null);
    }

    @Override
    public void commitAsync(OffsetCommitCallback callback) {
        guard.acquire();
        try {
            // the positions known now, as KafkaConsumer's commitAsync takes them: it never waits for a lookup
            fetcher.resolvePositionsQuietly(state.fetched(), Deadline.after(Duration.ZERO));
            Map<TopicPartition, OffsetAndMetadata> positions = new HashMap<>();
            state.positions().forEach((tp, offset) -> positions.put(tp, new OffsetAndMetadata(offset)));
            commitAsync(positions, callback);
        } finally {
            guard.release();
        }
    }

    @Override
    public void commitAsync(Map<TopicPartition, OffsetAndMetadata> offsets, OffsetCommitCallback callback) {
        guard.acquire();
        try {
            Exception error = null;
            try {
                commitSync(offsets);
            } catch (RuntimeException e) {
                error = e;
            }
            if (callback != null) {
                callback.onComplete(offsets, error);
            } else if (error != null) {
                LOG.warn("[{}] async commit failed: {}", consumerId, error.getMessage());
            }
        } finally {
            guard.release();
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
     */
    @Override
    public Map<TopicPartition, OffsetAndMetadata> committed(Set<TopicPartition> partitions, Duration timeout) {
        guard.acquire();
        try {
            Map<TopicPartition, OffsetAndMetadata> result = new HashMap<>();
            Map<TopicAndPartition, Long> stored = offsetReads.read(KafkaPartitions.toRegistry(partitions),
                    Deadline.after(timeout));
            for (TopicPartition tp : partitions) {
                Long offset = stored.get(KafkaPartitions.toRegistry(tp));
                result.put(tp, offset == null ? null : new OffsetAndMetadata(offset));
            }
            return result;
        } finally {
            guard.release();
        }
    }

    // --- delegated to the fetcher ---------------------------------------------------------------------------

    @Override
    public void seek(TopicPartition partition, long offset) {
        guard.acquire();
        try {
            fetcher.seek(partition, offset);
        } finally {
            guard.release();
        }
    }

    @Override
    public void seek(TopicPartition partition, OffsetAndMetadata offsetAndMetadata) {
        guard.acquire();
        try {
            fetcher.seek(partition, offsetAndMetadata);
        } finally {
            guard.release();
        }
    }

    @Override
    public void seekToBeginning(Collection<TopicPartition> partitions) {
        guard.acquire();
        try {
            fetcher.seekToBeginning(partitions);
        } finally {
            guard.release();
        }
    }

    @Override
    public void seekToEnd(Collection<TopicPartition> partitions) {
        guard.acquire();
        try {
            fetcher.seekToEnd(partitions);
        } finally {
            guard.release();
        }
    }

    @Override
    public long position(TopicPartition partition) {
        guard.acquire();
        try {
            return fetcher.position(partition);
        } finally {
            guard.release();
        }
    }

    @Override
    public long position(TopicPartition partition, Duration timeout) {
        guard.acquire();
        try {
            return fetcher.position(partition, timeout);
        } finally {
            guard.release();
        }
    }

    @Override
    public Uuid clientInstanceId(Duration timeout) {
        return guard.call(() -> kafka.clientInstanceId(timeout));
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
        return guard.call(() -> kafka.partitionsFor(topic));
    }

    @Override
    public List<PartitionInfo> partitionsFor(String topic, Duration timeout) {
        return guard.call(() -> kafka.partitionsFor(topic, timeout));
    }

    @Override
    public Map<String, List<PartitionInfo>> listTopics() {
        return guard.call(() -> kafka.listTopics());
    }

    @Override
    public Map<String, List<PartitionInfo>> listTopics(Duration timeout) {
        return guard.call(() -> kafka.listTopics(timeout));
    }

    @Override
    public Set<TopicPartition> paused() {
        return guard.call(() -> kafka.paused());
    }

    @Override
    public void pause(Collection<TopicPartition> partitions) {
        guard.acquire();
        try {
            kafka.pause(partitions);
        } finally {
            guard.release();
        }
    }

    @Override
    public void resume(Collection<TopicPartition> partitions) {
        guard.acquire();
        try {
            kafka.resume(partitions);
        } finally {
            guard.release();
        }
    }

    @Override
    public Map<TopicPartition, OffsetAndTimestamp> offsetsForTimes(Map<TopicPartition, Long> timestampsToSearch) {
        return guard.call(() -> kafka.offsetsForTimes(timestampsToSearch));
    }

    @Override
    public Map<TopicPartition, OffsetAndTimestamp> offsetsForTimes(Map<TopicPartition, Long> timestampsToSearch, Duration timeout) {
        return guard.call(() -> kafka.offsetsForTimes(timestampsToSearch, timeout));
    }

    @Override
    public Map<TopicPartition, Long> beginningOffsets(Collection<TopicPartition> partitions) {
        return guard.call(() -> kafka.beginningOffsets(partitions));
    }

    @Override
    public Map<TopicPartition, Long> beginningOffsets(Collection<TopicPartition> partitions, Duration timeout) {
        return guard.call(() -> kafka.beginningOffsets(partitions, timeout));
    }

    @Override
    public Map<TopicPartition, Long> endOffsets(Collection<TopicPartition> partitions) {
        return guard.call(() -> kafka.endOffsets(partitions));
    }

    @Override
    public Map<TopicPartition, Long> endOffsets(Collection<TopicPartition> partitions, Duration timeout) {
        return guard.call(() -> kafka.endOffsets(partitions, timeout));
    }

    @Override
    public OptionalLong currentLag(TopicPartition topicPartition) {
        return guard.call(() -> kafka.currentLag(topicPartition));
    }

    /** There is no Kafka group generation behind a ZooKeeper group, so transactions cannot be fenced by it. */
    @Override
    public ConsumerGroupMetadata groupMetadata() {
        throw new UnsupportedOperationException("a ZooKeeper-coordinated group has no Kafka group metadata: "
                + "sendOffsetsToTransaction cannot fence zombie members of it");
    }

    @Override
    public void enforceRebalance() {
        enforceRebalance("requested by the application");
    }

    @Override
    public void enforceRebalance(String reason) {
        ZkGroupMember current = coordinator.member();
        if (current != null) {
            current.requestRebalance(reason == null ? "requested by the application" : reason);
        }
    }

    /** The group member behind this consumer (health, owned partitions), or empty when not subscribed. */
    public java.util.Optional<MemberHealth> groupHealth() {
        ZkGroupMember current = coordinator.member();
        return current == null ? java.util.Optional.empty() : java.util.Optional.of(current.health());
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

    // --- lifecycle --------------------------------------------------------------------------------------------

    @Override
    public void wakeup() {
        userWakeup = true;
        coordinator.wake();
        kafka.wakeup();
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
     * {@code onPartitionsRevoked} runs to its end, as with KafkaConsumer.
     *
     * @throws IllegalArgumentException if {@code timeout} is negative
     */
    @Override
    public void close(Duration timeout) {
        close(restart.onClose(), Deadline.after(timeout));
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
        close(true, Deadline.after(DEFAULT_CLOSE_TIMEOUT));
    }

    private void close(boolean handOver, Deadline deadline) {
        guard.acquire();
        try {
            if (closed || closing) {
                return;
            }
            closing = true;
            try {
                if (!handOver || !restart.handOver(coordinator, consumerId, deadline)) {
                    coordinator.leave(deadline);
                }
            } finally {
                closed = true;
                // Neither has anything left to wait for: the fetcher joined no Kafka group and commits nothing, and every
                // commit through the admin client has returned. Waiting would only close the broker's fetch sessions
                // politely (it evicts them anyway) at the cost of a round trip to each broker.
                offsetReads.close();
                kafka.close(Duration.ZERO);
                topicMetadata.close();
                if (admin != null) {
                    admin.close(Duration.ZERO);
                }
                metrics.close();
                curator.close();
            }
        } finally {
            guard.release();
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("This consumer has already been closed.");
        }
    }
}
