package io.zkgroups.rebalancer.consumer;

import io.zkgroups.rebalancer.group.GroupMember;
import io.zkgroups.rebalancer.group.GroupMemberConfig;
import io.zkgroups.rebalancer.group.KafkaTopicMetadata;
import io.zkgroups.rebalancer.group.MemberHealth;
import io.zkgroups.rebalancer.group.MemberState;
import io.zkgroups.rebalancer.group.TopicMetadata;
import io.zkgroups.rebalancer.group.ZkTopicMetadata;
import io.zkgroups.rebalancer.offsets.DualOffsets;
import io.zkgroups.rebalancer.offsets.KafkaOffsets;
import io.zkgroups.rebalancer.offsets.OffsetStore;
import io.zkgroups.rebalancer.offsets.OffsetStoreException;
import io.zkgroups.rebalancer.offsets.ZkOffsets;
import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.ZkNames;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.BrokerInfo;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.Subscription;
import io.zkgroups.registry.model.TopicAndPartition;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.CommitFailedException;
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
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.Deserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.ConcurrentModificationException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.BlockingDeque;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

/**
 * Kafka's {@link Consumer} API over 0.8-style ZooKeeper group coordination: a drop-in replacement for
 * {@code KafkaConsumer} (or for the 0.8.2.2 high-level consumer) that joins a group in
 * {@code /consumers/<group>} next to real 0.8.2.2 consumers, with byte-identical znodes and the same
 * assignment, and fetches from Kafka through an inner {@code KafkaConsumer} in {@code assign()} mode.
 * <p>
 * Like {@code KafkaConsumer} it is not thread-safe: one thread polls; {@link #wakeup()} may be called from
 * any thread. Rebalance callbacks run on the polling thread, inside {@code poll}, {@code close} or
 * {@code unsubscribe}. Records are handed out only while the ownership lease on the ZooKeeper session holds,
 * and commits are refused for partitions this member does not own (a late commit would rewind the new owner).
 * <p>
 * Differences from {@code KafkaConsumer}, all throwing with a message that says why:
 * {@link #assign} (manual assignment has no place in a ZooKeeper group: use a plain KafkaConsumer),
 * {@link #groupMetadata()} (there is no Kafka group generation to fence transactions with).
 * {@link #commitAsync} commits synchronously and then calls the callback.
 */
public final class ZkGroupConsumer<K, V> implements Consumer<K, V> {

    private static final Logger LOG = LoggerFactory.getLogger(ZkGroupConsumer.class);
    private static final long NO_THREAD = -1;
    /** Longest stretch the fetcher blocks: bounds how late the poll thread sees a revocation. */
    private static final Duration POLL_SLICE = Duration.ofMillis(50);

    private final ZkConsumerConfig config;
    /** {@code auto.commit.enable}, parsed once: poll checks it on every call. */
    private final boolean autoCommit;
    private final CuratorFramework curator;
    private final ZkRegistry registry;
    private final KafkaConsumer<K, V> fetcher;
    private final Admin admin;
    private final OffsetStore offsets;
    private final TopicMetadata topicMetadata;
    private final ConsumerId consumerId;
    private final BlockingDeque<RebalanceEvent> events = new LinkedBlockingDeque<>();
    private final RebalanceBridge bridge;
    private final AtomicLong currentThread = new AtomicLong(NO_THREAD);
    private final AtomicInteger refCount = new AtomicInteger();
    /** Next offset to deliver per owned partition, as of the last poll: read by the member thread on timeouts. */
    private final Map<TopicPartition, Long> deliveredPositions = new ConcurrentHashMap<>();

