package io.zkgroups.bench;

import io.zkgroups.embedded.EmbeddedKafka;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** Records that keep arriving while a benchmark runs: one per partition every interval (5 ms unless said), on a thread of its own. */
final class SteadyProducer implements AutoCloseable {

    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor();

    private SteadyProducer(EmbeddedKafka broker, String topic, int partitions, long intervalMs) {
        AtomicLong sequence = new AtomicLong();
        thread.scheduleWithFixedDelay(() -> {
            EmbeddedKafka.Record[] batch = new EmbeddedKafka.Record[partitions];
            for (int p = 0; p < partitions; p++) {
                batch[p] = EmbeddedKafka.Record.to(p, "k", Long.toString(sequence.incrementAndGet()));
            }
            broker.produce(topic, batch);
        }, 0, intervalMs, TimeUnit.MILLISECONDS);
    }

    static SteadyProducer start(EmbeddedKafka broker, String topic, int partitions) {
        return start(broker, topic, partitions, 5);
    }

    static SteadyProducer start(EmbeddedKafka broker, String topic, int partitions, long intervalMs) {
        return new SteadyProducer(broker, topic, partitions, intervalMs);
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
