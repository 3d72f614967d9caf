package io.zkgroups.registry.store;

import io.zkgroups.testing.ZooKeeperExtension;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
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
}
