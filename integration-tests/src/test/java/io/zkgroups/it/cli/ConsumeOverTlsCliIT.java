package io.zkgroups.it.cli;

import io.zkgroups.embedded.EmbeddedKafka;
import io.zkgroups.testing.TestKeyStores;
import io.zkgroups.testing.ChildZooKeeperServer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code consume --zk-tls-config-file}: the console consumer reaches a ZooKeeper that serves TLS only on the port it
 * is given with the same file every other command takes, and removes its generated group over it.
 */
@Timeout(180)
class ConsumeOverTlsCliIT {

    @TempDir
    static Path dir;
    static ChildZooKeeperServer zk;
    static EmbeddedKafka broker;
    static CuratorFramework plain;
    static Path tlsConfig;

    @BeforeAll
    static void start() throws Exception {
        TestKeyStores stores = TestKeyStores.generate(dir);
        zk = ChildZooKeeperServer.start(ChildZooKeeperServer.settings().withTls(stores));
        broker = EmbeddedKafka.startZooKeeperMode(zk.connectString());
        broker.createTopic("tls-console", 1);
        broker.produce("tls-console", EmbeddedKafka.Record.of("k", "a"), EmbeddedKafka.Record.of("k", "b"));
        plain = CuratorFrameworkFactory.newClient(zk.connectString(), new ExponentialBackoffRetry(100, 5));
        plain.start();
        assertThat(plain.blockUntilConnected(30, TimeUnit.SECONDS)).isTrue();
        tlsConfig = stores.writeZooKeeperClientConfig(dir.resolve("zk-tls.properties"));
    }

    @AfterAll
    static void stop() {
        if (plain != null) {
            plain.close();
        }
        if (broker != null) {
            broker.close();
        }
        if (zk != null) {
            zk.close();
        }
    }

    @Test
    void consumesOverTlsAndRemovesItsGeneratedGroup() throws Exception {
        CliCluster.Run run = CliCluster.raw("consume", "--topic", "tls-console", "--from-beginning", "--max-messages", "2",
                "--zookeeper", zk.secureConnectString(), "--zk-tls-config-file", tlsConfig.toString(), "--timeout", "30000");

        assertThat(run.code()).as(run.toString()).isZero();
        assertThat(run.out().lines()).containsExactly("a", "b");
        assertThat(plain.getChildren().forPath("/consumers")).noneMatch(g -> g.startsWith("zkgroups-console-"));
    }

    @Test
    void withoutTheTlsFileItCannotConnectAndSaysSo() {
        CliCluster.Run run = CliCluster.raw("consume", "--topic", "tls-console", "--max-messages", "1",
                "--zookeeper", zk.secureConnectString(), "--timeout", "2000");

        assertThat(run.code()).as(run.toString()).isEqualTo(5);
        assertThat(run.err()).contains("cannot connect to ZooKeeper at " + zk.secureConnectString())
                .contains("--zk-tls-config-file");
    }
}
