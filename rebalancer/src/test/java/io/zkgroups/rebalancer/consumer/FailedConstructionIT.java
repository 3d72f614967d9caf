package io.zkgroups.rebalancer.consumer;

import io.zkgroups.rebalancer.offsets.OffsetStoreType;
import io.zkgroups.rebalancer.offsets.OffsetStores;
import io.zkgroups.testing.TestZooKeeper;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.ResourceLock;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A consumer whose construction fails halfway closes what it had opened, through the same list as close(): here the
 * offset store fails after the ZooKeeper client, the fetch client, the admin client and the topic-metadata poller
 * (no broker registers in ZooKeeper) were started.
 */
@Timeout(60)
@ResourceLock("io.zkgroups.rebalancer.offsets.OffsetStores")
class FailedConstructionIT {

    @Test
    void aConstructorThatFailsHalfwayLeavesNoThreadOfWhatItOpened() {
        try (TestZooKeeper zk = TestZooKeeper.start();
             OffsetStores.Registration ignored = OffsetStores.register(OffsetStoreType.of("test-failing",
                     (registry, admin) -> {
                         throw new IllegalStateException("the test's store cannot open");
                     }))) {
            Set<Thread> before = Thread.getAllStackTraces().keySet();
            Properties p = new Properties();
            p.setProperty("group.id", "failing");
            p.setProperty("zookeeper.connect", zk.connectString());
            p.setProperty("bootstrap.servers", "127.0.0.1:9"); // nothing is asked of it before the failure
            p.setProperty("offsets.storage", "test-failing");

            assertThatThrownBy(() -> new ZkGroupConsumer<>(p, new StringDeserializer(), new StringDeserializer()))
                    .hasMessageContaining("the test's store cannot open");

            await("the threads the constructor started end").atMost(Duration.ofSeconds(20))
                    .untilAsserted(() -> assertThat(startedSince(before)).isEmpty());
        }
    }

    /**
     * Live threads started since {@code before} by the consumer's clients: the poller, Kafka's and ZooKeeper's. The
     * 0.8.2.2 meters' sampling thread is one for the whole JVM (SamplingTicker), started by the first consumer.
     */
    private static List<String> startedSince(Set<Thread> before) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> !before.contains(t) && t.isAlive() && !t.getName().equals("zkgroups-legacy-metrics"))
                .map(Thread::getName)
                .filter(name -> name.startsWith("zkgroups-") || name.startsWith("kafka-")
                        || name.contains("SendThread") || name.contains("EventThread") || name.startsWith("Curator-"))
                .collect(Collectors.toList());
    }
}
