package io.zkgroups.it.consumer;

import io.zkgroups.rebalancer.consumer.ZkGroupConsumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** A ZkGroupConsumer polling on its own thread, logging every delivered record, stopped by wakeup + close. */
final class ConsumerWorker implements AutoCloseable {

    final String name;
    final ZkGroupConsumer<String, String> consumer;
    private final CompletableFuture<Void> finished = new CompletableFuture<>();
    private final Thread thread;
    private volatile boolean forRestart;

    ConsumerWorker(String name, Properties props, List<String> topics, DeliveryLog log) {
        this.name = name;
        this.consumer = new ZkGroupConsumer<>(props, new StringDeserializer(), new StringDeserializer());
        this.thread = new Thread(() -> run(topics, log), "worker-" + name);
        thread.setDaemon(true);
        thread.start();
    }

    private void run(List<String> topics, DeliveryLog log) {
        try {
            consumer.subscribe(topics);
            while (true) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    log.record(name, new org.apache.kafka.common.TopicPartition(record.topic(), record.partition()), record.offset());
                }
            }
        } catch (WakeupException stop) {
            if (forRestart) {
                consumer.closeForRestart();
            } else {
                consumer.close(Duration.ofSeconds(20));
            }
            finished.complete(null);
        } catch (Throwable t) {
            finished.completeExceptionally(t);
            consumer.close(Duration.ofSeconds(5));
        }
    }

    /**
     * Stops for a restart by session hand-over: the poll thread calls {@code closeForRestart()} (the consumer's
     * {@code zkgroups.restart.handover.file} must be set); a successor with the same id and file resumes the session.
     */
    public void closeForRestart() {
        forRestart = true;
        close();
    }

    /** Leaves the group gracefully: the poll thread closes the consumer (revoke, commit, release). */
    @Override
    public void close() {
        consumer.wakeup();
        try {
            finished.get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("worker " + name + " did not stop cleanly: " + e, e);
        }
    }

    boolean failed() {
        return finished.isCompletedExceptionally();
    }
}
