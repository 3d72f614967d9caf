package io.zkgroups.tool.io;

import java.util.Map;
import java.util.Set;

/**
 * Partition counts of topics: from {@code /brokers/topics} when the cluster registers its topics in ZooKeeper,
 * from Kafka's metadata otherwise (KRaft clusters).
 */
public final class TopicCatalog {

    private TopicCatalog() {
    }

    public static Map<String, Integer> partitionCounts(Clients clients, Set<String> topics) {
        ZkGroups zk = clients.zk();
        if (zk.hasTopicRegistry() || clients.kafka().isEmpty()) {
            return zk.partitionCounts(topics, null);
        }
        return clients.kafka().get().partitionCounts(topics);
    }
}
