package kafka.consumer;

import io.zkgroups.rebalancer.config.ConsumerKeys;
import io.zkgroups.rebalancer.consumer.ZkConsumerConfig;
import kafka.utils.VerifiableProperties;
import kafka.utils.ZKConfig;
import org.apache.kafka.common.config.ConfigException;

import java.util.Optional;
import java.util.Properties;

/**
 * A 0.8.2.2 high-level consumer's configuration: every 0.8.2.2 consumer property with its 0.8.2.2 default, plus
 * kafka-clients fetch properties (such as {@code bootstrap.servers}) and {@code zkgroups.*} extras, checked when
 * constructed. A missing {@code group.id} or {@code zookeeper.connect}, or a bad value, fails here naming the property
 * and the value ({@link IllegalArgumentException}, as in 0.8.2.2); an unknown key is logged and ignored.
 * <p>
 * JVM system properties {@code zkgroups.consumer.<key>} supply properties the program does not set, so that a 0.8
 * program whose properties are written in its code can be pointed at what 0.8 did not need without changing it: for
 * instance {@code -Dzkgroups.consumer.bootstrap.servers=broker:9092} for Kafka 4 brokers in KRaft mode, which register
 * nothing in ZooKeeper. The program's own properties win.
 * <p>
 * Differs from 0.8.2.2: {@link #consumerId()} is a {@link Optional} (a {@code scala.Option} in 0.8.2.2), the static
 * default-value accessors ({@code ConsumerConfig.AutoCommit()}, ...) and the Scala logging methods are absent.
 */
public class ConsumerConfig extends ZKConfig {

    /** kafka-clients' records per poll, for the connector's consumer: see the constructor. */
    private static final String MAX_POLL_RECORDS = "max.poll.records";
    /**
     * What sizes the connector's polls: a message of this many bytes (its 26 of overhead and some data). Small enough
     * that a poll of small messages fills a chunk, large enough that a poll of 1 KB messages (4 MB) does not copy much
     * more than the streams can take (see the constructor).
     */
    private static final int POLL_SIZING_MESSAGE_BYTES = 256;

    /** Prefix of the JVM system properties that fill in consumer properties the program does not set. */
    public static final String SYSTEM_PROPERTY_PREFIX = "zkgroups.consumer.";

    private final VerifiableProperties props;
    private final boolean autoCommitEnable;
    /** The configuration of the connector's ZkGroupConsumer, which never auto-commits by itself: the connector does. */
    private final ZkConsumerConfig consumerConfig;

    public ConsumerConfig(Properties originalProps) {
        this(withSystemDefaults(originalProps));
    }

    private ConsumerConfig(VerifiableProperties effective) {
        super(effective);
        this.props = effective;
        this.autoCommitEnable = props.getBoolean("auto.commit.enable", true);
        Properties inner = new Properties();
        inner.putAll(effective.props());
        inner.setProperty("auto.commit.enable", "false");
        inner.remove("enable.auto.commit"); // the connector's own setting is auto.commit.enable, read above
        if (!inner.containsKey(MAX_POLL_RECORDS)) {
            // A stream's chunk is what one poll brought of a partition: at kafka-clients' 500 records a poll, the
            // fetcher thread and the streams spent their time handing small chunks over. Nor may a poll be much larger
            // than the streams' queues (queued.max.message.chunks x fetch.message.max.bytes): kafka-clients copies
            // every record it returns out of the fetched buffers, and what waits for room is copied long before it is
            // read, out of the CPU's caches (at 1 KB a message, polls of 20,000 cost a quarter of the throughput).
            int fetchBytes = props.getInt("fetch.message.max.bytes", 1024 * 1024);
            inner.setProperty(MAX_POLL_RECORDS, Integer.toString(Math.max(500, fetchBytes / POLL_SIZING_MESSAGE_BYTES)));
        }
        if (autoCommitEnable && !inner.containsKey(ConsumerKeys.MAX_UNCOMMITTED_RECORDS)) {
            // the connector commits at the cap as the consumer's own auto-commit would: the same default
            inner.setProperty(ConsumerKeys.MAX_UNCOMMITTED_RECORDS,
                    Integer.toString(ConsumerKeys.DEFAULT_MAX_UNCOMMITTED_RECORDS));
        }
        try {
            this.consumerConfig = ZkConsumerConfig.from(inner);
        } catch (ConfigException e) {
            throw new IllegalArgumentException(e.getMessage(), e); // what 0.8.2.2 throws
        }
    }

