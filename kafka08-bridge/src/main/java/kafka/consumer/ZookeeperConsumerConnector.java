package kafka.consumer;

import io.zkgroups.kafka08.FetchLoop;
import io.zkgroups.kafka08.HandOutLedger;
import io.zkgroups.kafka08.StreamChannel;
import io.zkgroups.kafka08.StreamRouting;
import io.zkgroups.rebalancer.consumer.ZkGroupConsumer;
import io.zkgroups.registry.Time;
import io.zkgroups.registry.model.Subscription;
import kafka.common.MessageStreamsExistException;
import kafka.serializer.Decoder;
import org.apache.kafka.common.serialization.ByteBufferDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The connector behind {@link kafka.javaapi.consumer.ZookeeperConsumerConnector} (which keeps it in a field named
 * {@code underlying}, as 0.8.2.2 does): one {@link ZkGroupConsumer} in the group, its fetcher thread, and the streams.
 * <p>
 * Unlike 0.8.2.2's class of this name it has no Scala API: use the Java one.
 */
public class ZookeeperConsumerConnector {

    private static final Logger LOG = LoggerFactory.getLogger(ZookeeperConsumerConnector.class);

    private final ConsumerConfig config;
    private final boolean enableFetcher;
    private final ZkGroupConsumer<ByteBuffer, ByteBuffer> consumer;
    private final HandOutLedger ledger = new HandOutLedger();
    private FetchLoop loop;
    private boolean shutDown;

    /**
     * Connects to ZooKeeper; joins the group when the streams are created.
     *
     * @param enableFetcher false: members register and own partitions but nothing is handed out (0.8.2.2's testing
     *                      constructor)
     */
    public ZookeeperConsumerConnector(ConsumerConfig config, boolean enableFetcher) {
        this.config = Objects.requireNonNull(config, "config");
        this.enableFetcher = enableFetcher;
        // keys and values stay views of the fetched buffers until a stream's iterator copies them (ConsumerIterator)
        this.consumer = new ZkGroupConsumer<>(config.consumerConfig(), new ByteBufferDeserializer(),
                new ByteBufferDeserializer());
    }

    public ZookeeperConsumerConnector(ConsumerConfig config) {
        this(config, true);
    }

    /** {@code <group.id>_<consumer.id>}, or with a generated consumer id, as registered under {@code /consumers/G/ids}. */
    public String consumerIdString() {
        return consumer.consumerId().toString();
    }

    /** Streams of each topic: {@code topicCountMap.get(topic)} of them, consumer threads {@code CID-0..n-1}. */
    public <K, V> Map<String, List<KafkaStream<K, V>>> createMessageStreams(
            Map<String, Integer> topicCountMap, Decoder<K> keyDecoder, Decoder<V> valueDecoder) {
        Objects.requireNonNull(topicCountMap, "topicCountMap");
        requireDecoders(keyDecoder, valueDecoder);
        topicCountMap.forEach((topic, count) -> {
            if (count == null || count < 1) {
                throw new IllegalArgumentException("topicCountMap: topic " + topic + " needs at least 1 stream, got " + count);
            }
        });
        Subscription subscription = Subscription.topics(topicCountMap);
        Map<String, List<KafkaStream<K, V>>> streams = new LinkedHashMap<>();
        FetchLoop created;
        synchronized (this) {
            created = newLoop(subscription);
            Map<String, List<StreamChannel>> channels = new LinkedHashMap<>();
            topicCountMap.forEach((topic, count) -> {
                List<StreamChannel> perTopic = new ArrayList<>();
                List<KafkaStream<K, V>> topicStreams = new ArrayList<>();
                for (int i = 0; i < count; i++) {
                    StreamChannel channel = newChannel(created);
                    perTopic.add(channel);
                    topicStreams.add(new KafkaStream<>(channel, keyDecoder, valueDecoder, config.clientId()));
                }
                channels.put(topic, perTopic);
                streams.put(topic, topicStreams);
                queueGauges(topic, perTopic);
            });
            start(created, (tp, thread) -> pick(channels.get(tp.topic()), tp.topic(), thread));
        }
        awaitFirstRebalance(created);
        return streams;
    }

