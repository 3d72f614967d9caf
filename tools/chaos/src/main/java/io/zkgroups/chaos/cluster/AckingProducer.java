package io.zkgroups.chaos.cluster;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Produces at a fixed rate to every partition of the topic in turn (idempotent, acks=all, so a broker restart
 * neither loses nor doubles an acknowledged record) and logs each acknowledgement to {@code acks.log} as
 * {@code ACK nanos partition offset}; a record Kafka refused is {@code NACK nanos partition reason}. New partitions
 * are picked up from the producer's metadata (refreshed every 2 s).
 */
public final class AckingProducer implements AutoCloseable {

    private static final long TICK_MS = 50;

    private final KafkaProducer<String, String> producer;
    private final String topic;
    private final int perTick;
    private final BufferedWriter out;
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "acking-producer");
        t.setDaemon(true);
        return t;
    });
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong acked = new AtomicLong();
    private final Map<Integer, Long> ackedEnds = new ConcurrentHashMap<>();
    private long next;

    public AckingProducer(String bootstrapServers, String topic, int recordsPerSecond, Path ackLog) {
        this.topic = topic;
        this.perTick = Math.max(1, (int) (recordsPerSecond * TICK_MS / 1000));
        this.producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true",
                ProducerConfig.LINGER_MS_CONFIG, "5",
                ProducerConfig.METADATA_MAX_AGE_CONFIG, "2000",
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "300000",
                ProducerConfig.MAX_BLOCK_MS_CONFIG, "300000"),
                new StringSerializer(), new StringSerializer());
        try {
            this.out = Files.newBufferedWriter(ackLog, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        scheduler.scheduleAtFixedRate(this::tick, 0, TICK_MS, TimeUnit.MILLISECONDS);
    }

    private void tick() {
        try {
            send();
        } catch (RuntimeException e) {
            // e.g. metadata unavailable while the broker restarts: the next tick tries again
            write("TICK-FAILED " + System.nanoTime() + " " + String.valueOf(e).replace('\n', ' '));
        }
    }

    private void send() {
        int partitions = producer.partitionsFor(topic).size();
        for (int i = 0; i < perTick; i++) {
            int partition = (int) (next++ % partitions);
            sent.incrementAndGet();
            producer.send(new ProducerRecord<>(topic, partition, null, "r" + next), (metadata, error) -> {
                if (error == null) {
                    acked.incrementAndGet();
                    ackedEnds.merge(metadata.partition(), metadata.offset() + 1, Math::max);
                    write("ACK " + System.nanoTime() + " " + metadata.partition() + " " + metadata.offset());
                } else {
                    write("NACK " + System.nanoTime() + " " + partition + " " + String.valueOf(error).replace('\n', ' '));
                }
            });
        }
        synchronized (out) {
            try {
                out.flush();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private void write(String line) {
        synchronized (out) {
            try {
                out.write(line);
                out.newLine();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    public long sent() {
        return sent.get();
    }

    public long acked() {
        return acked.get();
    }

    /** Per partition, the offset after the last acknowledged record: what the group has to consume up to. */
    public Map<Integer, Long> ackedEnds() {
        return Map.copyOf(ackedEnds);
    }

    /** Stops producing and waits for the acknowledgements of everything sent. */
    public void stop() {
        scheduler.shutdown();
        try {
            scheduler.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        producer.flush();
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
        producer.close(Duration.ofSeconds(10));
        synchronized (out) {
            try {
                out.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }
}
