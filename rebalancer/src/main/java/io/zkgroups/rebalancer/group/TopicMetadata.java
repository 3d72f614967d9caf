package io.zkgroups.rebalancer.group;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Where a member learns which topics exist and how many partitions they have: {@code /brokers/topics}
 * when the cluster registers there ({@link ZkTopicMetadata}), Kafka metadata otherwise (KRaft).
 * Each read arms a one-shot change notification.
 */
public interface TopicMetadata extends AutoCloseable {

    /** Partition counts of those of {@code topics} that exist; {@code onChange} runs once on the next change. */
    Map<String, Integer> partitionCounts(Collection<String> topics, Runnable onChange);

    /** Every existing topic; {@code onChange} runs once when a topic is created or deleted. */
    List<String> topics(Runnable onChange);

    @Override
    default void close() {
    }
}
