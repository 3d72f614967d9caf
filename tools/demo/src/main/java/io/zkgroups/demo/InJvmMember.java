package io.zkgroups.demo;

import io.zkgroups.rebalancer.consumer.ZkGroupConsumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** A ZkGroupConsumer polling on its own thread in the demo's JVM. */
final class InJvmMember implements Member {

    private final String name;
    private final ZkGroupConsumer<String, String> consumer;
    private final CompletableFuture<Void> stopped = new CompletableFuture<>();
    private final long created = System.nanoTime();

    InJvmMember(String name, Properties props, String topic, Ledger ledger) {
        this.name = name;
        this.consumer = new ZkGroupConsumer<>(props, new StringDeserializer(), new StringDeserializer());
        Thread thread = new Thread(() -> run(topic, ledger), "member-" + name);
        thread.setDaemon(true);
        thread.start();
    }

    private void run(String topic, Ledger ledger) {
        try {
            consumer.subscribe(List.of(topic));
            while (true) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
                    ledger.delivered(kind(), r.topic(), r.partition(), r.offset());
                }
            }
        } catch (WakeupException stop) {
            consumer.close(Duration.ofSeconds(20));
            stopped.complete(null);
        } catch (RuntimeException e) {
            stopped.completeExceptionally(e);
            consumer.close(Duration.ofSeconds(5));
        }
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public long joinStartedNanos() {
        return created;
    }

    @Override
    public String kind() {
        return "zkgroups";
    }

    @Override
    public void close() {
        consumer.wakeup();
        try {
            stopped.get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new DemoFailure("member " + name + " did not leave cleanly: " + e.getMessage());
        }
    }
}
