package io.zkgroups.rebalancer.restart;

import io.zkgroups.testing.ZooKeeperExtension;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** Against a real ZooKeeper: what a detached handle leaves behind, and what a resuming one finds. */
@Timeout(60)
class HandoverZooKeeperFactoryIT {

    @RegisterExtension
    static final ZooKeeperExtension zk = new ZooKeeperExtension();

    private CuratorFramework client(HandoverZooKeeperFactory handles, int sessionMs) {
        CuratorFramework client = CuratorFrameworkFactory.builder().zookeeperFactory(handles)
                .connectString(zk.connectString()).sessionTimeoutMs(sessionMs).connectionTimeoutMs(5_000)
                .retryPolicy(new RetryOneTime(10)).build();
        return zk.server().adopt(client);
    }

    private static long session(CuratorFramework client) throws Exception {
        return client.getZookeeperClient().getZooKeeper().getSessionId();
    }

    @Test
    void aDetachedSessionKeepsItsEphemeralsAndTheSuccessorResumesItWithThem() throws Exception {
        HandoverZooKeeperFactory oldHandles = new HandoverZooKeeperFactory(Optional.empty());
        CuratorFramework old = client(oldHandles, 10_000);
        old.create().withMode(CreateMode.EPHEMERAL).forPath("/resumed", "mine".getBytes(StandardCharsets.UTF_8));
        long session = session(old);

        SessionCredentials handedOver = oldHandles.detach();
        old.close(); // sends nothing: the handle is detached
        assertThat(handedOver.sessionId()).isEqualTo(session);
        Stat kept = zk.newClient().checkExists().forPath("/resumed");
        assertThat(kept).as("the ephemeral outlives its client").isNotNull();
        assertThat(kept.getEphemeralOwner()).isEqualTo(session);

        CuratorFramework successor = client(new HandoverZooKeeperFactory(Optional.of(handedOver)), 10_000);
        assertThat(session(successor)).isEqualTo(session);
        assertThat(successor.checkExists().forPath("/resumed").getMzxid()).isEqualTo(kept.getMzxid());
        successor.setData().forPath("/resumed", "still mine".getBytes(StandardCharsets.UTF_8)); // owned: it may write
    }

    @Test
    void aDetachedClientNeverReconnectsAndLeavesTheSessionToItsSuccessor() throws Exception {
        HandoverZooKeeperFactory oldHandles = new HandoverZooKeeperFactory(Optional.empty());
        CuratorFramework old = client(oldHandles, 10_000);
        SessionCredentials handedOver = oldHandles.detach();
        CuratorFramework successor = client(new HandoverZooKeeperFactory(Optional.of(handedOver)), 10_000);
        List<ConnectionState> successorStates = new CopyOnWriteArrayList<>();
        successor.getConnectionStateListenable().addListener((c, state) -> successorStates.add(state));

        assertThatThrownBy(() -> old.checkExists().forPath("/"))
                .as("the old client has no connection and may not make one");
        assertThatThrownBy(oldHandles::detach).isInstanceOf(IllegalStateException.class);
        successor.create().withMode(CreateMode.EPHEMERAL).forPath("/after", new byte[0]);
        // CONNECTED may still arrive here (listeners are told after blockUntilConnected returns); a reconnecting
        // predecessor would show as SUSPENDED, LOST or RECONNECTED.
        assertThat(successorStates).as("the successor was never disconnected")
                .doesNotContain(ConnectionState.SUSPENDED, ConnectionState.LOST, ConnectionState.RECONNECTED);
        assertThat(session(successor)).isEqualTo(handedOver.sessionId());
        old.close();
    }

    @Test
    void aSessionThatExpiredBeforeTheSuccessorCameIsReplacedByAFreshOne() throws Exception {
        HandoverZooKeeperFactory oldHandles = new HandoverZooKeeperFactory(Optional.empty());
        CuratorFramework old = client(oldHandles, 500);
        old.create().withMode(CreateMode.EPHEMERAL).forPath("/expiring", new byte[0]);
        SessionCredentials handedOver = oldHandles.detach();
        old.close();
        CuratorFramework observer = zk.newClient();
        await("the session's end").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20))
                .until(() -> observer.checkExists().forPath("/expiring") == null);

        CuratorFramework successor = client(new HandoverZooKeeperFactory(Optional.of(handedOver)), 500);
        await("a new session").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20)).ignoreExceptions()
                .until(() -> successor.getZookeeperClient().isConnected() && session(successor) != 0
                        && session(successor) != handedOver.sessionId());
    }
}
