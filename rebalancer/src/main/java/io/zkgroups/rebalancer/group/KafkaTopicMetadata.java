package io.zkgroups.rebalancer.group;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Topic metadata from Kafka, for clusters that do not register topics in ZooKeeper (KRaft): ZooKeeper only
 * coordinates the group. Kafka has no watches, so a poller compares the metadata every {@code refresh} and
 * fires the armed callbacks when topics or partition counts changed — changes are noticed within one refresh.
 */
public final class KafkaTopicMetadata implements TopicMetadata {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaTopicMetadata.class);

    private final Admin admin;
    private final Duration timeout;
    private final ScheduledExecutorService poller;
    private final Set<Runnable> armed = ConcurrentHashMap.newKeySet();
    private final Set<String> watchedTopics = ConcurrentHashMap.newKeySet();
    private volatile Map<String, Integer> lastSeen;
    private volatile List<String> lastTopics;

    public KafkaTopicMetadata(Admin admin, Duration refresh, Duration timeout) {
        this.admin = admin;
        this.timeout = timeout;
        this.poller = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "zkgroups-kafka-metadata");
            t.setDaemon(true);
            return t;
        });
        poller.scheduleWithFixedDelay(this::poll, refresh.toMillis(), refresh.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public Map<String, Integer> partitionCounts(Collection<String> topics, Runnable onChange) {
        watchedTopics.addAll(topics);
        if (onChange != null) {
            armed.add(onChange);
        }
        return describe(topics);
    }

    @Override
    public List<String> topics(Runnable onChange) {
        if (onChange != null) {
            armed.add(onChange);
        }
        List<String> topics = listTopics();
        lastTopics = topics;
        return topics;
    }

    private void poll() {
        try {
            List<String> topics = listTopics();
            Map<String, Integer> counts = describe(watchedTopics);
            boolean changed = (lastTopics != null && !lastTopics.equals(topics))
                    || (lastSeen != null && !lastSeen.equals(counts));
            lastTopics = topics;
            lastSeen = counts;
            if (changed) {
                List<Runnable> toRun = new ArrayList<>(armed);
                armed.clear();
                toRun.forEach(Runnable::run);
            }
        } catch (RuntimeException e) {
            LOG.warn("reading topic metadata from Kafka failed: {}", e.getMessage());
        }
    }

    private List<String> listTopics() {
        List<String> names = new ArrayList<>(get(admin.listTopics(new ListTopicsOptions().listInternal(true)).names()));
        names.sort(null);
        return names;
    }

    private Map<String, Integer> describe(Collection<String> topics) {
        Map<String, Integer> counts = new TreeMap<>();
        if (topics.isEmpty()) {
            return counts;
        }
        Map<String, KafkaFuture<TopicDescription>> futures = admin.describeTopics(new ArrayList<>(topics)).topicNameValues();
        futures.forEach((topic, future) -> {
            try {
                counts.put(topic, future.get(timeout.toMillis(), TimeUnit.MILLISECONDS).partitions().size());
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw new IllegalStateException("describing topic " + topic + " in Kafka failed: " + e.getCause().getMessage(), e);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while describing topic " + topic, e);
            } catch (java.util.concurrent.TimeoutException e) {
                throw new IllegalStateException("describing topic " + topic + " in Kafka timed out (is Kafka reachable?)", e);
            }
        });
        if (lastSeen == null) {
            lastSeen = counts;
        }
        return counts;
    }

    private <T> T get(KafkaFuture<T> future) {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("reading Kafka metadata failed: " + e.getCause().getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading Kafka metadata", e);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("reading Kafka metadata timed out (is Kafka reachable?)", e);
        }
    }

    @Override
    public void close() {
        poller.shutdownNow();
    }
}
