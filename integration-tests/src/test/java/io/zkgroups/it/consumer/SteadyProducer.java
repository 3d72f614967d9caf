package io.zkgroups.it.consumer;

import io.zkgroups.embedded.EmbeddedKafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Keeps records flowing while a test changes the group: every {@code period}, {@code perPartition} records to each
 * partition of a topic (synchronously, acks=all), until {@link #stop()}. Knows exactly how many it wrote where.
 */
final class SteadyProducer implements AutoCloseable {

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "steady-producer");
        t.setDaemon(true);
        return t;
    });
    private final EmbeddedKafka broker;
    private final String topic;
    private final int perPartition;
    private final AtomicLongArray produced;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    SteadyProducer(EmbeddedKafka broker, String topic, int partitions, int perPartition, Duration period) {
        this.broker = broker;
        this.topic = topic;
        this.perPartition = perPartition;
        this.produced = new AtomicLongArray(partitions);
        scheduler.scheduleWithFixedDelay(this::round, 0, period.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void round() {
        try {
            List<EmbeddedKafka.Record> records = new ArrayList<>();
            for (int p = 0; p < produced.length(); p++) {
                for (int i = 0; i < perPartition; i++) {
                    records.add(EmbeddedKafka.Record.to(p, null, "v" + p + "-" + (produced.get(p) + i)));
                }
            }
            broker.produce(topic, records.toArray(EmbeddedKafka.Record[]::new));
            for (int p = 0; p < produced.length(); p++) {
                produced.addAndGet(p, perPartition);
            }
        } catch (Throwable t) {
            failure.compareAndSet(null, t);
            throw t;
        }
    }

    /** Records written so far (all partitions). */
    long total() {
        long sum = 0;
        for (int p = 0; p < produced.length(); p++) {
            sum += produced.get(p);
        }
        return sum;
    }

    /** Stops after the round in progress; returns the records written per partition (index = partition). */
    long[] stop() {
        scheduler.shutdown();
        try {
            if (!scheduler.awaitTermination(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the producer did not stop within 30 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
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
    }
}
