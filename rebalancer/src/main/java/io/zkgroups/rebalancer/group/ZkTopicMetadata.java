package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.store.TopicRegistry;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Topic metadata from {@code /brokers/topics}, with the watches 0.8.2.2 members use: data of each
 * subscribed topic (partitions added) and the children of {@code /brokers/topics} (topics created).
 * <p>
 * A partition count read with a watch stays valid for as long as that watch has not fired, so it is kept and
 * served again without asking ZooKeeper: a rebalance caused by members joining or leaving costs no topic reads.
 * A fired watch drops that topic's count; a new session, or any connection event other than SyncConnected,
 * drops them all (watches end with their session).
 */
public final class ZkTopicMetadata implements TopicMetadata {

    /** Count cached for a topic that does not exist (its creation is watched). */
    private static final int ABSENT = -1;

    private final TopicRegistry topics;
    /** Counts whose watch is armed and has not fired, for {@link #cachedFor}'s callback. */
    private final Map<String, Integer> counts = new ConcurrentHashMap<>();
    /** Bumped by every invalidation (under {@code this}): a read that raced with one does not fill the cache. */
    private long invalidations;
    private volatile Runnable cachedFor;
    private volatile long cachedSession;

    public ZkTopicMetadata(TopicRegistry topics) {
        this.topics = Objects.requireNonNull(topics, "topics cannot be null");
    }

    @Override
    public Map<String, Integer> partitionCounts(Collection<String> wanted, Runnable onChange) {
        if (onChange == null) {
            Map<String, Integer> counts = new TreeMap<>();
            topics.readAll(wanted, null).forEach((topic, registration) -> counts.put(topic, registration.partitionCount()));
            return counts;
        }
        long session = topics.sessionId();
        if (onChange != cachedFor || session != cachedSession) {
            invalidate(null); // the cached counts' watches would call someone else, or ended with their session
            cachedFor = onChange;
            cachedSession = session;
        }
        Map<String, Integer> result = new TreeMap<>();
        List<String> missing = wanted.stream().filter(topic -> !counts.containsKey(topic)).toList();
        for (String topic : wanted) {
            Integer cached = counts.get(topic);
            if (cached != null && cached != ABSENT) {
                result.put(topic, cached);
            }
        }
        if (!missing.isEmpty()) {
            long before = invalidationCount();
            Map<String, Integer> read = new HashMap<>();
            missing.forEach(topic -> read.put(topic, ABSENT));
            topics.readAll(missing, new Invalidating(this, onChange))
                    .forEach((topic, registration) -> read.put(topic, registration.partitionCount()));
            read.forEach((topic, count) -> {
                if (count != ABSENT) {
                    result.put(topic, count);
                }
            });
            synchronized (this) {
                if (invalidations == before) {
                    counts.putAll(read);
                }
            }
        }
        return result;
    }

    @Override
    public List<String> topics(Runnable onChange) {
        return topics.topics(onChange == null ? null : new OneShot(onChange));
    }

    /** Forgets {@code topic}'s count (all counts when null). */
    private synchronized long invalidationCount() {
        return invalidations;
    }

    private void invalidate(String topic) {
        synchronized (this) {
            invalidations++;
            if (topic == null) {
                counts.clear();
            } else {
                counts.remove(topic);
            }
        }
    }

    /**
     * Drops the cached count of the topic whose watch fired, then calls back. Equal for equal callbacks, so
     * ZooKeeper keeps one watch per topic however often it is armed.
     */
    private record Invalidating(ZkTopicMetadata metadata, Runnable onChange) implements Watcher {
        @Override
        public void process(WatchedEvent event) {
            if (event.getType() == Event.EventType.None) {
                if (event.getState() != Event.KeeperState.SyncConnected) {
                    metadata.invalidate(null);
                }
                return;
            }
            String path = event.getPath();
            metadata.invalidate(path == null ? null : path.substring(path.lastIndexOf('/') + 1));
            onChange.run();
        }
    }

    /**
     * Adapts a callback to a watcher. Equal callbacks make equal watchers, so ZooKeeper keeps one watch per
     * path however often a member re-reads it.
     */
    private record OneShot(Runnable onChange) implements Watcher {
        @Override
        public void process(WatchedEvent event) {
            if (event.getType() != Event.EventType.None) {
                onChange.run();
            }
        }
    }
}