    // poll-thread state
    private GroupMember member;
    private Set<String> subscription = Set.of();
    private Pattern subscribedPattern;
    private ConsumerRebalanceListener rebalanceListener = new NoOpListener();
    private final Set<TopicPartition> owned = new HashSet<>();
    private final Map<TopicPartition, Long> lastCommitted = new HashMap<>();
    private long nextAutoCommitNanos;
    private long nextOffsetsRefreshNanos;
    private volatile boolean userWakeup;
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
        this.config = config;
        this.autoCommit = config.autoCommit();
        this.consumerId = config.consumerIdOverride()
                .map(id -> ConsumerId.ofOverride(config.groupId(), id))
                .orElseGet(() -> ConsumerId.generated(config.groupId(), hostName(), System.currentTimeMillis(), UUID.randomUUID()));
        this.curator = connect(config);
        boolean started = false;
        KafkaConsumer<K, V> inner = null;
        Admin adminClient = null;
        try {
            this.registry = ZkRegistry.of(curator);
            List<BrokerInfo> brokers = registry.brokers().list().entries();
            String bootstrap = config.bootstrapServers().orElseGet(() -> bootstrapFrom(brokers, config));
            inner = new KafkaConsumer<>(config.fetchClientProperties(bootstrap), keyDeserializer, valueDeserializer);
            boolean zkMetadata = !brokers.isEmpty();
            boolean kafkaOffsets = config.offsetsStorage() == ZkConsumerConfig.OffsetsStorage.KAFKA;
            adminClient = (kafkaOffsets || !zkMetadata) ? Admin.create(config.adminProperties(bootstrap)) : null;
            this.fetcher = inner;
            this.admin = adminClient;
            this.topicMetadata = zkMetadata ? new ZkTopicMetadata(registry.topics())
                    : new KafkaTopicMetadata(adminClient, config.metadataRefresh(), Duration.ofSeconds(30));
            ZkOffsets zk = new ZkOffsets(registry.offsets());
            if (!kafkaOffsets) {
                this.offsets = zk;
            } else {
                KafkaOffsets kafka = new KafkaOffsets(adminClient, Duration.ofSeconds(30), false);
                this.offsets = config.dualCommit() ? new DualOffsets(kafka, zk) : kafka;
            }
            this.bridge = new RebalanceBridge(events, config.revokeTimeout(), this::commitFromMemberThread);
            started = true;
        } finally {
            if (!started) {
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

    private static CuratorFramework connect(ZkConsumerConfig config) {
        CuratorFramework client = CuratorFrameworkFactory.builder()
                .connectString(config.zookeeperConnect())
                .sessionTimeoutMs(config.sessionTimeoutMs())
                .connectionTimeoutMs(config.connectionTimeoutMs())
                .retryPolicy(new ExponentialBackoffRetry(100, 29, 1_000))
                .build();
        client.start();
        try {
            if (!client.blockUntilConnected(config.connectionTimeoutMs(), TimeUnit.MILLISECONDS)) {
                client.close();
                throw new KafkaException("cannot connect to ZooKeeper at " + config.zookeeperConnect() + " within "
                        + config.connectionTimeoutMs() + " ms (zookeeper.connection.timeout.ms)");
            }
        } catch (InterruptedException e) {
            client.close();
            Thread.currentThread().interrupt();
            throw new InterruptException(e);
        }
        return client;
    }

    private static String bootstrapFrom(List<BrokerInfo> brokers, ZkConsumerConfig config) {
        List<String> addresses = brokers.stream().flatMap(b -> b.plaintextAddress().stream()).toList();
        if (addresses.isEmpty()) {
            throw new ConfigException("bootstrap.servers is not set and no broker with a PLAINTEXT endpoint is "
                    + "registered under /brokers/ids at " + config.zookeeperConnect());
        }
        return String.join(",", addresses);
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            return "unknown-host";
        }
    }

    // --- subscription -----------------------------------------------------------------------------------

    @Override
    public void subscribe(Collection<String> topics) {
        subscribe(topics, new NoOpListener());
    }

    @Override
    public void subscribe(Collection<String> topics, ConsumerRebalanceListener listener) {
        acquire();
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
            join(Subscription.topics(streams), Set.copyOf(streams.keySet()), null, listener);
        } finally {
            release();
        }
    }

    @Override
    public void subscribe(Pattern pattern) {
        subscribe(pattern, new NoOpListener());
    }

    /** A pattern subscription is a 0.8 {@code white_list}: other members see and expand the same regex. */
    @Override
    public void subscribe(Pattern pattern, ConsumerRebalanceListener listener) {
        acquire();
        try {
            if (pattern == null || pattern.pattern().isEmpty()) {
                throw new IllegalArgumentException("topic pattern to subscribe to cannot be " + (pattern == null ? "null" : "empty"));
            }
            Subscription whitelist = new Subscription.Wildcard(Subscription.Wildcard.Kind.WHITE_LIST, pattern.pattern(),
                    config.streamsPerTopic());
            join(whitelist, Set.of(), pattern, listener);
        } finally {
            release();
        }
    }