    /** The program's properties over those given as {@code -Dzkgroups.consumer.<key>=<value>}. */
    private static VerifiableProperties withSystemDefaults(Properties originalProps) {
        Properties effective = new Properties();
        Properties system = System.getProperties();
        system.stringPropertyNames().stream().filter(k -> k.startsWith(SYSTEM_PROPERTY_PREFIX))
                .forEach(k -> effective.setProperty(k.substring(SYSTEM_PROPERTY_PREFIX.length()), system.getProperty(k)));
        originalProps.stringPropertyNames().forEach(k -> effective.setProperty(k, originalProps.getProperty(k)));
        return new VerifiableProperties(effective);
    }

    /** The inner ZkGroupConsumer's configuration (auto-commit off: the connector commits what it handed out). */
    ZkConsumerConfig consumerConfig() {
        return consumerConfig;
    }

    public VerifiableProperties props() {
        return props;
    }

    public String groupId() {
        return get("group.id");
    }

    /** {@code consumer.id}, when set (0.8.2.2 returns a {@code scala.Option}). */
    public Optional<String> consumerId() {
        return consumerConfig.consumerIdOverride();
    }

    public int socketTimeoutMs() {
        return intValue("socket.timeout.ms");
    }

    public int socketReceiveBufferBytes() {
        return intValue("socket.receive.buffer.bytes");
    }

    public int fetchMessageMaxBytes() {
        return intValue("fetch.message.max.bytes");
    }

    public int numConsumerFetchers() {
        return intValue("num.consumer.fetchers");
    }

    public boolean autoCommitEnable() {
        return autoCommitEnable;
    }

    public int autoCommitIntervalMs() {
        return intValue("auto.commit.interval.ms");
    }

    /**
     * {@code queued.max.message.chunks}: with {@code fetch.message.max.bytes}, what each stream queues at most (so many
     * full fetches' worth of messages).
     */
    public int queuedMaxMessages() {
        return intValue("queued.max.message.chunks");
    }

    public int rebalanceMaxRetries() {
        return intValue("rebalance.max.retries");
    }

    public int fetchMinBytes() {
        return intValue("fetch.min.bytes");
    }

    public int fetchWaitMaxMs() {
        return intValue("fetch.wait.max.ms");
    }

    public int rebalanceBackoffMs() {
        return intValue("rebalance.backoff.ms");
    }

    public int refreshLeaderBackoffMs() {
        return intValue("refresh.leader.backoff.ms");
    }

    public int offsetsChannelBackoffMs() {
        return intValue("offsets.channel.backoff.ms");
    }

    public int offsetsChannelSocketTimeoutMs() {
        return intValue("offsets.channel.socket.timeout.ms");
    }

    public int offsetsCommitMaxRetries() {
        return intValue("offsets.commit.max.retries");
    }

    public String offsetsStorage() {
        return get("offsets.storage");
    }

    public boolean dualCommitEnabled() {
        return consumerConfig.dualCommit();
    }

    public String autoOffsetReset() {
        return get("auto.offset.reset");
    }

    /** {@code consumer.timeout.ms}: how long a stream's iterator waits for a message; -1 (the default) is forever. */
    public int consumerTimeoutMs() {
        return intValue("consumer.timeout.ms");
    }

    public String clientId() {
        return get("client.id");
    }

    public boolean excludeInternalTopics() {
        return consumerConfig.excludeInternalTopics();
    }

    public String partitionAssignmentStrategy() {
        return consumerConfig.assignmentStrategy();
    }

    private String get(String key) {
        return consumerConfig.get(key);
    }

    private int intValue(String key) {
        return Integer.parseInt(get(key));
    }
}
