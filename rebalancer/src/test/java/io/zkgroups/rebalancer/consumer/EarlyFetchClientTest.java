package io.zkgroups.rebalancer.consumer;

import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class EarlyFetchClientTest {

    private static final ZkConsumerConfig NOTHING_LISTENS = ZkConsumerConfig.from(Map.of(
            "group.id", "g",
            "zookeeper.connect", "127.0.0.1:1",
            "bootstrap.servers", "127.0.0.1:1"));

    @Test
    void aBrokerThatDoesNotAnswerStillLeavesTheSuccessorItsFetchClient() {
        // a waiting successor builds its fetch client before its ticket comes; a broker it cannot reach then must not
        // stop it from waiting (the real start reports what is wrong); the fetch client it built is still its own
        KafkaConsumer<byte[], byte[]> fetcher = EarlyFetchClient.build(NOTHING_LISTENS, bootstrap -> new KafkaConsumer<>(
                NOTHING_LISTENS.fetchClientProperties(bootstrap), new ByteArrayDeserializer(), new ByteArrayDeserializer()));
        try {
            assertThat(fetcher).isNotNull();
            assertThat(fetcher.assignment()).isEmpty();
        } finally {
            fetcher.close(Duration.ZERO);
        }
    }

    @Test
    void aFetchClientThatCannotBeBuiltIsLeftToTheRealStart() {
        KafkaConsumer<byte[], byte[]> fetcher = EarlyFetchClient.build(NOTHING_LISTENS, bootstrap -> {
            throw new IllegalArgumentException("no such deserializer");
        });
        assertThat(fetcher).isNull();
    }

    @Test
    void withoutBootstrapServersThereIsNothingToBuildEarly() {
        ZkConsumerConfig fromZooKeeper = ZkConsumerConfig.from(Map.of("group.id", "g", "zookeeper.connect", "127.0.0.1:1"));
        assertThat(EarlyFetchClient.build(fromZooKeeper, bootstrap -> {
            throw new AssertionError("nothing to build without bootstrap.servers");
        })).isNull();
    }
}
