package io.zkgroups.testing;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Keeps records flowing while a test or a benchmark changes the group: every {@code period}, {@code perPartition}
 * records with the values {@code v<partition>-<n>} to each partition of a topic (acks=all, each round waited for),
 * on a daemon thread of its own, until {@link #stop()} or {@link #close()}. Knows exactly how many it wrote where.
 */
public final class SteadyProducer implements AutoCloseable {

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "steady-producer");
        t.setDaemon(true);
        return t;
    });
    private final KafkaProducer<String, String> producer;
    private final String topic;
    private final int perPartition;
    private final AtomicLongArray produced;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    private SteadyProducer(String bootstrapServers, String topic, int partitions, int perPartition, Duration period) {
        this.producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.LINGER_MS_CONFIG, 0),
                new StringSerializer(), new StringSerializer());
        this.topic = topic;
        this.perPartition = perPartition;
        this.produced = new AtomicLongArray(partitions);
        scheduler.scheduleWithFixedDelay(this::round, 0, period.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Starts writing {@code perPartition} records to each of the topic's {@code partitions} every {@code period}. */
    public static SteadyProducer start(String bootstrapServers, String topic, int partitions, int perPartition,
                                       Duration period) {
        return new SteadyProducer(bootstrapServers, topic, partitions, perPartition, period);
    }

    /** One record per partition every {@code intervalMs}. */
    public static SteadyProducer start(String bootstrapServers, String topic, int partitions, long intervalMs) {
        return start(bootstrapServers, topic, partitions, 1, Duration.ofMillis(intervalMs));
    }

    private void round() {
        try {
            List<Future<?>> sent = new ArrayList<>();
            for (int p = 0; p < produced.length(); p++) {
                for (int i = 0; i < perPartition; i++) {
                    sent.add(producer.send(new ProducerRecord<>(topic, p, null, "v" + p + "-" + (produced.get(p) + i))));
                }
            }
            for (Future<?> f : sent) {
                f.get(30, TimeUnit.SECONDS);
            }
            for (int p = 0; p < produced.length(); p++) {
                produced.addAndGet(p, perPartition);
            }
        } catch (Throwable t) {
            failure.compareAndSet(null, t);
            throw new IllegalStateException("producing to " + topic + " failed", t); // ends the schedule
        }
    }

    /** Records written so far (all partitions). */
    public long total() {
        long sum = 0;
        for (int p = 0; p < produced.length(); p++) {
            sum += produced.get(p);
        }
        return sum;
    }

    /** Stops after the round in progress; returns the records written per partition (index = partition). */
    public long[] stop() {
        scheduler.shutdown();
        try {
            if (!scheduler.awaitTermination(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the producer did not stop within 30 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } finally {
            producer.close(Duration.ofSeconds(5));
        }
        if (failure.get() != null) {
            throw new IllegalStateException("producing to " + topic + " failed: " + failure.get(), failure.get());
        }
        long[] result = new long[produced.length()];
        for (int p = 0; p < result.length; p++) {
            result[p] = produced.get(p);
        }
        return result;
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
        try {
            scheduler.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        producer.close(Duration.ofSeconds(5));
    }
}
