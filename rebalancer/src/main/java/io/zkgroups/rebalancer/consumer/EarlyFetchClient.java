package io.zkgroups.rebalancer.consumer;

import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.function.Function;

/**
 * The fetch client of a successor that waits for its predecessor's ticket (docs/restarts.md), built while it waits
 * instead of after: the consumer keeps it. Its one request, the broker's topic list, loads kafka-clients' protocol
 * tables (every API's message classes and every error code, about a second of class loading in a fresh JVM), which
 * the first fetch after the ticket would otherwise pay while the partitions wait. Nothing is read from or written to
 * ZooKeeper.
 */
final class EarlyFetchClient {

    private static final Logger LOG = LoggerFactory.getLogger(EarlyFetchClient.class);

    /** How long the topic list may take: a broker that does not answer only means the tables load later. */
    private static final Duration METADATA_WAIT = Duration.ofSeconds(2);

    private EarlyFetchClient() {
    }

    /**
     * The consumer's fetch client, built with {@code newFetcher} and asked for the topic list once, when
     * {@code bootstrap.servers} is configured; null otherwise, or when it cannot be built (the consumer's own
     * construction will then say why). The caller owns it.
     */
    static <K, V> KafkaConsumer<K, V> build(ZkConsumerConfig config, Function<String, KafkaConsumer<K, V>> newFetcher) {
        return config.bootstrapServers().map(bootstrap -> build(bootstrap, newFetcher)).orElse(null);
    }

    private static <K, V> KafkaConsumer<K, V> build(String bootstrap, Function<String, KafkaConsumer<K, V>> newFetcher) {
        KafkaConsumer<K, V> fetcher;
        try {
            fetcher = newFetcher.apply(bootstrap);
        } catch (RuntimeException e) {
            LOG.debug("no early fetch client for {} ({}); the consumer's start will say why", bootstrap, e.toString());
            return null;
        }
        try {
            fetcher.listTopics(METADATA_WAIT);
        } catch (RuntimeException e) {
            LOG.debug("no topic list from {} ({}); the first fetch will say why", bootstrap, e.toString());
        }
        return fetcher;
    }
}