    private void join(Subscription sub, Set<String> topics, Pattern pattern, ConsumerRebalanceListener listener) {
        ensureOpen();
        if (listener == null) {
            throw new IllegalArgumentException("RebalanceListener cannot be null");
        }
        if (member != null) {
            leaveGroup(); // a new subscription is a new registration: revoke everything, then join again
        }
        this.subscription = topics;
        this.subscribedPattern = pattern;
        this.rebalanceListener = listener;
        GroupMemberConfig memberConfig = GroupMemberConfig.of(config.groupId(), consumerId, sub)
                .withAssignmentStrategy(config.assignmentStrategy())
                .withExcludeInternalTopics(config.excludeInternalTopics())
                .withMaxGroupSize(config.maxGroupSize())
                .withDebounce(config.rebalanceDebounce())
                .withBackoff(Duration.ofMillis(Math.min(50, config.rebalanceBackoff().toMillis())), config.rebalanceBackoff())
                .withAdvertisedCapabilities(config.advertiseCapabilities());
        member = new GroupMember(curator, ZkLayout.root(), memberConfig, topicMetadata, bridge);
        nextAutoCommitNanos = System.nanoTime() + config.autoCommitInterval().toNanos();
        nextOffsetsRefreshNanos = System.nanoTime() + config.offsetsRefresh().toNanos();
        member.start();
    }

    @Override
    public void unsubscribe() {
        acquire();
        try {
            unsubscribeInternal();
        } finally {
            release();
        }
    }

    private void unsubscribeInternal() {
        ensureOpen();
        if (member != null) {
            leaveGroup();
        }
        subscription = Set.of();
        subscribedPattern = null;
    }

    /** Revokes everything on this thread (listener + commit), then lets the member release and unregister. */
    private void leaveGroup() {
        drainEvents(false);
        if (!owned.isEmpty()) {
            revoke(new HashSet<>(owned));
        }
        bridge.pollThreadGone();
        member.close();
        events.clear();
        member = null;
        bridge.pollThreadBack();
    }

    @Override
    public Set<String> subscription() {
        acquire();
        try {
            if (subscribedPattern != null) {
                Set<String> matched = new HashSet<>();
                owned.forEach(tp -> matched.add(tp.topic()));
                return Collections.unmodifiableSet(matched);
            }
            return Collections.unmodifiableSet(new HashSet<>(subscription));
        } finally {
            release();
        }
    }

