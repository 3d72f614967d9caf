package io.zkgroups.it.support;

import io.zkgroups.embedded.EmbeddedKafka;
import io.zkgroups.testing.TestZooKeeper;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.Properties;

/**
 * One {@link TestZooKeeper} and one ZooKeeper-mode {@link EmbeddedKafka} on it per test class, plus a shared
 * Curator client: several ITs repeated exactly this {@code @BeforeAll}/{@code @AfterAll} pair. Starts before the
 * class's {@code @BeforeAll} methods, closes Kafka then ZooKeeper after its {@code @AfterAll} methods, also when
 * a test or the setup fails (if Kafka does not start, ZooKeeper is closed at once). Register it on a static field.
 * Not for tests that restart servers or start more of them: they use the two classes directly.
 */
public final class KafkaOnZooKeeperExtension implements BeforeAllCallback, AfterAllCallback {

    private final String chroot;
    private final int brokerId;
    private TestZooKeeper zk;
    private EmbeddedKafka broker;
    private CuratorFramework client;
    /** The class that started the servers: a {@code @Nested} class inherits the extension and shares them. */
    private String owner;

    /** Broker id 0, registered at the root of ZooKeeper. */
    public KafkaOnZooKeeperExtension() {
        this("", 0);
    }

    /** Broker {@code brokerId} under {@code chroot} (e.g. {@code "/kafka39"}). */
    public KafkaOnZooKeeperExtension(String chroot, int brokerId) {
        this.chroot = chroot;
        this.brokerId = brokerId;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        if (zk != null) {
            return;
        }
        owner = context.getUniqueId();
        zk = TestZooKeeper.start();
        try {
            broker = EmbeddedKafka.startZooKeeperMode(zk.connectString() + chroot, brokerId);
            client = zk.newClient();
        } catch (RuntimeException | Error e) {
            close();
            throw e;
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (context.getUniqueId().equals(owner)) {
            close();
        }
    }

    private void close() {
        try {
            if (broker != null) {
                broker.close();
            }
        } finally {
            broker = null;
            client = null;
            TestZooKeeper server = zk;
            zk = null;
            if (server != null) {
                server.close(); // also closes the clients it handed out
            }
        }
    }

    public TestZooKeeper zooKeeper() {
        return running(zk);
    }

    public EmbeddedKafka broker() {
        return running(broker);
    }

    /** ZooKeeper's {@code 127.0.0.1:port}, without the broker's chroot. */
    public String connectString() {
        return zooKeeper().connectString();
    }

    /** A started client of ZooKeeper's root, opened with the servers and closed with them. */
    public CuratorFramework client() {
        return running(client);
    }

    /** {@link TestZooKeeper#newClient()}: another started client, closed with the servers. */
    public CuratorFramework newClient() {
        return zooKeeper().newClient();
    }

    private static <T> T running(T server) {
        if (server == null) {
            throw new IllegalStateException("no servers running: register the extension on a static field");
        }
        return server;
    }

    /**
     * A ZkGroupConsumer's settings for this ZooKeeper: {@code consumerId} in {@code group}, from the earliest offset,
     * auto-commit every 100 ms, short back-off.
     */
    public Properties consumerProperties(String group, String consumerId, int sessionTimeoutMs) {
        Properties p = new Properties();
        p.setProperty("zookeeper.connect", connectString());
        p.setProperty("group.id", group);
        p.setProperty("consumer.id", consumerId);
        p.setProperty("auto.offset.reset", "smallest");
        p.setProperty("auto.commit.interval.ms", "100");
        p.setProperty("zookeeper.session.timeout.ms", String.valueOf(sessionTimeoutMs));
        p.setProperty("rebalance.backoff.ms", "300");
        return p;
    }
}
