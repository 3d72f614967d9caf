package io.zkgroups.rebalancer.consumer;

import io.zkgroups.registry.Time;
import io.zkgroups.registry.model.BrokerInfo;
import io.zkgroups.registry.model.ConsumerId;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.config.ConfigException;

import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** What a {@link ZkGroupConsumer} derives from its configuration and surroundings before it connects anything. */
final class ConsumerStartup {

    /** KafkaConsumer's default of default.api.timeout.ms. */
    private static final Duration DEFAULT_API_TIMEOUT = Duration.ofSeconds(60);

    private ConsumerStartup() {
    }

    static Duration defaultApiTimeout(ZkConsumerConfig config) {
        Object value = config.fetchClientProperties("").get(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG);
        if (value == null) {
            return DEFAULT_API_TIMEOUT;
        }
        try {
            return Duration.ofMillis(Long.parseLong(value.toString().trim()));
        } catch (NumberFormatException e) {
            throw new ConfigException("invalid value '" + value + "' for property "
                    + ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG + ": must be a number of milliseconds");
        }
    }

    /** The handed-over id of a resumed session, else {@code consumer.id}, else a generated one, as 0.8.2.2 makes it. */
    static ConsumerId consumerIdOf(Optional<ConsumerId> resumed, ZkConsumerConfig config, Time time) {
        if (resumed.isPresent()) {
            return resumed.get();
        }
        Optional<String> override = config.consumerIdOverride();
        return override.isPresent() ? ConsumerId.ofOverride(config.groupId(), override.get())
                : ConsumerId.generated(config.groupId(), hostName(), time.milliseconds(), UUID.randomUUID());
    }

    static String bootstrapFrom(List<BrokerInfo> brokers, ZkConsumerConfig config) {
        List<String> addresses = new ArrayList<>();
        for (BrokerInfo broker : brokers) {
            Optional<String> address = broker.plaintextAddress();
            if (address.isPresent()) {
                addresses.add(address.get());
            }
        }
        if (addresses.isEmpty()) {
            throw new ConfigException("bootstrap.servers is not set and no broker with a PLAINTEXT endpoint is "
                    + "registered under /brokers/ids at " + config.zookeeperConnect());
        }
        return String.join(",", addresses);
    }

    static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            return "unknown-host";
        }
    }
}
