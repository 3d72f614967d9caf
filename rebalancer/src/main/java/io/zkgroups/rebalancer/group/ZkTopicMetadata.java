package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.store.TopicRegistry;
import org.apache.zookeeper.Watcher;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Topic metadata from {@code /brokers/topics}, with the watches 0.8.2.2 members use: data of each
 * subscribed topic (partitions added) and the children of {@code /brokers/topics} (topics created).
 */
public final class ZkTopicMetadata implements TopicMetadata {

    private final TopicRegistry topics;

    public ZkTopicMetadata(TopicRegistry topics) {
        this.topics = Objects.requireNonNull(topics, "topics cannot be null");
    }

    @Override
    public Map<String, Integer> partitionCounts(Collection<String> wanted, Runnable onChange) {
        Watcher watcher = onChange == null ? null : new OneShot(onChange);
        Map<String, Integer> counts = new TreeMap<>();
        for (String topic : wanted) {
            topics.read(topic, watcher).ifPresent(registration -> counts.put(topic, registration.partitionCount()));
        }
        return counts;
    }

    @Override
    public List<String> topics(Runnable onChange) {
        return topics.topics(onChange == null ? null : new OneShot(onChange));
    }

    /**
     * Adapts a callback to a watcher. Equal callbacks make equal watchers, so ZooKeeper keeps one watch per
     * path however often a member re-reads it.
     */
    private record OneShot(Runnable onChange) implements Watcher {
        @Override
        public void process(org.apache.zookeeper.WatchedEvent event) {
            if (event.getType() != Event.EventType.None) {
                onChange.run();
            }
        }
    }
}
