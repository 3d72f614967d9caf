package io.zkgroups.rebalancer.consumer;

import io.zkgroups.rebalancer.group.MemberClients;
import io.zkgroups.rebalancer.restart.HandoverZooKeeperFactory;
import io.zkgroups.registry.server.ServerCapabilities;
import org.apache.curator.framework.CuratorFramework;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InterruptException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.TimeUnit;

/** The consumer's ZooKeeper client, built from its configuration and connected before it is handed out. */
final class ZooKeeperConnection {

    private static final Logger LOG = LoggerFactory.getLogger(ZooKeeperConnection.class);

    private ZooKeeperConnection() {
    }

    /**
     * A started client connected within {@code zookeeper.connection.timeout.ms}, with the configured TLS, SASL,
     * digest credentials and ACLs (its own ZooKeeper client configuration: no System property is read or set here).
     * Its handles come from {@code handles}: the first one resumes a handed-over session if it was given one, and
     * {@link HandoverZooKeeperFactory#detach()} lets go of the connection without ending the session.
     *
     * @throws KafkaException if ZooKeeper cannot be reached in time
     */
    static CuratorFramework open(ZkConsumerConfig config, HandoverZooKeeperFactory handles) {
        CuratorFramework client = build(config, handles);
        String security = config.zooKeeperSecurity().describe();
        LOG.info("connecting to ZooKeeper at {} ({})", config.zookeeperConnect(), security);
        client.start();
        try {
            if (!client.blockUntilConnected(config.connectionTimeoutMs(), TimeUnit.MILLISECONDS)) {
                client.close();
                throw new KafkaException("cannot connect to ZooKeeper at " + config.zookeeperConnect() + " within "
                        + config.connectionTimeoutMs() + " ms (zookeeper.connection.timeout.ms; " + security + ")");
            }
        } catch (InterruptedException e) {
            client.close();
            Thread.currentThread().interrupt();
            throw new InterruptException(e);
        }
        config.zooKeeperServerGeneration().ifPresent(declared -> ServerCapabilities.declare(client, declared));
        ServerCapabilities.learnAhead(client); // while the fetch client is built: the join needs it first
        return client;
    }

    /** The client, not started: building it connects to nothing. */
    static CuratorFramework build(ZkConsumerConfig config, HandoverZooKeeperFactory handles) {
        return MemberClients.builder(config.zookeeperConnect(), config.sessionTimeoutMs(), config.connectionTimeoutMs(),
                config.zooKeeperSecurity()).zookeeperFactory(handles).build();
    }
}
