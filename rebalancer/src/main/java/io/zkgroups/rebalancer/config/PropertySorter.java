package io.zkgroups.rebalancer.config;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.config.ConfigException;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Sorts the properties given to a consumer by who reads them: the consumer's own keys ({@link ConsumerKeys}, a Kafka
 * name of one of them counting as that key), ZooKeeper security keys, kafka-clients keys for the fetch client, and
 * keys that are ignored with a warning (Kafka group-protocol settings without an equivalent, unknown keys).
 * <p>
 * A setting given under both its 0.8 and its Kafka name must have one value: {@code enable.auto.commit=false} with
 * {@code auto.commit.enable=true} is an error naming both keys.
 */
public final class PropertySorter {

    /** kafka-clients keys of Kafka's own group protocol that the ZooKeeper protocol has no equivalent of. */
    private static final Map<String, String> WITHOUT_EQUIVALENT;

    static {
        Map<String, String> without = new LinkedHashMap<>();
        without.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "static membership is Kafka's group protocol; a restart "
                + "without a rebalance is zkgroups.restart.handover.file");
        without.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "the group is coordinated through ZooKeeper");
        without.put(ConsumerConfig.GROUP_REMOTE_ASSIGNOR_CONFIG, "the group is coordinated through ZooKeeper");
        without.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, "the ZooKeeper client pings every third of "
                + "zookeeper.session.timeout.ms");
        without.put(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, "a slow poll loop does not leave the group; a "
                + "revocation waits for the poll thread up to zkgroups.revoke.timeout.ms");
        WITHOUT_EQUIVALENT = Collections.unmodifiableMap(without);
    }

    private final Map<String, Object> consumer = new HashMap<>();
    private final Map<String, Object> security = new HashMap<>();
    private final Map<String, Object> client = new HashMap<>();
    private final List<String> warnings = new ArrayList<>();

    private PropertySorter() {
    }

    /**
     * Sorts {@code properties}; {@code isSecurityKey} tells the ZooKeeper security keys.
     *
     * @throws ConfigException if a property has no value, or a setting is given two values under its two names
     */
    public static PropertySorter sort(Map<String, ?> properties, Predicate<String> isSecurityKey) {
        PropertySorter sorted = new PropertySorter();
        Map<String, String> givenAs = new HashMap<>();
        Set<String> clientNames = ConsumerConfig.configNames();
        properties.forEach((key, value) -> {
            if (value == null) {
                throw new ConfigException(key, null, "a property needs a value");
            }
            ConfigKey row = ConsumerKeys.find(key);
            ConfigKey renamed = row == null ? ConsumerKeys.findByKafkaName(key) : null;
            if (row != null || renamed != null) {
                ConfigKey target = row != null ? row : renamed;
                sorted.put(target, key, value, givenAs);
            } else if (isSecurityKey.test(key)) {
                sorted.security.put(key, value);
            } else if (WITHOUT_EQUIVALENT.containsKey(key)) {
                sorted.warnings.add("property " + key + " is ignored: " + WITHOUT_EQUIVALENT.get(key));
            } else if (clientNames.contains(key) || key.startsWith("ssl.") || key.startsWith("sasl.")
                    || key.startsWith("security.")) {
                sorted.client.put(key, value);
            } else {
                sorted.warnings.add("unknown property " + key + " is ignored");
            }
        });
        return sorted;
    }

    /** Records {@code value}, given as {@code key}, for {@code row}; a value given under its other name must agree. */
    private void put(ConfigKey row, String key, Object value, Map<String, String> givenAs) {
        Object parsed = row.parse(key, value);
        String earlierKey = givenAs.putIfAbsent(row.name(), key);
        if (earlierKey == null) {
            consumer.put(row.name(), parsed);
        } else if (!Objects.equals(consumer.get(row.name()), parsed)) {
            throw new ConfigException(earlierKey + "=" + consumer.get(row.name()) + " and " + key + "=" + parsed
                    + " disagree: they are the same setting under its 0.8 and its Kafka name; set only one of them");
        }
    }

    /** The consumer's own keys under their 0.8 names, typed and checked one by one. */
    public Map<String, Object> consumerKeys() {
        return Collections.unmodifiableMap(consumer);
    }

    /** The ZooKeeper security keys. */
    public Map<String, Object> securityKeys() {
        return Collections.unmodifiableMap(security);
    }

    /** The kafka-clients keys for the fetch client. */
    public Map<String, Object> clientKeys() {
        return Collections.unmodifiableMap(client);
    }

    /** What was ignored, one sentence each. */
    public List<String> warnings() {
        return Collections.unmodifiableList(warnings);
    }
}
