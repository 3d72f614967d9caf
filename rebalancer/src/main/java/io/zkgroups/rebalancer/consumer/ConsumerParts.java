package io.zkgroups.rebalancer.consumer;

import io.zkgroups.rebalancer.group.KafkaTopicMetadata;
import io.zkgroups.rebalancer.group.TopicMetadata;
import io.zkgroups.rebalancer.group.ZkTopicMetadata;
import io.zkgroups.rebalancer.metrics.ConsumerMetrics;
import io.zkgroups.rebalancer.cutover.HandOffOffsets;
import io.zkgroups.rebalancer.restart.HandoverObserver;
import io.zkgroups.registry.Time;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.BrokerInfo;
import io.zkgroups.registry.model.ConsumerId;
import org.apache.curator.framework.CuratorFramework;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.KafkaConsumer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * What a {@link ZkGroupConsumer} drives, built in order — the restart ticket, the ZooKeeper client, the fetch client,
 * the admin client and topic metadata if needed, metrics, offset stores, then the state, fetcher, committer and
 * coordinator over them — each resource registered in the consumer's {@link ConsumerResources} as it is opened, so
 * that a failure halfway closes exactly what was opened.
 */
final class ConsumerParts<K, V> {

    final RestartHandover restart;
    final ConsumerId consumerId;
    final CuratorFramework curator;
    final KafkaConsumer<K, V> kafka;
    final ConsumerMetrics metrics;
    final OffsetReads offsetReads;
    final SubscriptionState state;
    final PartitionFetcher<K, V> fetcher;
    final OffsetCommitter committer;
    final GroupCoordinator coordinator;
    final RewindGuard rewindGuard;
    final CoordinationSwitch<K, V> cutover;

    /**
     * Opens everything into {@code opened}; the caller closes {@code opened} if this throws.
     *
     * @param newFetcher     builds the fetch client for the bootstrap servers it is given
     * @param newGroupClient builds a client of Kafka's group protocol from its properties (docs/cutover.md)
     */
    ConsumerParts(ZkConsumerConfig config, Function<String, KafkaConsumer<K, V>> newFetcher,
                  Function<Map<String, Object>, KafkaConsumer<K, V>> newGroupClient, HandoverObserver observer,
                  Duration defaultApiTimeout, ConsumerResources opened, Time time) {
        // a successor waiting for its ticket builds its fetch client meanwhile (EarlyFetchClient)
        List<KafkaConsumer<K, V>> early = new ArrayList<>(1);
        this.restart = RestartHandover.atStart(config, observer,
                () -> early.add(fetchClient(opened, EarlyFetchClient.build(config, newFetcher))));
        this.consumerId = ConsumerStartup.consumerIdOf(restart.consumerId(), config, time);
        CuratorFramework zooKeeper = ZooKeeperConnection.open(config, restart.handles());
        this.curator = opened.add("ZooKeeper client", zooKeeper, zooKeeper::close);
        ZkRegistry registry = ZkRegistry.of(curator);
        List<BrokerInfo> brokers = registry.brokers().list().entries();
        String bootstrap = config.bootstrapServers().orElseGet(() -> ConsumerStartup.bootstrapFrom(brokers, config));
        early.removeIf(Objects::isNull);
        // the early one was built with the configured bootstrap.servers, as this one would be
        this.kafka = early.isEmpty() ? fetchClient(opened, newFetcher.apply(bootstrap)) : early.get(0);
        boolean zkMetadata = !brokers.isEmpty();
        Admin admin = ConfiguredOffsetStores.needsKafka(config) || !zkMetadata
                ? Admin.create(config.adminProperties(bootstrap)) : null;
        opened.add("admin client", admin, () -> admin.close(Duration.ZERO));
        TopicMetadata topicMetadata = zkMetadata ? new ZkTopicMetadata(registry.topics())
                : new KafkaTopicMetadata(admin, config.metadataRefresh(), Duration.ofSeconds(30));
        opened.add("topic metadata", topicMetadata, topicMetadata::close);
        KafkaConsumer<K, V> fetchClient = kafka;
        ConsumerMetrics consumerMetrics = new ConsumerMetrics(config.clientId(), config.groupId(), config.legacyMBeans(),
                fetchClient::metrics, new RegisteredBrokers(registry, brokers, time), time);
        this.metrics = opened.add("metrics", consumerMetrics, consumerMetrics::close);
        HandOffOffsets offsets = ConfiguredOffsetStores.handingOff(config, registry, admin, metrics);
        OffsetReads reads = new OffsetReads(offsets, config.groupId(), config.clientId());
        this.offsetReads = opened.add("offset reads", reads, reads::close);
        this.state = new SubscriptionState(consumerId.toString(), config.groupId(), time);
        this.fetcher = new PartitionFetcher<>(kafka, state, config.resetPolicy(), defaultApiTimeout,
                config.connectEarly(), new UncommittedCap(config.maxUncommittedRecords()), time);
        consumerMetrics.kafkaReachability(() -> fetcher.reachability().snapshot().unreachableSince(),
                () -> fetcher.reachability().snapshot().unfetchable().size());
        OffsetCommitter commits = new OffsetCommitter(config, consumerId.toString(), offsets, state, metrics, time);
        this.committer = opened.add("commit thread", commits, commits::close);
        this.coordinator = new GroupCoordinator(config, consumerId, curator, topicMetadata, offsets, state, fetcher,
                committer, metrics, time);
        RewindGuard guard = new RewindGuard(config.rewindGuard(), curator, registry.offsets(), config.groupId(),
                consumerId.toString(), state, committer, metrics, coordinator::member, time);
        this.rewindGuard = opened.add("rewind guard", guard, guard::close);
        restart.resumed(curator).ifPresent(coordinator::resumeOnJoin);
        CoordinationSwitch<K, V> coordinationSwitch = new CoordinationSwitch<>(config, consumerId, curator, offsets,
                coordinator, state, newGroupClient, bootstrap, defaultApiTimeout, time);
        this.cutover = opened.add("coordination watch", coordinationSwitch, coordinationSwitch::close);
        cutover.start();
    }

    /**
     * Neither the fetch client nor the admin client waits on close: the fetcher joined no Kafka group and commits
     * nothing, and every commit through the admin client has returned. Waiting would only close the broker's fetch
     * sessions politely (it evicts them anyway) at the cost of a round trip to each broker.
     */
    private static <K, V> KafkaConsumer<K, V> fetchClient(ConsumerResources opened, KafkaConsumer<K, V> client) {
        return opened.add("fetch client", client, () -> client.close(Duration.ZERO));
    }
}
