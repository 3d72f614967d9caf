package io.zkgroups.it.contract;

import io.zkgroups.rebalancer.consumer.ZkGroupConsumer;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.util.HashMap;
import java.util.Map;

/** The contract as {@code ZkGroupConsumer} keeps it, in a ZooKeeper group, configured with Kafka's keys. */
class ZkGroupConsumerContractIT extends ConsumerContract {

    @Override
    Consumer<String, String> create(String group, Map<String, Object> settings) {
        Map<String, Object> config = new HashMap<>();
        config.put("zookeeper.connect", servers.connectString());
        config.put("bootstrap.servers", servers.broker().bootstrapServers());
        config.put("group.id", group);
        config.put("auto.offset.reset", "earliest");
        config.put("rebalance.backoff.ms", "300");
        config.putAll(settings);
        return new ZkGroupConsumer<>(config, new StringDeserializer(), new StringDeserializer());
    }
}
