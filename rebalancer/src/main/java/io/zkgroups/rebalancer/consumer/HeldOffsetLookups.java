package io.zkgroups.rebalancer.consumer;

import io.zkgroups.rebalancer.offsets.OffsetLookup;
import io.zkgroups.rebalancer.offsets.OffsetStore;
import io.zkgroups.registry.model.TopicAndPartition;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Looks the committed offsets of held partitions up again off the poll thread, one lookup at a time. A store in Kafka
 * that does not answer takes its whole bound ({@code zkgroups.rebalance.kafka.timeout.ms}) to say so; on the poll thread
 * that would hold up a revocation arriving meanwhile, and with it the group (a release never waits on Kafka,
 * docs/kafka-outage.md). The poll thread starts a lookup and picks its result up at a later poll.
 * <p>
 * <b>Threading.</b> {@link #start}, {@link #finished} and {@link #close} on the thread inside the consumer; the lookup
 * runs on a daemon thread of its own, made at the first lookup.
 */
final class HeldOffsetLookups implements AutoCloseable {

    /** What one lookup asked for (each partition with the grant epoch it was held under) and what it found. */
    static final class Done {
        private final Map<TopicPartition, Long> epochs;
        private final OffsetLookup lookup;

        Done(Map<TopicPartition, Long> epochs, OffsetLookup lookup) {
            this.epochs = epochs;
            this.lookup = lookup;
        }

        /** Each partition looked up, with the grant epoch it was held under then. */
        Map<TopicPartition, Long> epochs() {
            return epochs;
        }

        OffsetLookup lookup() {
            return lookup;
        }
    }

    private final OffsetStore store;
    private final String group;
    private final Duration bound;
    private final String threadName;
    private ExecutorService executor;
    private CompletableFuture<Done> underWay;

    HeldOffsetLookups(OffsetStore store, String group, Duration bound, String threadName) {
        this.store = store;
        this.group = group;
        this.bound = bound;
        this.threadName = threadName;
    }

    /** Whether a lookup is under way: no other starts until its result has been picked up. */
    boolean busy() {
        return underWay != null;
    }

    /** Starts looking up {@code held} (partition → grant epoch), each within the bound. */
    void start(Map<TopicPartition, Long> held) {
        if (underWay != null) {
            throw new IllegalStateException("a lookup of held partitions is under way already");
        }
        Map<TopicPartition, Long> sorted = new TreeMap<>(KafkaPartitions.ORDER);
        sorted.putAll(held);
        Map<TopicPartition, Long> epochs = Collections.unmodifiableMap(sorted);
        underWay = CompletableFuture.supplyAsync(() -> new Done(epochs, lookup(epochs)), executor());
    }

    /** The result of the lookup under way, once it ended (then no lookup is under way). */
    Optional<Done> finished() {
        if (underWay == null || !underWay.isDone()) {
            return Optional.empty();
        }
        Done done = underWay.join();
        underWay = null;
        return Optional.of(done);
    }

    /** Stops the lookup thread; a lookup under way is abandoned (it is interrupted, its result never read). */
    @Override
    public void close() {
        underWay = null;
        if (executor != null) {
            executor.shutdownNow();
            executor = null;
        }
    }

    private OffsetLookup lookup(Map<TopicPartition, Long> epochs) {
        java.util.List<TopicAndPartition> partitions = new java.util.ArrayList<>();
        epochs.keySet().forEach(tp -> partitions.add(KafkaPartitions.toRegistry(tp)));
        try {
            return store.lookup(group, partitions, bound);
        } catch (RuntimeException e) { // a store closed under it, an interrupt: every partition stays held
            Map<TopicAndPartition, String> unknown = new TreeMap<>();
            partitions.forEach(tp -> unknown.put(tp, "the offset lookup failed: " + e));
            return OffsetLookup.of(Collections.emptyMap(), unknown);
        }
    }

    private ExecutorService executor() {
        if (executor == null) {
            executor = Executors.newSingleThreadExecutor(task -> {
                Thread thread = new Thread(task, threadName);
                thread.setDaemon(true);
                return thread;
            });
        }
        return executor;
    }
}