    @Override
    public Set<TopicPartition> assignment() {
        acquire();
        try {
            return Collections.unmodifiableSet(new HashSet<>(owned));
        } finally {
            release();
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
        acquire();
        try {
            ensureOpen();
            if (member == null) {
                throw new IllegalStateException("Consumer is not subscribed to any topics");
            }
            long deadline = System.nanoTime() + Math.max(0, timeout.toNanos());
            do {
                checkWakeup();
                checkMember();
                drainEvents(true);
                maybeAutoCommit();
                long remaining = deadline - System.nanoTime();
                if (owned.isEmpty() || !member.canDeliver()) {
                    awaitEvent(Math.max(0, Math.min(remaining, POLL_SLICE.toNanos())));
                    continue;
                }
                ConsumerRecords<K, V> records = fetch(Duration.ofNanos(Math.max(0, Math.min(remaining, POLL_SLICE.toNanos()))));
                if (!records.isEmpty()) {
                    if (!member.canDeliver() || hasPendingLoss()) {
                        rewind(records); // ownership may be gone: hand out nothing stale
                        continue;
                    }
                    for (TopicPartition tp : records.partitions()) {
                        List<org.apache.kafka.clients.consumer.ConsumerRecord<K, V>> list = records.records(tp);
                        deliveredPositions.put(tp, list.get(list.size() - 1).offset() + 1);
                    }
                    return records;
                }
            } while (System.nanoTime() < deadline);
            return ConsumerRecords.empty();
        } finally {
            release();
        }
    }

    private ConsumerRecords<K, V> fetch(Duration slice) {
        try {
            return fetcher.poll(slice);
        } catch (WakeupException e) {
            userWakeup = false;
            events.removeIf(ev -> ev instanceof RebalanceEvent.Wakeup);
            throw e;
        }
    }

    private void rewind(ConsumerRecords<K, V> records) {
        for (TopicPartition tp : records.partitions()) {
            if (owned.contains(tp)) {
                fetcher.seek(tp, records.records(tp).get(0).offset());
            }
        }
    }

    private boolean hasPendingLoss() {
        return !events.isEmpty() && events.stream().anyMatch(e -> e instanceof RebalanceEvent.Lose);
    }

    private void awaitEvent(long nanos) {
        try {
            RebalanceEvent event = events.pollFirst(nanos, TimeUnit.NANOSECONDS);
            if (event != null) {
                events.addFirst(event);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptException(e);
        }
    }

    private void checkWakeup() {
        if (userWakeup) {
            userWakeup = false;
            events.removeIf(e -> e instanceof RebalanceEvent.Wakeup);
            throw new WakeupException();
        }
    }

    private void checkMember() {
        MemberHealth health = member.health();
        if (health.state() == MemberState.REFUSED) {
            throw new KafkaException("consumer " + consumerId + " was refused by group " + config.groupId() + ": "
                    + health.lastError().orElse("(no reason given)"));
        }
    }

    /** Processes ownership changes on this (the polling) thread. */
    private void drainEvents(boolean allowAssign) {
        RebalanceEvent event;
        KafkaException callbackError = null;
        while ((event = events.pollFirst()) != null) {
            try {
                if (event instanceof RebalanceEvent.Revoke revoke) {
                    if (revoke.done().isDone()) {
                        lose(revoke.partitions()); // the member gave up waiting for us: it is gone already
                    } else {
                        try {
                            revoke(revoke.partitions());
                        } finally {
                            revoke.done().complete(null);
                        }
                    }
                } else if (event instanceof RebalanceEvent.Lose lose) {
                    lose(lose.partitions());
                } else if (event instanceof RebalanceEvent.Assign assign) {
                    if (!allowAssign) {
                        events.addFirst(event);
                        return;
                    }
                    if (!assign(assign.partitions())) {
                        events.addFirst(event); // offsets unreadable right now: retry on the next round
                        return;
                    }
                } else if (event instanceof RebalanceEvent.Wakeup) {
                    userWakeup = true;
                }
            } catch (KafkaException e) {
                callbackError = e;
            }
        }
        if (callbackError != null) {
            throw callbackError;
        }
    }

    private void revoke(Set<TopicPartition> partitions) {
        Set<TopicPartition> mine = new HashSet<>(partitions);
        mine.retainAll(owned);
        RuntimeException listenerError = null;
        try {
            rebalanceListener.onPartitionsRevoked(Collections.unmodifiableSet(mine));
        } catch (RuntimeException e) {
            listenerError = e;
        }
        if (config.autoCommit() && member.canDeliver()) {
            try {
                commitOwned(positionsOf(mine));
            } catch (RuntimeException e) {
                LOG.warn("[{}] commit before revoking {} failed: {}", consumerId, mine, e.getMessage());
            }
        }
        unassign(mine);
        if (listenerError != null) {
            throw new KafkaException("onPartitionsRevoked of the rebalance listener failed", listenerError);
        }
    }

    private void lose(Set<TopicPartition> partitions) {
        Set<TopicPartition> mine = new HashSet<>(partitions);
        mine.retainAll(owned);
        unassign(mine);
        if (!mine.isEmpty()) {
            try {
                rebalanceListener.onPartitionsLost(Collections.unmodifiableSet(mine));
            } catch (RuntimeException e) {
                throw new KafkaException("onPartitionsLost of the rebalance listener failed", e);
            }
        }
    }

    private void unassign(Set<TopicPartition> partitions) {
        owned.removeAll(partitions);
        partitions.forEach(tp -> {
            deliveredPositions.remove(tp);
            lastCommitted.remove(tp);
        });
        fetcher.assign(new ArrayList<>(owned));
    }

    /** Reads committed offsets, seeks, tells the listener; false if offsets could not be read (retry later). */
    private boolean assign(Set<TopicPartition> partitions) {
        Map<TopicAndPartition, Long> committed;
        try {
            committed = offsets.read(config.groupId(), partitions.stream().map(ZkGroupConsumer::zk).toList());
        } catch (OffsetStoreException e) {
            LOG.warn("[{}] cannot read offsets of {} yet: {}", consumerId, partitions, e.getMessage());
            return false;
        }
        owned.addAll(partitions);
        fetcher.assign(new ArrayList<>(owned));
        List<TopicPartition> withoutOffset = new ArrayList<>();
        for (TopicPartition tp : partitions) {
            Long offset = committed.get(zk(tp));
            if (offset != null && offset >= 0) {
                fetcher.seek(tp, offset);
                lastCommitted.put(tp, offset);
            } else {
                withoutOffset.add(tp);
            }
        }
        if (!withoutOffset.isEmpty()) {
            switch (config.resetPolicy()) {
                case EARLIEST -> fetcher.seekToBeginning(withoutOffset);
                case LATEST -> fetcher.seekToEnd(withoutOffset);
                case NONE -> {
                    // the inner consumer has auto.offset.reset=none: its poll throws NoOffsetForPartitionException
                }
            }
        }
        try {
            rebalanceListener.onPartitionsAssigned(Collections.unmodifiableSet(new HashSet<>(partitions)));
        } catch (RuntimeException e) {
            throw new KafkaException("onPartitionsAssigned of the rebalance listener failed", e);
        }
        return true;
    }

    // --- commits ----------------------------------------------------------------------------------------

    private void maybeAutoCommit() {
        long now = System.nanoTime();
        if (autoCommit && now >= nextAutoCommitNanos) {
            nextAutoCommitNanos = now + config.autoCommitInterval().toNanos();
            if (!owned.isEmpty() && member.canDeliver()) {
                try {
                    commitOwned(positionsOf(owned));
                } catch (RuntimeException e) {
                    LOG.warn("[{}] auto-commit failed (will retry in {} ms): {}", consumerId,
                            config.autoCommitInterval().toMillis(), e.getMessage());
                }
            }
        }
        if (now >= nextOffsetsRefreshNanos) {
            // Kafka drops offsets not committed for offsets.retention.minutes: re-commit idle partitions
            nextOffsetsRefreshNanos = now + config.offsetsRefresh().toNanos();
            if (config.offsetsStorage() == ZkConsumerConfig.OffsetsStorage.KAFKA && !lastCommitted.isEmpty()
                    && member.canDeliver()) {
                try {
                    Map<TopicPartition, Long> idle = new HashMap<>(lastCommitted);
                    idle.keySet().retainAll(owned);
                    store(idle);
                } catch (RuntimeException e) {
                    LOG.warn("[{}] refreshing Kafka offsets failed: {}", consumerId, e.getMessage());
                }
            }
        }
    }

    private Map<TopicPartition, Long> positionsOf(Set<TopicPartition> partitions) {
        Map<TopicPartition, Long> positions = new HashMap<>();
        for (TopicPartition tp : partitions) {
            if (owned.contains(tp)) {
                positions.put(tp, fetcher.position(tp));
            }
        }
        return positions;
    }

    /** Commits only what this member owns, and only while its lease holds. */
    private void commitOwned(Map<TopicPartition, Long> positions) {
        Set<TopicPartition> foreign = new HashSet<>(positions.keySet());
        foreign.removeAll(owned);
        if (!foreign.isEmpty()) {
            throw new CommitFailedException("cannot commit offsets of " + foreign + ": they are not assigned to "
                    + consumerId + " in group " + config.groupId() + " (a rebalance moved them; the new owner's "
                    + "offsets must not be overwritten)");
        }
        if (member == null || !member.canDeliver()) {
            throw new CommitFailedException("cannot commit: the ZooKeeper session of " + consumerId
                    + " may have expired, so the partitions may already belong to another member");
        }
        Map<TopicPartition, Long> changed = new HashMap<>();
        positions.forEach((tp, offset) -> {
            if (!offset.equals(lastCommitted.get(tp))) {
                changed.put(tp, offset);
            }
        });
        store(changed);
    }

    private void store(Map<TopicPartition, Long> positions) {
        if (positions.isEmpty()) {
            return;
        }
        Map<TopicAndPartition, Long> request = new HashMap<>();
        positions.forEach((tp, offset) -> request.put(zk(tp), offset));
        try {
            Set<TopicAndPartition> accepted = offsets.commit(config.groupId(), request);
            accepted.forEach(tp -> lastCommitted.put(new TopicPartition(tp.topic(), tp.partition()), request.get(tp)));
        } catch (OffsetStoreException e) {
            throw new KafkaException(e.getMessage(), e);
        }
    }

    /** On the member's thread, when the application did not poll in time for a revocation. */
    private void commitFromMemberThread(Set<TopicPartition> partitions) {
        if (!config.autoCommit() || member == null || !member.canDeliver()) {
            return;
        }
        Map<TopicAndPartition, Long> request = new HashMap<>();
        partitions.forEach(tp -> {
            Long position = deliveredPositions.get(tp);
            if (position != null) {
                request.put(zk(tp), position);
            }
        });
        try {
            offsets.commit(config.groupId(), request);
        } catch (RuntimeException e) {
            LOG.warn("[{}] commit of {} on revocation timeout failed: {}", consumerId, partitions, e.getMessage());
        }
    }

    @Override
    public void commitSync() {
        commitSync(Duration.ofSeconds(60));
    }

    @Override
    public void commitSync(Duration timeout) {
        acquire();
        try {
            ensureOpen();
            commitOwned(positionsOf(owned));
        } finally {
            release();
        }
    }

    @Override
    public void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets) {
        commitSync(offsets, Duration.ofSeconds(60));
    }

    @Override
    public void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets, Duration timeout) {
        acquire();
        try {
            ensureOpen();
            Map<TopicPartition, Long> positions = new HashMap<>();
            offsets.forEach((tp, om) -> positions.put(tp, om.offset()));
            commitOwned(positions);
        } finally {
            release();
        }
    }

