package io.zkgroups.rebalancer.consumer;

import io.zkgroups.rebalancer.offsets.OffsetStore;
import io.zkgroups.rebalancer.offsets.OffsetStoreException;
import io.zkgroups.registry.model.TopicAndPartition;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.TimeoutException;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Reads of committed offsets for {@code committed(partitions, timeout)}, bounded by the caller's timeout. The stores
 * have bounds of their own, longer than a caller may ask (30 s for Kafka, Curator's retries for ZooKeeper), so the read
 * runs on a helper thread and the caller waits for it until its deadline, then gets Kafka's {@link TimeoutException}.
 * A read given up on is interrupted; its result, if any, is dropped.
 * <p>
 * <b>Threading.</b> {@link #read} and {@link #close} run on the thread inside the consumer (its single-thread guard);
 * the helper thread, one daemon started at the first read, calls only the store, which is thread-safe; the result
 * crosses back through a {@link Future}.
 */
final class OffsetReads implements AutoCloseable {

    private final OffsetStore store;
    private final String group;
    private final String threadName;
    private ExecutorService reader;

    OffsetReads(OffsetStore store, String group, String clientId) {
        this.store = store;
        this.group = group;
        this.threadName = "zkgroups-offset-reads-" + clientId;
    }

    /**
     * As {@code Consumer.committed}: the stored offset of each of {@code partitions}, null for one without, read by
     * {@code deadline}.
     *
     * @throws TimeoutException if the store did not answer by then
     * @throws KafkaException   if the store failed
     */
    Map<TopicPartition, OffsetAndMetadata> committed(Set<TopicPartition> partitions, Deadline deadline) {
        Map<TopicAndPartition, Long> stored = read(KafkaPartitions.toRegistry(partitions), deadline);
        Map<TopicPartition, OffsetAndMetadata> result = new HashMap<>();
        for (TopicPartition tp : partitions) {
            Long offset = stored.get(KafkaPartitions.toRegistry(tp));
            result.put(tp, offset == null ? null : new OffsetAndMetadata(offset));
        }
        return result;
    }

    /**
     * The stored offsets of {@code partitions} (a partition without one is absent), read by {@code deadline}.
     *
     * @throws TimeoutException if the store did not answer by then
     * @throws KafkaException   if the store failed
     */
    Map<TopicAndPartition, Long> read(Collection<TopicAndPartition> partitions, Deadline deadline) {
        if (reader == null) {
            reader = Executors.newSingleThreadExecutor(r -> {
                Thread thread = new Thread(r, threadName);
                thread.setDaemon(true);
                return thread;
            });
        }
        List<TopicAndPartition> wanted = new ArrayList<>(partitions);
        Future<Map<TopicAndPartition, Long>> reading = reader.submit(() -> store.read(group, wanted));
        try {
            return reading.get(deadline.remainingNanos(), TimeUnit.NANOSECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            reading.cancel(true);
            throw new TimeoutException("reading the committed offsets of " + KafkaPartitions.toKafka(wanted) + " in group "
                    + group + " from "
                    + store.name() + " timed out after " + deadline.timeoutMillis() + " ms");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof OffsetStoreException) {
                throw new KafkaException(cause.getMessage(), cause);
            }
            if (cause instanceof RuntimeException) {
                throw (RuntimeException) cause;
            }
            throw new KafkaException("reading the committed offsets of group " + group + " failed", cause);
        } catch (InterruptedException e) {
            reading.cancel(true);
            Thread.currentThread().interrupt();
            throw new InterruptException(e);
        }
    }

    @Override
    public void close() {
        if (reader != null) {
            reader.shutdownNow();
        }
    }
}
