package io.zkgroups.testing;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

/**
 * Any {@link Consumer} (a ZkGroupConsumer or a plain KafkaConsumer) polling on its own thread with auto-commit,
 * telling a {@link HoldMonitor} of its rebalance callbacks and deliveries; stopped by wakeup + close.
 */
public final class GroupWorker implements AutoCloseable {

    public final String name;
    public final Consumer<String, String> consumer;
    private final CompletableFuture<Void> finished = new CompletableFuture<>();
    /** Open: the loop polls. Closed: the application is busy between two polls, as a slow one would be. */
    private volatile CountDownLatch busy = new CountDownLatch(0);
    private volatile boolean parked;

    public GroupWorker(String name, Consumer<String, String> consumer, List<String> topics, HoldMonitor monitor,
                BiConsumer<TopicPartition, Long> delivered) {
        this.name = name;
        this.consumer = consumer;
        Thread thread = new Thread(() -> run(topics, monitor, delivered), "worker-" + name);
        thread.setDaemon(true);
        thread.start();
    }

    private void run(List<String> topics, HoldMonitor monitor, BiConsumer<TopicPartition, Long> delivered) {
        try {
            consumer.subscribe(topics, new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                    monitor.released(name, partitions);
                }

                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                    monitor.assigned(name, partitions);
                }

                @Override
                public void onPartitionsLost(Collection<TopicPartition> partitions) {
                    monitor.released(name, partitions);
                }
            });
            while (true) {
                parked = busy.getCount() > 0;
                busy.await();
                parked = false;
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    TopicPartition tp = new TopicPartition(record.topic(), record.partition());
                    monitor.delivered(name, tp, record.offset());
                    delivered.accept(tp, record.offset());
                }
            }
        } catch (WakeupException stop) {
            consumer.close(Duration.ofSeconds(20));
            finished.complete(null);
        } catch (Throwable t) {
            finished.completeExceptionally(t);
            consumer.close(Duration.ofSeconds(5));
        }
    }

    /** From its next poll on, the loop does not poll until {@link #resumePolling()}. */
    public void pausePolling() {
        busy = new CountDownLatch(1);
    }

    /** Whether the loop waits in {@link #pausePolling()} now. */
    public boolean parked() {
        return parked;
    }

    public void resumePolling() {
        busy.countDown();
    }

    /** Leaves the group gracefully: the poll thread closes the consumer (revoke, commit, release). */
    @Override
    public void close() {
        resumePolling();
        consumer.wakeup();
        try {
            finished.get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("worker " + name + " did not stop cleanly: " + e, e);
        }
    }

    public boolean failed() {
        return finished.isCompletedExceptionally();
    }

    /** Why it failed, or null. */
    public Throwable failure() {
        try {
            finished.getNow(null);
            return null;
        } catch (Exception e) {
            return e.getCause();
        }
    }
}