    @Override
    public void commitAsync() {
        commitAsync(null);
    }

    @Override
    public void commitAsync(OffsetCommitCallback callback) {
        acquire();
        try {
            Map<TopicPartition, OffsetAndMetadata> positions = new HashMap<>();
            positionsOf(owned).forEach((tp, offset) -> positions.put(tp, new OffsetAndMetadata(offset)));
            commitAsync(positions, callback);
        } finally {
            release();
        }
    }

    @Override
    public void commitAsync(Map<TopicPartition, OffsetAndMetadata> offsets, OffsetCommitCallback callback) {
        acquire();
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
            release();
        }
    }

    @Override
    @Deprecated
    public OffsetAndMetadata committed(TopicPartition partition) {
        return committed(Set.of(partition)).get(partition);
    }

    @Override
    @Deprecated
    public OffsetAndMetadata committed(TopicPartition partition, Duration timeout) {
        return committed(partition);
    }

    @Override
    public Map<TopicPartition, OffsetAndMetadata> committed(Set<TopicPartition> partitions) {
        acquire();
        try {
            Map<TopicPartition, OffsetAndMetadata> result = new HashMap<>();
            Map<TopicAndPartition, Long> stored;
            try {
                stored = offsets.read(config.groupId(), partitions.stream().map(ZkGroupConsumer::zk).toList());
            } catch (OffsetStoreException e) {
                throw new KafkaException(e.getMessage(), e);
            }
            for (TopicPartition tp : partitions) {
                Long offset = stored.get(zk(tp));
                result.put(tp, offset == null ? null : new OffsetAndMetadata(offset));
            }
            return result;
        } finally {
            release();
        }
    }

    @Override
    public Map<TopicPartition, OffsetAndMetadata> committed(Set<TopicPartition> partitions, Duration timeout) {
        return committed(partitions);
    }

    // --- delegated to the fetcher ---------------------------------------------------------------------------

    @Override
    public void seek(TopicPartition partition, long offset) {
        acquire();
        try {
            fetcher.seek(partition, offset);
        } finally {
            release();
        }
    }

    @Override
    public void seek(TopicPartition partition, OffsetAndMetadata offsetAndMetadata) {
        acquire();
        try {
            fetcher.seek(partition, offsetAndMetadata);
        } finally {
            release();
        }
    }

    @Override
    public void seekToBeginning(Collection<TopicPartition> partitions) {
        acquire();
        try {
            fetcher.seekToBeginning(partitions);
        } finally {
            release();
        }
    }

    @Override
    public void seekToEnd(Collection<TopicPartition> partitions) {
        acquire();
        try {
            fetcher.seekToEnd(partitions);
        } finally {
            release();
        }
    }

    @Override
    public long position(TopicPartition partition) {
        acquire();
        try {
            return fetcher.position(partition);
        } finally {
            release();
        }
    }

    @Override
    public long position(TopicPartition partition, Duration timeout) {
        acquire();
        try {
            return fetcher.position(partition, timeout);
        } finally {
            release();
        }
    }

    @Override
    public Uuid clientInstanceId(Duration timeout) {
        return fetcher.clientInstanceId(timeout);
    }

    @Override
    public Map<MetricName, ? extends Metric> metrics() {
        return fetcher.metrics();
    }

    @Override
    public List<PartitionInfo> partitionsFor(String topic) {
        return fetcher.partitionsFor(topic);
    }

    @Override
    public List<PartitionInfo> partitionsFor(String topic, Duration timeout) {
        return fetcher.partitionsFor(topic, timeout);
    }

    @Override
    public Map<String, List<PartitionInfo>> listTopics() {
        return fetcher.listTopics();
    }

    @Override
    public Map<String, List<PartitionInfo>> listTopics(Duration timeout) {
        return fetcher.listTopics(timeout);
    }

    @Override
    public Set<TopicPartition> paused() {
        return fetcher.paused();
    }

    @Override
    public void pause(Collection<TopicPartition> partitions) {
        acquire();
        try {
            fetcher.pause(partitions);
        } finally {
            release();
        }
    }

    @Override
    public void resume(Collection<TopicPartition> partitions) {
        acquire();
        try {
            fetcher.resume(partitions);
        } finally {
            release();
        }
    }

    @Override
    public Map<TopicPartition, OffsetAndTimestamp> offsetsForTimes(Map<TopicPartition, Long> timestampsToSearch) {
        return fetcher.offsetsForTimes(timestampsToSearch);
    }

    @Override
    public Map<TopicPartition, OffsetAndTimestamp> offsetsForTimes(Map<TopicPartition, Long> timestampsToSearch, Duration timeout) {
        return fetcher.offsetsForTimes(timestampsToSearch, timeout);
    }

    @Override
    public Map<TopicPartition, Long> beginningOffsets(Collection<TopicPartition> partitions) {
        return fetcher.beginningOffsets(partitions);
    }

    @Override
    public Map<TopicPartition, Long> beginningOffsets(Collection<TopicPartition> partitions, Duration timeout) {
        return fetcher.beginningOffsets(partitions, timeout);
    }

    @Override
    public Map<TopicPartition, Long> endOffsets(Collection<TopicPartition> partitions) {
        return fetcher.endOffsets(partitions);
    }

    @Override
    public Map<TopicPartition, Long> endOffsets(Collection<TopicPartition> partitions, Duration timeout) {
        return fetcher.endOffsets(partitions, timeout);
    }

    @Override
    public OptionalLong currentLag(TopicPartition topicPartition) {
        return fetcher.currentLag(topicPartition);
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
        GroupMember current = member;
        if (current != null) {
            current.requestRebalance(reason == null ? "requested by the application" : reason);
        }
    }

    /** The group member behind this consumer (health, owned partitions), or empty when not subscribed. */
    public java.util.Optional<MemberHealth> groupHealth() {
        GroupMember current = member;
        return current == null ? java.util.Optional.empty() : java.util.Optional.of(current.health());
    }

    public ConsumerId consumerId() {
        return consumerId;
    }

    // --- lifecycle --------------------------------------------------------------------------------------------

    @Override
    public void wakeup() {
        userWakeup = true;
        events.add(new RebalanceEvent.Wakeup());
        fetcher.wakeup();
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(30));
    }

    /** Revokes (committing with auto-commit), leaves the group, closes the fetcher and ZooKeeper session. */
    @Override
    public void close(Duration timeout) {
        acquire();
        try {
            if (closed) {
                return;
            }
            closed = true;
            try {
                if (member != null) {
                    leaveGroup();
                }
            } finally {
                fetcher.close(timeout);
                topicMetadata.close();
                if (admin != null) {
                    admin.close(timeout);
                }
                curator.close();
            }
        } finally {
            release();
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("This consumer has already been closed.");
        }
    }

    /** Single-threaded access, as in KafkaConsumer (wakeup excepted). */
    private void acquire() {
        long thread = Thread.currentThread().getId();
        if (thread != currentThread.get() && !currentThread.compareAndSet(NO_THREAD, thread)) {
            throw new ConcurrentModificationException("ZkGroupConsumer is not safe for multi-threaded access");
        }
        refCount.incrementAndGet();
    }

    private void release() {
        if (refCount.decrementAndGet() == 0) {
            currentThread.set(NO_THREAD);
        }
    }

    private static TopicAndPartition zk(TopicPartition tp) {
        return new TopicAndPartition(tp.topic(), tp.partition());
    }

    private static final class NoOpListener implements ConsumerRebalanceListener {
        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
        }
    }
}
