package io.zkgroups.registry.store;

import io.zkgroups.registry.RegistryException;
import io.zkgroups.testing.TcpProxy;
import io.zkgroups.testing.ZooKeeperExtension;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** A handle that does not wait for its threads at close still ends its session before close returns. */
@Timeout(60)
class PromptClosingZooKeeperIT {

    @RegisterExtension
    static final ZooKeeperExtension zk = new ZooKeeperExtension();

    @Test
    void closeEndsTheSessionBeforeItReturnsAndTheThreadsEndAfterwards() throws Exception {
        CuratorFramework observer = zk.newClient();
        for (int waitForShutdownMs : new int[]{0, 2_000}) { // Curator calls close() or close(int)
            CuratorFramework client = CuratorFrameworkFactory.builder().connectString(zk.server().connectString())
                    .retryPolicy(new RetryOneTime(10)).waitForShutdownTimeoutMs(waitForShutdownMs)
                    .zookeeperFactory(PromptClosingZooKeeper.factory()).build();
            client.start();
            assertThat(client.blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
            String path = client.create().withMode(CreateMode.EPHEMERAL).forPath("/prompt-" + waitForShutdownMs);
            long session = client.getZookeeperClient().getZooKeeper().getSessionId();
            assertThat(client.getZookeeperClient().getZooKeeper()).isInstanceOf(PromptClosingZooKeeper.class);

            client.close();

            assertThat(observer.checkExists().forPath(path)).as("the session's ephemeral, at once").isNull();
            await().atMost(Duration.ofSeconds(10)).until(() -> Thread.getAllStackTraces().keySet().stream()
                    .noneMatch(t -> t.getName().equals("zookeeper-disconnect-0x" + Long.toHexString(session))));
        }
    }

    /**
     * Closed while its connection is lost, the client does not wait to send closeSession: the reads waiting for an
     * answer end at once instead of when the connection attempt under way times out (the session ends on the server
     * when it times out).
     */
    @Test
    void closeWhileDisconnectedEndsTheReadsWaitingAtOnce() throws Exception {
        int sessionMs = 4_000;
        try (TcpProxy proxy = TcpProxy.start("zk", port(zk.server().connectString()))) {
            CuratorFramework client = CuratorFrameworkFactory.builder().connectString(proxy.address().getHostString()
                            + ":" + proxy.port()).sessionTimeoutMs(sessionMs).connectionTimeoutMs(15_000)
                    .retryPolicy(new ExponentialBackoffRetry(100, 29, 1_000))
                    .zookeeperFactory(PromptClosingZooKeeper.factory()).build();
            CountDownLatch suspended = new CountDownLatch(1);
            client.getConnectionStateListenable().addListener((c, state) -> {
                if (state == ConnectionState.SUSPENDED) {
                    suspended.countDown();
                }
            });
            client.start();
            assertThat(client.blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
            Znodes znodes = new Znodes(client);
            znodes.ensurePersistent("/waiting/a");

            proxy.blackhole();
            CompletableFuture<Map<String, Znodes.Data>> read =
                    CompletableFuture.supplyAsync(() -> znodes.readAll(List.of("/waiting/a", "/waiting/b"), null));
            assertThat(suspended.await(sessionMs * 2L, TimeUnit.MILLISECONDS)).as("the connection loss seen").isTrue();
            long start = System.nanoTime();
            client.close();
            assertThatThrownBy(() -> read.get(30, TimeUnit.SECONDS)).hasCauseInstanceOf(RegistryException.class);
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(tookMs).as("ms from close to the read's end (a connection attempt takes %d)", sessionMs)
                    .isLessThan(1_000);
        }
    }

    private static int port(String connectString) {
        return Integer.parseInt(connectString.substring(connectString.lastIndexOf(':') + 1));
    }
}
