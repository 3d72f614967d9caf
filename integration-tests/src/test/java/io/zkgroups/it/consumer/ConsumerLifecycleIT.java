package io.zkgroups.it.consumer;

import io.zkgroups.it.support.KafkaOnZooKeeperExtension;
import io.zkgroups.rebalancer.consumer.ZkGroupConsumer;
import io.zkgroups.testing.TcpProxy;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.List;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** How a ZkGroupConsumer ends when ZooKeeper cannot be reached: as fast as the session would end it anyway. */
@Timeout(120)
class ConsumerLifecycleIT {

    private static final int SESSION_MS = 4000;

    @RegisterExtension
    static final KafkaOnZooKeeperExtension servers = new KafkaOnZooKeeperExtension();

    /**
     * With auto-commit the revocation's commit is what waits on ZooKeeper; without it the member's own leave (its owner
     * znodes and registration) already is when close gives up.
     */
    @ParameterizedTest(name = "enable.auto.commit={0}")
    @ValueSource(booleans = {true, false})
    void closeWithZooKeeperUnreachableReturnsWithinTheSessionTimeoutNotTheCloseTimeout(boolean autoCommit) {
        long tookMs = closeUnreachable("unreachable-" + autoCommit, autoCommit);
        assertThat(tookMs).as("close took (ms), session timeout " + SESSION_MS + " ms")
                .isLessThan(SESSION_MS + 2000);
    }

    /** Joins through a proxy, black-holes it, then returns how long close took. */
    private long closeUnreachable(String group, boolean autoCommit) {
        String topic = group + "-t";
        servers.broker().createTopic(topic, 2);
        int zkPort = Integer.parseInt(servers.connectString().substring(servers.connectString().lastIndexOf(':') + 1));
        try (TcpProxy proxy = TcpProxy.start("zk", zkPort)) {
            Properties p = servers.consumerProperties(group, "m", SESSION_MS);
            p.setProperty("zookeeper.connect", "127.0.0.1:" + proxy.port());
            p.setProperty("bootstrap.servers", servers.broker().bootstrapServers());
            p.setProperty("enable.auto.commit", String.valueOf(autoCommit));
            ZkGroupConsumer<String, String> consumer =
                    new ZkGroupConsumer<>(p, new StringDeserializer(), new StringDeserializer());
            consumer.subscribe(List.of(topic));
            await("both partitions assigned").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ZERO).until(() -> {
                consumer.poll(Duration.ofMillis(100));
                return consumer.assignment().size() == 2;
            });

            proxy.blackhole();
            long start = System.nanoTime();
            consumer.close(Duration.ofSeconds(30));
            long tookMs = (System.nanoTime() - start) / 1_000_000;

            System.out.println("ConsumerLifecycleIT: close of group " + group
                    + " with ZooKeeper unreachable took " + tookMs + " ms");
            assertThatThrownBy(consumer::assignment).isInstanceOf(IllegalStateException.class)
                    .hasMessage("This consumer has already been closed.");
            return tookMs;
        }
    }
}
