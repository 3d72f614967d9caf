package io.zkgroups.it.contract;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.util.HashMap;
import java.util.Map;

/**
 * The contract as Kafka's own consumer keeps it, in Kafka's own group. The cooperative assignor revokes only what
 * moves, as a ZooKeeper group does: the contract compares the callbacks' partitions, not the eager protocol's
 * revoke-everything.
 */
class KafkaConsumerContractIT extends ConsumerContract {

    @Override
    Consumer<String, String> create(String group, Map<String, Object> settings) {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, servers.broker().bootstrapServers());
        config.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, CooperativeStickyAssignor.class.getName());
        config.putAll(settings);
        return new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer());
    }
}
