package io.zkgroups.rebalancer.consumer;

import io.zkgroups.rebalancer.restart.HandoverZooKeeperFactory;
import io.zkgroups.registry.codec.CodecWarmUp;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Optional;

/**
 * The start-up path done once for nothing, by a successor that waits for its predecessor's ticket (docs/restarts.md):
 * what a fresh JVM pays the first time — class loading, static tables, Jackson — then costs nothing after the ticket
 * arrives, while the group waits. Nothing here touches the group: the ZooKeeper client is built but never started,
 * and Kafka is asked only for its topic list.
 */
final class StartUpWarmUp {

    private static final Logger LOG = LoggerFactory.getLogger(StartUpWarmUp.class);

    /**
     * How long the throwaway consumer may wait for the broker. Its one request initialises kafka-clients' protocol
     * tables (every API's message classes and every error code, about a second of class loading in a fresh JVM),
     * which the first fetch would otherwise pay for.
     */
    private static final Duration METADATA_WAIT = Duration.ofSeconds(2);

    private StartUpWarmUp() {
    }

    static void run(ZkConsumerConfig config) {
        CodecWarmUp.run();
        ZooKeeperConnection.build(config, new HandoverZooKeeperFactory(Optional.empty())).close(); // never started
        config.bootstrapServers().ifPresent(bootstrap -> {
            try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config.fetchClientProperties(bootstrap),
                    new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
                consumer.listTopics(METADATA_WAIT);
            } catch (RuntimeException e) {
                LOG.debug("warm-up: no topic list from {} ({}); the real consumer will say why", bootstrap, e.toString());
            }
        });
    }
}
