package io.zkgroups.rebalancer.consumer;

import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.BrokerInfo;
import io.zkgroups.registry.model.TopicRegistration;
import io.zkgroups.testing.ZooKeeperExtension;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.awaitility.Awaitility.await;

/**
 * With the broker gone, the calls that take a timeout return within it instead of waiting out the fetcher's
 * {@code default.api.timeout.ms} (60 s) for a position no broker can tell. ZooKeeper is real and holds the group; the
 * broker is registered there but nothing listens on its port. The partitions have no committed offset, so where they
 * start (auto.offset.reset) is a question only the broker can answer.
 */
@Timeout(120)
class BrokerGoneDeadlinesIT {

    /** Far below the 60 s a lookup of the position would wait without the bound, far above the 2 s asked for. */
    private static final Duration WELL_UNDER_THE_DEFAULT = Duration.ofSeconds(30);

    @RegisterExtension
    static final ZooKeeperExtension zk = new ZooKeeperExtension();

    private ZkGroupConsumer<byte[], byte[]> subscribedConsumer(String group, String topic) throws Exception {
        ZkRegistry registry = ZkRegistry.of(zk.newClient());
        if (registry.brokers().list().entries().isEmpty()) {
            registry.brokers().register(BrokerInfo.v1(0, "127.0.0.1", 1, -1, 1L));
        }
        registry.topics().create(topic, TopicRegistration.v1(2, Arrays.asList(0, 1)));
        Map<String, Object> props = new HashMap<>();
        props.put("group.id", group);
        props.put("zookeeper.connect", zk.server().connectString());
        props.put("auto.commit.enable", "true"); // close commits what was handed out: it has to know the positions
        props.put("auto.commit.interval.ms", "3600000");
        props.put("auto.offset.reset", "smallest");
        ZkGroupConsumer<byte[], byte[]> consumer = new ZkGroupConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
        consumer.subscribe(Collections.singletonList(topic));
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            consumer.poll(Duration.ofMillis(100));
            return consumer.assignment().size() == 2;
        });
        return consumer;
    }

    @Test
    void commitSyncWithATimeoutThrowsKafkasTimeoutExceptionWithinIt() throws Exception {
        ZkGroupConsumer<byte[], byte[]> consumer = subscribedConsumer("deadline-commit", "gone-commit");
        try {
            assertTimeoutPreemptively(WELL_UNDER_THE_DEFAULT, () ->
                    assertThatThrownBy(() -> consumer.commitSync(Duration.ofSeconds(2)))
                            .isInstanceOf(TimeoutException.class)
                            .hasMessageContaining("gone-commit-0"));
            assertThat(consumer.committed(new java.util.HashSet<>(Arrays.asList(
                    new TopicPartition("gone-commit", 0), new TopicPartition("gone-commit", 1)))).values())
                    .as("nothing was committed").containsOnlyNulls();
        } finally {
            consumer.close(Duration.ZERO);
        }
    }

    @Test
    void closeWithATimeoutReturnsWithinItAndLeavesTheGroup() throws Exception {
        ZkGroupConsumer<byte[], byte[]> consumer = subscribedConsumer("deadline-close", "gone-close");
        String registration = "/consumers/deadline-close/ids/" + consumer.consumerId();
        assertThat(zk.newClient().checkExists().forPath(registration)).isNotNull();

        assertTimeoutPreemptively(WELL_UNDER_THE_DEFAULT, () -> consumer.close(Duration.ofSeconds(2)));

        assertThat(zk.newClient().checkExists().forPath(registration)).as("the member left the group").isNull();
        assertThat(zk.newClient().checkExists().forPath("/consumers/deadline-close/owners/gone-close/0"))
                .as("and released what it owned").isNull();
    }

    @Test
    void committedWithATimeoutThrowsKafkasTimeoutExceptionWithinItWhenKafkaHoldsTheOffsets() throws Exception {
        ZkRegistry registry = ZkRegistry.of(zk.newClient());
        if (registry.brokers().list().entries().isEmpty()) {
            registry.brokers().register(BrokerInfo.v1(0, "127.0.0.1", 1, -1, 1L));
        }
        Map<String, Object> props = new HashMap<>();
        props.put("group.id", "deadline-committed");
        props.put("zookeeper.connect", zk.server().connectString());
        props.put("offsets.storage", "kafka"); // read through the Admin client, which waits 30 s for a broker
        ZkGroupConsumer<byte[], byte[]> consumer = new ZkGroupConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
        try {
            assertTimeoutPreemptively(WELL_UNDER_THE_DEFAULT, () ->
                    assertThatThrownBy(() -> consumer.committed(Collections.singleton(new TopicPartition("gone", 0)),
                            Duration.ofSeconds(2)))
                            .isInstanceOf(TimeoutException.class)
                            .hasMessageContaining("gone-0"));
        } finally {
            consumer.close(Duration.ZERO);
        }
    }

    @Test
    void aNegativeCloseTimeoutIsRefusedAsKafkaConsumerRefusesIt() throws Exception {
        ZkGroupConsumer<byte[], byte[]> consumer = subscribedConsumer("deadline-negative", "gone-negative");
        try {
            assertThatThrownBy(() -> consumer.close(Duration.ofMillis(-1))).isInstanceOf(IllegalArgumentException.class);
        } finally {
            consumer.close(Duration.ZERO);
        }
    }
}
