package io.zkgroups.demo;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** Keeps producing to the demo topic at a steady rate; every acknowledged record goes into the ledger. */
final class DemoProducer implements AutoCloseable {

    private final KafkaProducer<String, String> producer;
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "demo-producer");
        t.setDaemon(true);
        return t;
    });
    private final AtomicLong sequence = new AtomicLong();

    DemoProducer(String bootstrap, String topic, int recordsPerTick, Ledger ledger) {
        this.producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.LINGER_MS_CONFIG, 5),
                new StringSerializer(), new StringSerializer());
        ticker.scheduleAtFixedRate(() -> {
            for (int i = 0; i < recordsPerTick; i++) {
                long n = sequence.incrementAndGet();
                producer.send(new ProducerRecord<>(topic, "order-" + n, "order " + n), (metadata, error) -> {
                    if (error == null) {
                        ledger.produced(metadata.topic(), metadata.partition(), metadata.offset());
                    }
                });
            }
        }, 0, 10, TimeUnit.MILLISECONDS);
    }

    /** Stops producing and waits until everything sent is acknowledged. */
    @Override
    public void close() {
        ticker.shutdown();
        try {
            ticker.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        producer.flush();
        producer.close(Duration.ofSeconds(10));
    }
}
