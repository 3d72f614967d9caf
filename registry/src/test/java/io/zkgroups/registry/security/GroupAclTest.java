package io.zkgroups.registry.security;

import io.zkgroups.registry.ZkLayout;
import io.zkgroups.testing.TestZooKeeper;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code zookeeper.set.acl=true} against a real server: what an authenticated zkgroups client creates, and what others may do. */
@Timeout(60)
class GroupAclTest {

    static TestZooKeeper zk;
    static CuratorFramework secured;
    static CuratorFramework anonymous;

    @BeforeAll
    static void start() throws Exception {
        zk = TestZooKeeper.start();
        ZkClientSecurity security = ZkClientSecurity.parse(
                Map.of("zookeeper.set.acl", "true", "zkgroups.zookeeper.auth", "alice:secret"), "test");
        secured = connect(security.applyTo(builder(), ZkLayout.root()));
        anonymous = connect(builder());
    }

    @AfterAll
    static void stop() {
        if (secured != null) {
            secured.close();
        }
        if (anonymous != null) {
            anonymous.close();
        }
        if (zk != null) {
            zk.close();
        }
    }

    private static CuratorFrameworkFactory.Builder builder() {
        return CuratorFrameworkFactory.builder().connectString(zk.connectString())
                .sessionTimeoutMs(10_000).retryPolicy(new ExponentialBackoffRetry(50, 5));
    }

    private static CuratorFramework connect(CuratorFrameworkFactory.Builder builder) throws InterruptedException {
        CuratorFramework client = builder.build();
        client.start();
        assertThat(client.blockUntilConnected(20, TimeUnit.SECONDS)).isTrue();
        return client;
    }

    @Test
    void groupZnodesAreWritableOnlyByTheCreatorAndReadableByAll() throws Exception {
        String offset = "/consumers/acl-group/offsets/t/0";
        secured.create().creatingParentsIfNeeded().forPath(offset, "42".getBytes(StandardCharsets.UTF_8));

        Id alice = new Id("digest", DigestAuthenticationProvider.generateDigest("alice:secret"));
        List<ACL> expected = List.of(new ACL(ZooDefs.Perms.ALL, alice), new ACL(ZooDefs.Perms.READ, ZooDefs.Ids.ANYONE_ID_UNSAFE));
        for (String path : List.of("/consumers/acl-group", "/consumers/acl-group/offsets", offset)) {
            assertThat(secured.getACL().forPath(path)).as(path).containsExactlyInAnyOrderElementsOf(expected);
        }
        assertThat(secured.getACL().forPath("/consumers")).isEqualTo(ZooDefs.Ids.OPEN_ACL_UNSAFE);

        // a client without credentials (a 0.8.2.2 consumer) reads, but can neither commit nor register
        assertThat(new String(anonymous.getData().forPath(offset), StandardCharsets.UTF_8)).isEqualTo("42");
        assertThatThrownBy(() -> anonymous.setData().forPath(offset, "7".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(KeeperException.NoAuthException.class);
        assertThatThrownBy(() -> anonymous.create().withMode(CreateMode.EPHEMERAL)
                .forPath("/consumers/acl-group/offsets/t/1", new byte[0]))
                .isInstanceOf(KeeperException.NoAuthException.class);
        // other groups under the shared /consumers stay open to everyone
        anonymous.create().creatingParentsIfNeeded().forPath("/consumers/legacy-group/ids/c1", new byte[0]);
        secured.setData().forPath(offset, "43".getBytes(StandardCharsets.UTF_8));
    }
}
