package io.zkgroups.testing;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.server.quorum.QuorumPeer.ServerState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** {@link TestEnsemble}: its cuts really separate a server from the quorum, and it recovers when healed. */
@Timeout(120)
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

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
