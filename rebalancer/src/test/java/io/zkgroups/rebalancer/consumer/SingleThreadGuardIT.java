package io.zkgroups.rebalancer.consumer;

import io.zkgroups.registry.testing.ZooKeeperExtension;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Every method that touches the consumer's state refuses a second thread while one is inside, as
 * {@code KafkaConsumer} does: here while the owner thread is blocked in {@code poll}.
 */
@Timeout(60)
class SingleThreadGuardIT {

    /** Before the poll thread is inside poll, a call may run (and time out) rather than be refused: kept short. */
    private static final Duration SHORT = Duration.ofMillis(100);

    @RegisterExtension
    static final ZooKeeperExtension zk = new ZooKeeperExtension();

    @Test
    void aSecondThreadIsRefusedByEveryMethodThatReadsTheFetcher() throws Exception {
        TopicPartition tp = new TopicPartition("guarded", 0);
        Map<String, Consumer<ZkGroupConsumer<byte[], byte[]>>> calls = Map.of(
                "partitionsFor", c -> c.partitionsFor("guarded", SHORT),
                "listTopics", c -> c.listTopics(SHORT),
                "paused", ZkGroupConsumer::paused,
                "offsetsForTimes", c -> c.offsetsForTimes(Map.of(tp, 0L), SHORT),
                "beginningOffsets", c -> c.beginningOffsets(List.of(tp), SHORT),
                "endOffsets", c -> c.endOffsets(List.of(tp), SHORT),
                "currentLag", c -> c.currentLag(tp));
        // no broker is needed: the guard answers before anything is sent
        ZkGroupConsumer<byte[], byte[]> consumer = new ZkGroupConsumer<>(Map.of(
                "group.id", "guard",
                "zookeeper.connect", zk.server().connectString(),
                "bootstrap.servers", "127.0.0.1:1"), new ByteArrayDeserializer(), new ByteArrayDeserializer());
        try {
            consumer.subscribe(List.of("guarded"));
            CompletableFuture<Void> polling = CompletableFuture.runAsync(() -> {
                while (true) {
                    try {
                        consumer.poll(Duration.ofSeconds(30));
                    } catch (java.util.ConcurrentModificationException testThreadWasInside) {
                        // the test thread's probe held the consumer at that moment: poll again
                    } catch (WakeupException done) {
                        return;
                    }
                }
            });
            try {
                calls.forEach((name, call) -> await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                        assertThatThrownBy(() -> call.accept(consumer)).as(name)
                                .isInstanceOf(java.util.ConcurrentModificationException.class)));
            } finally {
                consumer.wakeup();
                polling.join();
            }
        } finally {
            consumer.close(Duration.ZERO); // nothing to commit, no broker to wait for
        }
    }
}
