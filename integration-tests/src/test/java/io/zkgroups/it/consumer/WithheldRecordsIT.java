package io.zkgroups.it.consumer;

import io.zkgroups.embedded.EmbeddedKafka;
import io.zkgroups.it.support.KafkaOnZooKeeperExtension;
import io.zkgroups.rebalancer.consumer.ZkGroupConsumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Records fetched past {@code zkgroups.max.uncommitted.records} are kept, not fetched again, and stay invisible to
 * the application until a commit makes room: a poll hands out exactly up to the cap, {@code position()} is the first
 * record not handed out, {@code currentLag} counts the kept ones, the next commit lets the following ones out in
 * order with no gap and no repeat, and a seek or a pause of the application moves or holds them as it would records
 * still on the broker.
 */
@Timeout(120)
class WithheldRecordsIT {

    private static final int RECORDS = 1_000;
    private static final int CAP = 100;
    private static final Duration WAIT = Duration.ofSeconds(30);

    @RegisterExtension
    static final KafkaOnZooKeeperExtension servers = new KafkaOnZooKeeperExtension();

    @Test
    void recordsPastTheCapWaitInOrderForTheNextCommitAndFollowSeeksAndPauses() {
        String topic = "withheld";
        TopicPartition tp = new TopicPartition(topic, 0);
        servers.broker().createTopic(topic, 1);
        List<EmbeddedKafka.Record> records = new ArrayList<>();
        for (int i = 0; i < RECORDS; i++) {
            records.add(EmbeddedKafka.Record.to(0, "k" + i, "v" + i));
        }
        servers.broker().produce(topic, records.toArray(EmbeddedKafka.Record[]::new));
        try (ZkGroupConsumer<String, String> consumer = new ZkGroupConsumer<>(props(topic),
                new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic));

            List<Long> first = pollUntilSome(consumer);
            assertThat(first).as("one poll of up to 1,000 records, cut at the cap of " + CAP)
                    .isEqualTo(range(0, CAP));
            assertThat(consumer.position(tp)).as("the first record not handed out").isEqualTo(CAP);
            assertThat(consumer.poll(Duration.ofMillis(300))).as("at the cap: nothing until a commit").isEmpty();
            assertThat(consumer.currentLag(tp).orElse(RECORDS - CAP))
                    .as("the records kept count as lag").isEqualTo(RECORDS - CAP);

            consumer.commitSync();
            assertThat(pollUntilSome(consumer)).as("after the commit: the next ones, no gap, no repeat")
                    .isEqualTo(range(CAP, 2 * CAP));
            assertThat(fetchedFromTheBroker(consumer)).as("the kept records were not fetched again")
                    .isEqualTo(RECORDS);

            consumer.commitSync();
            consumer.pause(Set.of(tp));
            assertThat(consumer.poll(Duration.ofMillis(300))).as("paused by the application, records kept or not")
                    .isEmpty();
            assertThat(consumer.paused()).containsExactly(tp);
            consumer.resume(Set.of(tp));
            assertThat(pollUntilSome(consumer)).as("resumed: from where it paused")
                    .isEqualTo(range(2 * CAP, 3 * CAP));

            consumer.seek(tp, 250);
            assertThat(consumer.position(tp)).as("a seek moves the position past the records kept").isEqualTo(250);
            consumer.commitSync();
            assertThat(pollUntilSome(consumer)).as("after the seek: from the new position, nothing kept before it")
                    .isEqualTo(range(250, 250 + CAP));

            consumer.seek(tp, 10);
            assertThat(pollUntilSome(consumer)).as("a seek back: up to the cap past the last commit (250)")
                    .isEqualTo(range(10, 250 + CAP));
            assertThat(consumer.position(tp)).isEqualTo(250 + CAP);
        }
    }

    /**
     * A wakeup from another thread can land in the fetch right after a commit released the records kept at the cap
     * (the 0.8 bridge wakes its poll each time a stream makes room): those records must be kept again, not skipped.
     * Every poll here follows a commit that releases some, while a second thread wakes the consumer over and over.
     */
    @Test
    void wakeupsFromAnotherThreadNeverSkipTheRecordsKeptAtTheCap() throws InterruptedException {
        String topic = "withheld-wakeups";
        int records = 20 * RECORDS;
        servers.broker().createTopic(topic, 1);
        List<EmbeddedKafka.Record> produced = new ArrayList<>();
        for (int i = 0; i < records; i++) {
            produced.add(EmbeddedKafka.Record.to(0, "k" + i, "v" + i));
        }
        servers.broker().produce(topic, produced.toArray(EmbeddedKafka.Record[]::new));
        List<Long> seen = new ArrayList<>();
        int wokenUp = 0;
        try (ZkGroupConsumer<String, String> consumer = new ZkGroupConsumer<>(props(topic),
                new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            // one wakeup per poll, at a random point within its first 300 µs: some land between the release and the
            // inner client's fetch
            Semaphore polls = new Semaphore(0);
            AtomicBoolean reading = new AtomicBoolean(true);
            Thread waker = new Thread(() -> {
                while (reading.get()) {
                    if (polls.tryAcquire()) {
                        long until = System.nanoTime() + ThreadLocalRandom.current().nextLong(300_000);
                        while (System.nanoTime() < until) {
                            Thread.onSpinWait();
                        }
                        consumer.wakeup();
                    } else {
                        Thread.onSpinWait();
                    }
                }
            }, "waker");
            waker.start();
            try {
                long deadline = System.nanoTime() + 2 * WAIT.toNanos();
                while (seen.size() < records && System.nanoTime() < deadline) {
                    commitThroughWakeups(consumer);
                    polls.release();
                    try {
                        for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(100))) {
                            seen.add(r.offset());
                        }
                    } catch (WakeupException e) {
                        wokenUp++;
                    }
                }
            } finally {
                reading.set(false);
                waker.join();
            }
        }
        assertThat(wokenUp).as("the wakeups met the polls").isPositive();
        assertThat(seen).as("every record once, in order, with wakeups between the commits and the polls")
                .isEqualTo(range(0, records));
    }

    /** Commits the positions, again if a wakeup meant for a poll met the commit instead. */
    private static void commitThroughWakeups(ZkGroupConsumer<String, String> consumer) {
        while (true) {
            try {
                consumer.commitSync();
                return;
            } catch (WakeupException e) {
                // the last poll's wakeup came after it returned: delivered now, the next try goes through
            }
        }
    }

    /** Records the inner client took from the broker's answers, kept ones included. */
    private static double fetchedFromTheBroker(ZkGroupConsumer<String, String> consumer) {
        return consumer.metrics().entrySet().stream()
                .filter(m -> m.getKey().name().equals("records-consumed-total")
                        && m.getKey().group().equals("consumer-fetch-manager-metrics")
                        && !m.getKey().tags().containsKey("topic"))
                .mapToDouble(m -> ((Number) m.getValue().metricValue()).doubleValue())
                .sum();
    }

    /** Polls until a batch comes, which it returns as offsets, in order. */
    private static List<Long> pollUntilSome(ZkGroupConsumer<String, String> consumer) {
        List<Long> offsets = new ArrayList<>();
        await().atMost(WAIT).until(() -> {
            ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(100));
            for (ConsumerRecord<String, String> r : records) {
                offsets.add(r.offset());
            }
            return !offsets.isEmpty();
        });
        return offsets;
    }

    private static List<Long> range(long from, long to) {
        List<Long> offsets = new ArrayList<>();
        for (long o = from; o < to; o++) {
            offsets.add(o);
        }
        return offsets;
    }

    private static Properties props(String group) {
        Properties p = servers.consumerProperties(group, "member", 6000);
        p.setProperty("bootstrap.servers", servers.broker().bootstrapServers());
        p.setProperty("enable.auto.commit", "false");
        p.setProperty("max.poll.records", String.valueOf(RECORDS));
        p.setProperty("zkgroups.max.uncommitted.records", String.valueOf(CAP));
        return p;
    }
}
