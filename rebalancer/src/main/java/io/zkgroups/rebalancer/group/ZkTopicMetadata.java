package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.store.TopicRegistry;
import io.zkgroups.registry.store.Unreadable;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Topic metadata from {@code /brokers/topics}, with the watches 0.8.2.2 members use: data of each
 * subscribed topic (partitions added) and the children of {@code /brokers/topics} (topics created).
 * <p>
 * A partition count read with a watch stays valid for as long as that watch has not fired, so it is kept and
 * served again without asking ZooKeeper: a rebalance caused by members joining or leaving costs no topic reads.
 * A fired watch drops that topic's count; a new session, or any connection event other than SyncConnected,
 * drops them all (watches end with their session).
 * <p>
 * A registration that cannot be decoded affects only its topic: the topic has no known partitions, so nobody is
 * assigned any of them, while the other topics are counted as usual. It is reported in
 * {@link TopicCounts#unreadable()} (kept, like a count, until its watch fires: a repair is heard of at once) and
 * logged once when it becomes unreadable and once when it is readable again, not at every rebalance.
 * <p>
 * This is a choice with a cost: a member that owns partitions of a topic whose registration turns unreadable gives
 * them up, and they stay unconsumed until the znode is repaired (its watch then triggers a rebalance). The choice
 * is consistent across the group: every zkgroups member reads the same znode, so they all drop the topic from
 * their assignment alike and nobody claims its partitions, while the other topics go on. (Partitions a 0.8.2.2
 * member holds stay its own by their owner znodes, which no zkgroups member claims over.)
 */
public final class ZkTopicMetadata implements TopicMetadata {

    private static final Logger LOG = LoggerFactory.getLogger(ZkTopicMetadata.class);
    /** Count cached for a topic that does not exist (its creation is watched). */
    private static final int ABSENT = -1;

    private final TopicRegistry topics;
    /** Counts whose watch is armed and has not fired, for {@link #cachedFor}'s callback. */
    private final Map<String, Integer> counts = new ConcurrentHashMap<>();
    /** Unreadable registrations whose watch is armed and has not fired, for {@link #cachedFor}'s callback. */
    private final Map<String, Unreadable> unreadable = new ConcurrentHashMap<>();
    /** Unreadable registrations as last logged (under {@code this}): each change is logged once. */
    private final Map<String, Unreadable> logged = new HashMap<>();
    /** Bumped by every invalidation (under {@code this}): a read that raced with one does not fill the cache. */
    private long invalidations;
    private volatile Runnable cachedFor;
    private volatile long cachedSession;

    public ZkTopicMetadata(TopicRegistry topics) {
        this.topics = Objects.requireNonNull(topics, "topics cannot be null");
    }

    @Override
    public Map<String, Integer> partitionCounts(Collection<String> wanted, Runnable onChange) {
        return counts(wanted, onChange).partitionCounts();
    }

    @Override
    public TopicCounts counts(Collection<String> wanted, Runnable onChange) {
        if (onChange == null) {
            TopicRegistry.PartitionCounts read = topics.partitionCounts(wanted, null);
            log(wanted, read.unreadable());
            return new TopicCounts(new TreeMap<>(read.counts()), read.unreadable());
        }
        long session = topics.sessionId();
        if (onChange != cachedFor || session != cachedSession) {
            invalidate(null); // the cached counts' watches would call someone else, or ended with their session
            cachedFor = onChange;
            cachedSession = session;
        }
        Map<String, Integer> result = new TreeMap<>();
        Map<String, Unreadable> bad = new TreeMap<>();
        List<String> missing = wanted.stream().filter(t -> !counts.containsKey(t) && !unreadable.containsKey(t))
                .collect(Collectors.toList());
        for (String topic : wanted) {
            Integer cached = counts.get(topic);
            if (cached != null && cached != ABSENT) {
                result.put(topic, cached);
            }
            Unreadable cachedBad = unreadable.get(topic);
            if (cachedBad != null) {
                bad.put(topic, cachedBad);
            }
        }
        if (!missing.isEmpty()) {
            long before = invalidationCount();
            Map<String, Integer> read = new HashMap<>();
            missing.forEach(topic -> read.put(topic, ABSENT));
            TopicRegistry.PartitionCounts registrations = topics.partitionCounts(missing, new Invalidating(this, onChange));
            read.putAll(registrations.counts());
            read.keySet().removeAll(registrations.unreadable().keySet());
            read.forEach((topic, count) -> {
                if (count != ABSENT) {
                    result.put(topic, count);
                }
            });
            bad.putAll(registrations.unreadable());
            synchronized (this) {
                if (invalidations == before) {
                    counts.putAll(read);
                    unreadable.putAll(registrations.unreadable());
                }
            }
        }
        log(wanted, bad);
        return new TopicCounts(result, bad);
    }

    /** Logs the topics of {@code wanted} that became unreadable, or readable again, since the last look. */
    private synchronized void log(Collection<String> wanted, Map<String, Unreadable> now) {
        for (String topic : wanted) {
            Unreadable bad = now.get(topic);
            Unreadable before = bad == null ? logged.remove(topic) : logged.put(topic, bad);
            if (bad != null && !bad.equals(before)) {
                LOG.warn("{}: nobody is assigned partitions of topic {} until its registration can be read", bad, topic);
            } else if (bad == null && before != null) {
                LOG.info("registration {} of topic {} is no longer unreadable", before.path(), topic);
            }
        }
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
                unreadable.clear();
            } else {
                counts.remove(topic);
                unreadable.remove(topic);
            }
        }
    }

    /**
     * Drops the cached count of the topic whose watch fired, then calls back. Equal for equal callbacks, so
     * ZooKeeper keeps one watch per topic however often it is armed.
     */
    private static final class Invalidating implements Watcher {
        private final ZkTopicMetadata metadata;
        private final Runnable onChange;

        Invalidating(ZkTopicMetadata metadata, Runnable onChange) {
            this.metadata = metadata;
            this.onChange = onChange;
        }

        @Override
        public boolean equals(Object other) {
            if (this == other) {
                return true;
            }
            if (!(other instanceof Invalidating)) {
                return false;
            }
            Invalidating that = (Invalidating) other;
            return metadata.equals(that.metadata) && Objects.equals(onChange, that.onChange);
        }

        @Override
        public int hashCode() {
            return Objects.hash(metadata, onChange);
        }

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
    private static final class OneShot implements Watcher {
        private final Runnable onChange;

        OneShot(Runnable onChange) {
            this.onChange = onChange;
        }

        @Override
        public boolean equals(Object other) {
            if (this == other) {
                return true;
            }
            if (!(other instanceof OneShot)) {
                return false;
            }
            OneShot that = (OneShot) other;
            return Objects.equals(onChange, that.onChange);
        }

        @Override
        public int hashCode() {
            return Objects.hashCode(onChange);
        }

        @Override
        public void process(WatchedEvent event) {
            if (event.getType() != Event.EventType.None) {
                onChange.run();
            }
        }
    }
}
