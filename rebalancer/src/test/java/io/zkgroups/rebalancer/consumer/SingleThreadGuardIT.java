package io.zkgroups.rebalancer.consumer;

import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.BrokerInfo;
import io.zkgroups.registry.model.TopicRegistration;
import io.zkgroups.testing.ZooKeeperExtension;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.Collection;
import java.util.ConcurrentModificationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every method that touches the consumer's state refuses a second thread while one is inside, as
 * {@code KafkaConsumer} does: here while the owner thread is blocked in {@code poll}.
 */
@Timeout(60)
class SingleThreadGuardIT {

    /** Never reached: every call is refused before it is sent. */
    private static final Duration SHORT = Duration.ofSeconds(1);

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
        // no broker runs: the guard answers before anything is sent; a registration and the topic in ZooKeeper let the
        // consumer take its metadata from there, as beside a ZooKeeper-mode cluster
        ZkRegistry registry = ZkRegistry.of(zk.newClient());
        registry.brokers().register(BrokerInfo.v1(0, "127.0.0.1", 1, -1, 1L));
        registry.topics().create("guarded", TopicRegistration.v1(1, List.of(0)));
        // without auto-commit: its commit on close would ask the broker that is not there for the position
        ZkGroupConsumer<byte[], byte[]> consumer = new ZkGroupConsumer<>(Map.of(
                "group.id", "guard",
                "auto.commit.enable", "false",
                "zookeeper.connect", zk.server().connectString()), new ByteArrayDeserializer(), new ByteArrayDeserializer());
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch checked = new CountDownLatch(1);
        try {
            // the poll thread stays inside poll, in the rebalance listener, until every method has been tried
            consumer.subscribe(List.of("guarded"), new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                }

                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                    inside.countDown();
                    try {
                        checked.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            });
            CompletableFuture<Void> polling = CompletableFuture.runAsync(() -> {
                while (inside.getCount() > 0) {
                    consumer.poll(Duration.ofMillis(100));
                }
            });
            assertThat(inside.await(30, TimeUnit.SECONDS)).as("the poll thread got its partition").isTrue();
            try {
                calls.forEach((name, call) -> assertThatThrownBy(() -> call.accept(consumer)).as(name)
                        .isInstanceOf(ConcurrentModificationException.class));
            } finally {
                checked.countDown();
                polling.join();
            }
        } finally {
            consumer.close(Duration.ZERO); // nothing to commit, no broker to wait for
        }
    }
}