    /** {@code numStreams} streams shared by every topic {@code filter} takes, now and later. */
    public <K, V> List<KafkaStream<K, V>> createMessageStreamsByFilter(
            TopicFilter filter, int numStreams, Decoder<K> keyDecoder, Decoder<V> valueDecoder) {
        Objects.requireNonNull(filter, "filter");
        requireDecoders(keyDecoder, valueDecoder);
        if (numStreams < 1) {
            throw new IllegalArgumentException("numStreams must be at least 1, got " + numStreams);
        }
        List<KafkaStream<K, V>> streams = new ArrayList<>();
        FetchLoop created;
        synchronized (this) {
            created = newLoop(filter.subscription(numStreams));
            List<StreamChannel> channels = new ArrayList<>();
            for (int i = 0; i < numStreams; i++) {
                StreamChannel channel = newChannel(created);
                channels.add(channel);
                streams.add(new KafkaStream<>(channel, keyDecoder, valueDecoder, config.clientId()));
            }
            Set<String> gauged = ConcurrentHashMap.newKeySet();
            start(created, (tp, thread) -> {
                if (gauged.add(tp.topic())) {
                    queueGauges(tp.topic(), channels); // as 0.8.2.2: each matched topic, every stream
                }
                return pick(channels, filter.regex(), thread);
            });
        }
        awaitFirstRebalance(created);
        return streams;
    }

    /** Commits the positions of every message handed out so far. Returns when they are stored. */
    public void commitOffsets() {
        FetchLoop current;
        synchronized (this) {
            current = loop;
            if (current == null) {
                if (shutDown) {
                    throw new IllegalStateException(consumerIdString() + " has been shut down");
                }
                return; // no streams: nothing handed out
            }
        }
        current.commit();
    }

    /**
     * Ends every stream, commits what was handed out (with {@code auto.commit.enable}), leaves the group and closes
     * the connections. Idempotent.
     */
    public void shutdown() {
        FetchLoop current;
        synchronized (this) {
            if (shutDown) {
                return;
            }
            shutDown = true;
            current = loop;
        }
        if (current != null) {
            current.stop();
        } else {
            consumer.close();
        }
    }

    // --- internals -----------------------------------------------------------------------------------------------

    private FetchLoop newLoop(Subscription subscription) {
        if (loop != null) {
            throw new MessageStreamsExistException(getClass().getSimpleName() + " can create message streams at most once", null);
        }
        if (shutDown) {
            throw new IllegalStateException(consumerIdString() + " has been shut down");
        }
        FetchLoop.Settings settings = new FetchLoop.Settings(config.autoCommitEnable(),
                Duration.ofMillis(config.autoCommitIntervalMs()), enableFetcher,
                config.consumerConfig().offsetsStorage().needsKafka() ? config.consumerConfig().rebalanceKafkaTimeout()
                        : null);
        return new FetchLoop(consumer, subscription, ledger, settings, consumerIdString(), Time.SYSTEM);
    }

    private StreamChannel newChannel(FetchLoop fetchLoop) {
        // 0.8.2.2's bound: so many chunks of a full fetch each
        return fetchLoop.newStream((long) config.queuedMaxMessages() * config.fetchMessageMaxBytes(),
                config.consumerTimeoutMs());
    }

    private void start(FetchLoop created, StreamRouting routing) {
        loop = created;
        created.start(routing);
    }

    /**
     * Waits, like 0.8.2.2's {@code createMessageStreams}, until the first rebalance is applied; bounded by
     * {@code rebalance.max.retries} x {@code rebalance.backoff.ms} + {@code zookeeper.session.timeout.ms} (after which
     * the streams are returned anyway and fill once the group settles). Not under the connector's lock: a shutdown
     * from another thread ends the wait.
     */
    private void awaitFirstRebalance(FetchLoop created) {
        long waitMs = (long) config.rebalanceMaxRetries() * config.rebalanceBackoffMs() + config.zkSessionTimeoutMs();
        try {
            created.ready().get(waitMs, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            LOG.warn("[{}] the group has not settled within {} ms; the streams fill once it has", consumerIdString(), waitMs);
        } catch (ExecutionException | CompletionException e) {
            Throwable cause = e.getCause();
            throw cause instanceof RuntimeException ? (RuntimeException) cause : new IllegalStateException(cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while joining the group", e);
        }
    }

    /** 0.8.2.2's {@code FetchQueueSize} gauges of {@code topic}'s streams; threadId is the stream's number. */
    private void queueGauges(String topic, List<StreamChannel> channels) {
        consumer.legacyMBeans().ifPresent(mbeans -> {
            for (int i = 0; i < channels.size(); i++) {
                mbeans.streamQueue(topic, Integer.toString(i), channels.get(i)::queuedChunks);
            }
        });
    }

    private static StreamChannel pick(List<StreamChannel> channels, String what, int thread) {
        if (channels == null || thread < 0 || thread >= channels.size()) {
            throw new IllegalStateException("the group assigned consumer thread " + thread + " of " + what + ", but this "
                    + "connector has " + (channels == null ? 0 : channels.size()) + " streams for it");
        }
        return channels.get(thread);
    }

    private static void requireDecoders(Decoder<?> keyDecoder, Decoder<?> valueDecoder) {
        Objects.requireNonNull(keyDecoder, "keyDecoder");
        Objects.requireNonNull(valueDecoder, "valueDecoder");
    }
}
