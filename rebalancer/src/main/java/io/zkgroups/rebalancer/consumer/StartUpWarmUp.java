package io.zkgroups.rebalancer.consumer;

import io.zkgroups.rebalancer.group.GroupMember;
import io.zkgroups.rebalancer.group.GroupMemberConfig;
import io.zkgroups.rebalancer.group.MembershipListener;
import io.zkgroups.rebalancer.restart.HandoverZooKeeperFactory;
import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.codec.CodecWarmUp;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.Subscription;
import org.apache.curator.framework.CuratorFramework;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The start-up path done before it is needed, by a successor that waits for its predecessor's ticket
 * (docs/restarts.md): what a fresh JVM pays the first time — class loading, static tables, Jackson — then costs
 * nothing after the ticket arrives, while the group waits. Nothing here changes the group: ZooKeeper is read on a
 * session of the warm-up's own, and Kafka is asked only for its topic list, by the fetch client the consumer then
 * keeps (built once, connected already).
 */
final class StartUpWarmUp {

    private static final Logger LOG = LoggerFactory.getLogger(StartUpWarmUp.class);

    /**
     * How long the fetch client may wait for the broker. Its one request initialises kafka-clients' protocol
     * tables (every API's message classes and every error code, about a second of class loading in a fresh JVM),
     * which the first fetch would otherwise pay for.
     */
    private static final Duration METADATA_WAIT = Duration.ofSeconds(2);
    /** The unstarted member's consumer id and topic: it never registers or reads a topic. */
    private static final String WARM_UP_ID = "zkgroups-warm-up";

    private StartUpWarmUp() {
    }

    /**
     * Runs the warm-up; returns the consumer's fetch client, built with {@code newFetcher} and warmed by one request,
     * when {@code bootstrap.servers} is configured (null otherwise, or when it cannot be built: the consumer's own
     * construction will then say why). The caller owns it.
     */
    static <K, V> KafkaConsumer<K, V> run(ZkConsumerConfig config, Function<String, KafkaConsumer<K, V>> newFetcher) {
        CodecWarmUp.run();
        connectAndRead(config);
        return config.bootstrapServers().map(bootstrap -> warmedFetcher(bootstrap, newFetcher)).orElse(null);
    }

    private static <K, V> KafkaConsumer<K, V> warmedFetcher(String bootstrap,
                                                            Function<String, KafkaConsumer<K, V>> newFetcher) {
        KafkaConsumer<K, V> fetcher;
        try {
            fetcher = newFetcher.apply(bootstrap);
        } catch (RuntimeException e) {
            LOG.debug("warm-up: no fetch client for {} ({}); the real consumer will say why", bootstrap, e.toString());
            return null;
        }
        try {
            fetcher.listTopics(METADATA_WAIT);
        } catch (RuntimeException e) {
            LOG.debug("warm-up: no topic list from {} ({}); the real consumer will say why", bootstrap, e.toString());
        }
        return fetcher;
    }

    /**
     * A ZooKeeper connection of its own (a new session, never the handed-over one), a read of the group through the
     * registry, and a member built and closed unstarted: the ZooKeeper client's connection path, Curator's pipeline
     * and the member's classes are loaded before the ticket rather than right after it. Read-only.
     */
    private static void connectAndRead(ZkConsumerConfig config) {
        CuratorFramework client = null;
        try {
            client = ZooKeeperConnection.open(config, new HandoverZooKeeperFactory(Optional.empty()));
            ZkRegistry registry = ZkRegistry.of(client);
            registry.members().list(config.groupId());
            registry.owners().owners(config.groupId());
            GroupMemberConfig member = GroupMemberConfig.of(config.groupId(),
                    ConsumerId.ofOverride(config.groupId(), WARM_UP_ID), Subscription.topics(Map.of(WARM_UP_ID, 1)));
            GroupMember.onZooKeeper(client, ZkLayout.root(), member, MembershipListener.NONE).close();
        } catch (RuntimeException e) {
            LOG.debug("warm-up: no read of group {} ({}); the real consumer will say why", config.groupId(), e.toString());
        } finally {
            if (client != null) {
                client.close(); // a HandoverZooKeeperFactory handle: its close does not wait for the client's threads
            }
        }
    }
}
