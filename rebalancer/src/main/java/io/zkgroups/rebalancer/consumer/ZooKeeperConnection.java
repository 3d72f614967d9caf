package io.zkgroups.rebalancer.consumer;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InterruptException;

import java.util.concurrent.TimeUnit;

/** The consumer's ZooKeeper client, built from its configuration and connected before it is handed out. */
final class ZooKeeperConnection {

    private ZooKeeperConnection() {
    }

    /**
     * A started client connected within {@code zookeeper.connection.timeout.ms}.
     *
     * @throws KafkaException if ZooKeeper cannot be reached in time
     */
    static CuratorFramework open(ZkConsumerConfig config) {
        CuratorFramework client = CuratorFrameworkFactory.builder()
                .connectString(config.zookeeperConnect())
                .sessionTimeoutMs(config.sessionTimeoutMs())
                .connectionTimeoutMs(config.connectionTimeoutMs())
                .retryPolicy(new ExponentialBackoffRetry(100, 29, 1_000))
                .build();
        client.start();
        try {
            if (!client.blockUntilConnected(config.connectionTimeoutMs(), TimeUnit.MILLISECONDS)) {
                client.close();
                throw new KafkaException("cannot connect to ZooKeeper at " + config.zookeeperConnect() + " within "
                        + config.connectionTimeoutMs() + " ms (zookeeper.connection.timeout.ms)");
            }
        } catch (InterruptedException e) {
            client.close();
            Thread.currentThread().interrupt();
            throw new InterruptException(e);
        }
        return client;
    }
}
