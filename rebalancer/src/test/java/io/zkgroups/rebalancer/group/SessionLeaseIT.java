package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.Subscription;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.model.TopicRegistration;
import io.zkgroups.testing.TestEnsemble;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorWatcher;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Watcher;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link SessionLease} on a real three-server ensemble whose servers reach each other through proxies, with the
 * member's client connected to one follower only. The hazard: a follower cut off from the quorum keeps answering
 * its clients' reads from its own copy for up to {@code syncLimit} ticks, while the leader, which no longer hears
 * of the member, expires its session and deletes its ephemeral nodes; another member may then take its partitions.
 */
@Timeout(120)
class SessionLeaseIT {

    private static final double MARGIN = 0.25;
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final byte[] DATA = "member".getBytes(StandardCharsets.UTF_8);

    private final ScheduledExecutorService beats = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "lease-beats");
        thread.setDaemon(true);
        return thread;
    });

    @AfterEach
    void stopBeats() {
        beats.shutdownNow();
    }

    @Test
    void aLeaseThroughAFollowerCutOffFromTheQuorumEndsBeforeTheLeaderExpiresTheSession() throws Exception {
        // The cut-off follower serves reads for 2 s, twice the session timeout.
        try (TestEnsemble ensemble = TestEnsemble.start(TestEnsemble.Settings.threeServers().withSyncLimitTicks(20))) {
            ensemble.awaitQuorum();
            int x = ensemble.followers().get(0);
            CuratorFramework member = ensemble.newClient(x, 1_000);
            CuratorFramework probe = ensemble.newClient(x, 10_000);
            CuratorFramework observer = ensemble.newClient(ensemble.leader(), 10_000);
            long session = sessionOf(member);
            member.create().withMode(CreateMode.EPHEMERAL).forPath("/member", DATA);
            SessionLease lease = new SessionLease(member, MARGIN);
            lease.start(beats);
            await().atMost(WAIT).until(() -> lease.isValid() && lease.session() == session);

            CompletableFuture<Long> leftWhenDeleted = new CompletableFuture<>();
            observer.checkExists().usingWatcher((CuratorWatcher) event -> {
                if (event.getType() == Watcher.Event.EventType.NodeDeleted) {
                    leftWhenDeleted.complete(lease.session() == session ? lease.remainingNanos() : -1);
                }
            }).forPath("/member");

            ensemble.isolate(x);
            long left = leftWhenDeleted.get(WAIT.toSeconds(), TimeUnit.SECONDS);

            assertThat(probe.checkExists().forPath("/member"))
                    .as("the cut-off follower still answers, from its copy, that the ephemeral node exists")
                    .isNotNull();
            assertThat(TimeUnit.NANOSECONDS.toMillis(left))
                    .as("ms left on the lease when the leader expired the session and deleted its ephemeral node")
                    .isNegative();
            assertThat(lease.isValid()).isFalse();
        }
    }

    /** The same hazard for the group: two members must never both deliver one partition. */
    @Test
    void aMemberBehindACutOffFollowerMayNotDeliverOnceAnotherHasTakenItsPartitions() throws Exception {
        try (TestEnsemble ensemble = TestEnsemble.start(TestEnsemble.Settings.threeServers().withSyncLimitTicks(20))) {
            ensemble.awaitQuorum();
            int x = ensemble.followers().get(0);
            int leader = ensemble.leader();
            ZkRegistry.of(ensemble.newClient(leader, 10_000)).topics()
                    .create("cut", TopicRegistration.v1(4, List.of(0)));
            Subscription cut = Subscription.topics(Map.of("cut", 1));
            CuratorFramework xClient = ensemble.newClient(x, 1_000);
            ZkGroupMember behindX = member(xClient, "behind-x", cut);
            ZkGroupMember onLeader = member(ensemble.newClient(leader, 10_000), "on-leader", cut);
            try {
                behindX.start();
                onLeader.start();
                await().atMost(WAIT).until(() -> behindX.owned().size() == 2 && onLeader.owned().size() == 2
                        && behindX.canDeliver() && onLeader.canDeliver());
                Set<TopicAndPartition> behindXOwns = behindX.owned();

                // What the member behind x could do, and believed it owned, when the other one took its partitions.
                record Seen(boolean couldDeliver, Set<TopicAndPartition> believed) {
                }
                CompletableFuture<Seen> whenTaken = new CompletableFuture<>();
                onLeader.addHealthListener(health -> {
                    if (health.owned().containsAll(behindXOwns)) {
                        whenTaken.complete(new Seen(behindX.canDeliver(), behindX.owned()));
                    }
                });
                ensemble.isolate(x);

                Seen seen = whenTaken.get(WAIT.toSeconds(), TimeUnit.SECONDS);
                assertThat(seen.believed()).as("what it believed it owned: it had not noticed anything")
                        .isEqualTo(behindXOwns);
                assertThat(seen.couldDeliver()).as("the member behind the cut-off follower may still deliver "
                        + behindXOwns + " when the other one owns them").isFalse();
            } finally {
                xClient.close(); // so that it leaves at once instead of waiting for x
                behindX.close();
                onLeader.close();
            }
        }
    }

    private static ZkGroupMember member(CuratorFramework client, String name, Subscription subscription) {
        GroupMemberConfig config = GroupMemberConfig.of("lease", ConsumerId.ofOverride("lease", name), subscription);
        return ZkGroupMember.onZooKeeper(client, ZkLayout.root(), config, MembershipListener.NONE);
    }

    @Test
    void aHealthyEnsembleKeepsTheLeaseValidWithoutABreak() {
        try (TestEnsemble ensemble = TestEnsemble.start(TestEnsemble.Settings.threeServers())) {
            ensemble.awaitQuorum();
            CuratorFramework member = ensemble.newClient(ensemble.followers().get(0), 1_000);
            SessionLease lease = new SessionLease(member, MARGIN);
            lease.start(beats);
            await().atMost(WAIT).until(lease::isValid);

            try (ValiditySampler sampler = new ValiditySampler(lease::isValid)) {
                // Fifteen beats.
                await().atMost(WAIT).until(() -> sampler.observedNanos() >= TimeUnit.SECONDS.toNanos(3));
                assertThat(sampler.gaps()).as("times the lease was not valid").isEmpty();
            }
        }
    }

    @Test
    void aLeaderKillBreaksTheLeaseForNoLongerThanTheElection() throws Exception {
        int sessionMs = 3_000;
        try (TestEnsemble ensemble = TestEnsemble.start(TestEnsemble.Settings.threeServers())) {
            ensemble.awaitQuorum();
            int x = ensemble.followers().get(0);
            CuratorFramework member = ensemble.newClient(x, sessionMs);
            long session = sessionOf(member);
            member.create().withMode(CreateMode.EPHEMERAL).forPath("/member", DATA);
            SessionLease lease = new SessionLease(member, MARGIN);
            CompletableFuture<Long> reconnectedAt = new CompletableFuture<>();
            member.getConnectionStateListenable().addListener((client, state) -> {
                if (state == ConnectionState.RECONNECTED) {
                    reconnectedAt.complete(System.nanoTime());
                    lease.beat(); // as ZkGroupMember does
                }
            });
            lease.start(beats);
            await().atMost(WAIT).until(lease::isValid);

            try (ValiditySampler sampler = new ValiditySampler(lease::isValid)) {
                long killedAt = System.nanoTime();
                ensemble.kill(ensemble.leader());
                ensemble.awaitQuorum();
                long reconnected = reconnectedAt.get(WAIT.toSeconds(), TimeUnit.SECONDS);
                await().atMost(WAIT).until(() -> lease.isValid() && lease.session() == session);

                assertThat(sessionOf(member)).as("the session survived the election").isEqualTo(session);
                assertThat(member.checkExists().forPath("/member")).isNotNull();
                // Invalid at most from the kill until one beat after the reconnection.
                long until = reconnected + TimeUnit.MILLISECONDS.toNanos(sessionMs / 5);
                List<ValiditySampler.Gap> gaps = sampler.gaps();
                assertThat(gaps).as("breaks in the lease %s (ms after the kill), reconnected %d ms after the kill",
                                gaps.stream().map(gap -> gap.describe(killedAt)).toList(),
                                TimeUnit.NANOSECONDS.toMillis(reconnected - killedAt))
                        .allMatch(gap -> gap.fromNanos() >= killedAt && gap.toNanos() <= until);
            }
        }
    }

    private static long sessionOf(CuratorFramework client) throws Exception {
        return client.getZookeeperClient().getZooKeeper().getSessionId();
    }
}
