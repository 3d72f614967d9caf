package io.zkgroups.it.consumer;

import io.zkgroups.it.support.KafkaOnZooKeeperExtension;
import io.zkgroups.rebalancer.consumer.ZkGroupConsumer;
import io.zkgroups.testing.TcpProxy;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

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

    @Test
    void closeWithZooKeeperUnreachableReturnsWithinTheSessionTimeoutNotTheCloseTimeout() {
        String group = "unreachable";
        String topic = group + "-t";
        servers.broker().createTopic(topic, 2);
        int zkPort = Integer.parseInt(servers.connectString().substring(servers.connectString().lastIndexOf(':') + 1));
        try (TcpProxy proxy = TcpProxy.start("zk", zkPort)) {
            Properties p = servers.consumerProperties(group, "m", SESSION_MS);
            p.setProperty("zookeeper.connect", "127.0.0.1:" + proxy.port());
            p.setProperty("bootstrap.servers", servers.broker().bootstrapServers());
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

            System.out.println("ConsumerLifecycleIT: close with ZooKeeper unreachable took " + tookMs + " ms");
            assertThat(tookMs).as("close took (ms), session timeout " + SESSION_MS + " ms")
                    .isLessThan(SESSION_MS + 2000);
            assertThatThrownBy(consumer::assignment).isInstanceOf(IllegalStateException.class)
                    .hasMessage("This consumer has already been closed.");
        }
    }
}
