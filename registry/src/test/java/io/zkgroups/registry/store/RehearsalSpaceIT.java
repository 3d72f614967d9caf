package io.zkgroups.registry.store;

import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.testing.ZooKeeperExtension;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Where a rehearsal's scratch group lives, and that nothing of it stays behind. */
@Timeout(60)
class RehearsalSpaceIT {

    @RegisterExtension
    static final ZooKeeperExtension zk = new ZooKeeperExtension();

    @Test
    void theSpaceIsTheSessionsBelowTheGroupAndGoesWithItsDirectory() throws Exception {
        CuratorFramework client = zk.newClient();
        Znodes znodes = new Znodes(client);
        RehearsalSpace space = RehearsalSpace.create(znodes, ZkLayout.root(), "rs1");

        String expected = "/consumers/rs1/zkgroups-rehearsal/" + Long.toHexString(znodes.sessionId());
        assertThat(space.path()).isEqualTo(expected);
        assertThat(space.layout().memberIds("scratch")).isEqualTo(expected + "/consumers/scratch/ids");
        znodes.ensurePersistent(space.layout().owners("scratch", "t"));

        space.delete();
        assertThat(client.checkExists().forPath("/consumers/rs1/zkgroups-rehearsal")).isNull();
        assertThat(client.checkExists().forPath("/consumers/rs1")).isNotNull();
    }

    @Test
    void deletingKeepsTheDirectoryWhileAnotherSessionRehearses() throws Exception {
        RehearsalSpace mine = RehearsalSpace.create(new Znodes(zk.newClient()), ZkLayout.root(), "rs2");
        RehearsalSpace theirs = RehearsalSpace.create(new Znodes(zk.newClient()), ZkLayout.root(), "rs2");

        mine.delete();
        CuratorFramework observer = zk.newClient();
        assertThat(observer.checkExists().forPath(mine.path())).isNull();
        assertThat(observer.checkExists().forPath(theirs.path())).isNotNull();
    }

    @Test
    void aRehearsalThatEndsWaitsForTheOthersStillRunningInTheGroup() throws Exception {
        RehearsalSpace mine = RehearsalSpace.create(new Znodes(zk.newClient()), ZkLayout.root(), "rs4");
        RehearsalSpace theirs = RehearsalSpace.create(new Znodes(zk.newClient()), ZkLayout.root(), "rs4");
        mine.delete();

        assertThat(mine.awaitOthers(Duration.ofSeconds(5), Duration.ofMillis(100))).as("theirs is running").isFalse();
        java.util.concurrent.CompletableFuture<Boolean> waited = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return mine.awaitOthers(Duration.ofSeconds(5), Duration.ofSeconds(30));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        theirs.delete();
        assertThat(waited.get(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void aSpaceCreatedBeforeTheActiveWindowIsNotWaitedFor() throws Exception {
        RehearsalSpace old = RehearsalSpace.create(new Znodes(zk.newClient()), ZkLayout.root(), "rs5");
        Znodes znodes = new Znodes(zk.newClient());
        long oldCreated = zk.newClient().checkExists().forPath(old.path()).getCtime();
        // a space of this session created once ZooKeeper's clock has moved past the other's creation
        RehearsalSpace[] mine = new RehearsalSpace[1];
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            mine[0] = RehearsalSpace.create(znodes, ZkLayout.root(), "rs5");
            return zk.newClient().checkExists().forPath(mine[0].path()).getCtime() > oldCreated;
        });
        mine[0].delete();

        assertThat(mine[0].awaitOthers(Duration.ZERO, Duration.ofSeconds(30))).isTrue();
        assertThat(znodes.exists(old.path())).isTrue();
    }

    @Test
    void aSpaceLeftBehindIsDeletedByTheNextRehearsalOnceStaleAndNotBefore() throws Exception {
        CuratorFramework crashed = zk.newClient();
        String leftover = "/consumers/rs3/zkgroups-rehearsal/1234abcd";
        new Znodes(crashed).ensurePersistent(leftover + "/consumers/rs3/ids");
        crashed.close();

        Znodes znodes = new Znodes(zk.newClient());
        RehearsalSpace.create(znodes, ZkLayout.root(), "rs3").delete(); // one minute has not passed: kept
        assertThat(znodes.exists(leftover)).isTrue();

        // with no margin, stale as soon as ZooKeeper's clock has moved past its creation
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            RehearsalSpace.create(znodes, ZkLayout.root(), "rs3", Duration.ZERO).delete();
            return !znodes.exists(leftover);
        });
        assertThat(znodes.exists("/consumers/rs3/zkgroups-rehearsal")).isFalse();
    }
}
