package io.zkgroups.testing;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.server.quorum.QuorumPeer.ServerState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** {@link TestEnsemble}: its cuts really separate a server from the quorum, and it recovers when healed. */
@Timeout(240)
class TestEnsembleIT {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void anIsolatedFollowerDropsOutWhileTheOthersGoOnAndCatchesUpAfterTheHeal() throws Exception {
        try (TestEnsemble ensemble = TestEnsemble.start(TestEnsemble.Settings.threeServers())) {
            ensemble.awaitQuorum();
            int leader = ensemble.leader();
            int x = ensemble.followers().get(0);

            ensemble.isolate(x);
            await().atMost(WAIT).until(() -> !ensemble.isServing(x));
            CuratorFramework onLeader = ensemble.newClient(leader, 10_000);
            onLeader.create().forPath("/written-during-the-cut", bytes("v"));
            assertThat(ensemble.state(leader)).isEqualTo(ServerState.LEADING);

            ensemble.healAll();
            ensemble.awaitQuorum();
            assertThat(ensemble.leader()).isEqualTo(leader);
            CuratorFramework onX = ensemble.newClient(x, 10_000);
            onX.sync().forPath("/");
            assertThat(onX.getData().forPath("/written-during-the-cut")).isEqualTo(bytes("v"));
        }
    }

    @Test
    void anIsolatedLeaderIsReplacedByTheOthers() {
        try (TestEnsemble ensemble = TestEnsemble.start(TestEnsemble.Settings.threeServers())) {
            ensemble.awaitQuorum();
            int old = ensemble.leader();
            List<Integer> others = ensemble.live().stream().filter(id -> id != old).toList();

            ensemble.isolate(old);
            // Only if election traffic is cut too: otherwise the old leader's votes keep the others following it.
            await().atMost(WAIT).until(() -> others.stream().anyMatch(id -> ensemble.state(id) == ServerState.LEADING)
                    && others.stream().allMatch(ensemble::isServing));
            await().atMost(WAIT).until(() -> !ensemble.isServing(old));

            ensemble.healAll();
            ensemble.awaitQuorum();
            assertThat(ensemble.leader()).isIn(others);
            assertThat(ensemble.state(old)).isEqualTo(ServerState.FOLLOWING);
        }
    }

    @Test
    void aKilledLeaderIsReplaced() {
        try (TestEnsemble ensemble = TestEnsemble.start(TestEnsemble.Settings.threeServers())) {
            ensemble.awaitQuorum();
            int old = ensemble.leader();

            ensemble.kill(old);
            ensemble.awaitQuorum();
            assertThat(ensemble.live()).doesNotContain(old).hasSize(2);
            assertThat(ensemble.leader()).isNotEqualTo(old);
        }
    }

    @Test
    void childJvmServersComeBackWithTheirDataAndACutServerRejoins(@TempDir Path dir) throws Exception {
        TestEnsemble.Settings settings = new TestEnsemble.Settings(3, 100, 20, 5, 0, null, null, List.of())
                .inDirectory(dir.resolve("data")).inChildJvms(dir.resolve("logs"), List.of("-Dzookeeper.forceSync=no"));
        try (TestEnsemble ensemble = TestEnsemble.start(settings)) {
            ensemble.awaitQuorum(WAIT);
            int old = ensemble.leader();
            CuratorFramework client = ensemble.newClient(ensemble.followers().get(0), 10_000);
            client.create().forPath("/before-the-kill", bytes("v"));

            ensemble.kill(old);
            ensemble.awaitQuorum(WAIT);
            assertThat(ensemble.live()).doesNotContain(old).hasSize(2);
            ensemble.restart(old);
            ensemble.awaitServing(old, WAIT);
            CuratorFramework onOld = ensemble.newClient(old, 10_000);
            onOld.sync().forPath("/");
            assertThat(onOld.getData().forPath("/before-the-kill")).isEqualTo(bytes("v"));

            int x = ensemble.followers().get(0);
            ensemble.isolate(x, TcpProxy.Mode.CUT);
            ensemble.awaitNotServing(x, WAIT);
            ensemble.heal(x);
            ensemble.awaitServing(x, WAIT);
        }
        assertThat(dir.resolve("data").resolve("zk1").resolve("version-2")).as("the data is kept").isDirectory();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
