package io.zkgroups.registry.store;

import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.MemberRegistration;
import io.zkgroups.registry.model.Subscription;
import io.zkgroups.testing.TestZooKeeper;
import io.zkgroups.testing.ZooKeeperExtension;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

@Timeout(60)
class MemberRegistryIT {

    @RegisterExtension
    static final ZooKeeperExtension zk = new ZooKeeperExtension();

    private static MemberRegistration registration(long timestamp) {
        Map<String, Integer> topics = new LinkedHashMap<>();
        topics.put("T1", 1);
        topics.put("T2", 2);
        return MemberRegistration.of(Subscription.topics(topics), timestamp);
    }

    @Test
    void registrationIsAnEphemeralWithThe082Bytes() throws Exception {
        CuratorFramework client = zk.newClient();
        ZkRegistry registry = ZkRegistry.of(client);
        ConsumerId id = ConsumerId.ofOverride("g1", "c1");
        registry.members().register("g1", id, registration(1795988925195L), Duration.ofSeconds(1));

        assertThat(new String(client.getData().forPath("/consumers/g1/ids/g1_c1"), StandardCharsets.UTF_8))
                .isEqualTo("{\"version\":1,\"subscription\":{\"T1\":1,\"T2\":2},\"pattern\":\"static\",\"timestamp\":\"1795988925195\"}");
        assertThat(client.checkExists().forPath("/consumers/g1/ids/g1_c1").getEphemeralOwner())
                .isEqualTo(client.getZookeeperClient().getZooKeeper().getSessionId());
        for (String parent : new String[] {"/consumers", "/consumers/g1", "/consumers/g1/ids"}) {
            assertThat(client.checkExists().forPath(parent).getEphemeralOwner()).as(parent).isZero();
        }
        assertThat(registry.members().list("g1").entries()).singleElement().satisfies(m -> {
            assertThat(m.id()).isEqualTo(id);
            assertThat(m.registration()).isEqualTo(registration(1795988925195L));
        });
    }

    @Test
    void registeringAgainFromTheSameSessionSucceedsAndUpdatesTheData() throws Exception {
        CuratorFramework client = zk.newClient();
        ZkRegistry registry = ZkRegistry.of(client);
        ConsumerId id = ConsumerId.ofOverride("g2", "c1");
        long first = registry.members().register("g2", id, registration(1), Duration.ofSeconds(1));
        long second = registry.members().register("g2", id, registration(2), Duration.ofSeconds(1));

        assertThat(second).isEqualTo(first);
        assertThat(registry.members().list("g2").entries()).singleElement()
                .extracting(m -> m.registration().timestamp()).isEqualTo("2");
    }

    @Test
    void anIdHeldByAnotherLiveSessionFailsClearlyAfterABoundedWait() {
        ZkRegistry holder = ZkRegistry.of(zk.newClient());
        ZkRegistry contender = ZkRegistry.of(zk.newClient());
        ConsumerId id = ConsumerId.ofOverride("g3", "same");
        holder.members().register("g3", id, registration(1), Duration.ofSeconds(1));

        long start = System.nanoTime();
        assertThatThrownBy(() -> contender.members().register("g3", id, registration(2), Duration.ofMillis(300)))
                .isInstanceOf(BrokerRegistry.AlreadyRegisteredException.class)
                .hasMessageContaining("/consumers/g3/ids/g3_same")
                .hasMessageContaining("another live process");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void anIdHeldByASessionThatEndsDuringTheWaitIsTakenOver() throws Exception {
        CuratorFramework old = zk.newClient();
        ZkRegistry holder = ZkRegistry.of(old);
        ZkRegistry contender = ZkRegistry.of(zk.newClient());
        ConsumerId id = ConsumerId.ofOverride("g4", "restarted");
        holder.members().register("g4", id, registration(1), Duration.ofSeconds(1));

        CompletableFuture<Long> registering = CompletableFuture.supplyAsync(
                () -> contender.members().register("g4", id, registration(2), Duration.ofSeconds(20)));
        // it is waiting for the old session, not failing and not taking the node over
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> !registering.isDone());
        TestZooKeeper.expireSession(old);

        registering.get(20, TimeUnit.SECONDS);
        assertThat(contender.members().list("g4").entries()).singleElement()
                .extracting(m -> m.registration().timestamp()).isEqualTo("2");
    }

    @Test
    void aPersistentNodeSquattingOnTheIdIsAnImmediateError() throws Exception {
        CuratorFramework client = zk.newClient();
        client.create().creatingParentsIfNeeded().withMode(CreateMode.PERSISTENT)
                .forPath("/consumers/g5/ids/g5_c1", "x".getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> ZkRegistry.of(client).members()
                .register("g5", ConsumerId.ofOverride("g5", "c1"), registration(1), Duration.ofMinutes(5)))
                .isInstanceOf(BrokerRegistry.AlreadyRegisteredException.class)
                .hasMessageContaining("/consumers/g5/ids/g5_c1");
    }

    @Test
    void malformedMembersAreReportedWithTheirPathAndTheRestAreListed() throws Exception {
        CuratorFramework client = zk.newClient();
        ZkRegistry registry = ZkRegistry.of(client);
        registry.members().register("g6", ConsumerId.ofOverride("g6", "good"), registration(1), Duration.ofSeconds(1));
        client.create().withMode(CreateMode.EPHEMERAL).forPath("/consumers/g6/ids/g6_garbage", "{oops".getBytes(StandardCharsets.UTF_8));
        client.create().withMode(CreateMode.EPHEMERAL).forPath("/consumers/g6/ids/g6_bignum",
                "{\"version\":1,\"subscription\":{\"T1\":10000000000},\"pattern\":\"static\",\"timestamp\":\"1\"}".getBytes(StandardCharsets.UTF_8));

        Listing<Member> listing = registry.members().list("g6");
        assertThat(listing.entries()).extracting(m -> m.id().value()).containsExactly("g6_good");
        assertThat(listing.unreadable()).extracting(Unreadable::path)
                .containsExactlyInAnyOrder("/consumers/g6/ids/g6_garbage", "/consumers/g6/ids/g6_bignum");
    }

    @Test
    void aServerSideSessionExpiryRemovesTheRegistrationAndANewSessionCanRegisterAgain() throws Exception {
        CuratorFramework client = zk.newClient(2_000);
        ZkRegistry registry = ZkRegistry.of(client);
        ConsumerId id = ConsumerId.ofOverride("g7", "c1");
        registry.members().register("g7", id, registration(1), Duration.ofSeconds(1));
        long oldSession = client.getZookeeperClient().getZooKeeper().getSessionId();
        CountDownLatch lost = new CountDownLatch(1);
        CountDownLatch reconnected = new CountDownLatch(1);
        client.getConnectionStateListenable().addListener((c, state) -> {
            if (state == ConnectionState.LOST) {
                lost.countDown();
            } else if (state == ConnectionState.RECONNECTED && lost.getCount() == 0) {
                reconnected.countDown();
            }
        });
        CuratorFramework observer = zk.newClient();

        TestZooKeeper.expireSession(client);

        await().atMost(Duration.ofSeconds(10))
                .until(() -> observer.checkExists().forPath("/consumers/g7/ids/g7_c1") == null);
        assertThat(lost.await(20, TimeUnit.SECONDS)).as("client saw LOST").isTrue();
        assertThat(reconnected.await(20, TimeUnit.SECONDS)).as("client got a new session").isTrue();
        registry.members().register("g7", id, registration(2), Duration.ofSeconds(1));
        org.apache.zookeeper.data.Stat stat = observer.checkExists().forPath("/consumers/g7/ids/g7_c1");
        assertThat(stat.getEphemeralOwner()).isNotEqualTo(oldSession)
                .isEqualTo(client.getZookeeperClient().getZooKeeper().getSessionId());
    }

    @Test
    void unregisterDeletesOnlyItsOwnRegistration() {
        ZkRegistry mine = ZkRegistry.of(zk.newClient());
        ZkRegistry other = ZkRegistry.of(zk.newClient());
        ConsumerId id = ConsumerId.ofOverride("g8", "c1");
        mine.members().register("g8", id, registration(1), Duration.ofSeconds(1));

        assertThat(other.members().unregister("g8", id)).isFalse();
        assertThat(mine.members().ids("g8", null)).containsExactly(id);
        assertThat(mine.members().unregister("g8", id)).isTrue();
        assertThat(mine.members().ids("g8", null)).isEmpty();
    }

    @Test
    void membershipWatchFiresOnJoin() throws Exception {
        ZkRegistry registry = ZkRegistry.of(zk.newClient());
        CountDownLatch joined = new CountDownLatch(1);
        assertThat(registry.members().list("g9", event -> joined.countDown()).entries()).isEmpty();
        ZkRegistry.of(zk.newClient()).members().register("g9", ConsumerId.ofOverride("g9", "c1"), registration(1), Duration.ofSeconds(1));
        assertThat(joined.await(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void chrootedLayoutKeepsEverythingBelowTheChroot() throws Exception {
        CuratorFramework client = zk.newClient();
        new ZkRegistry(client, ZkLayout.withChroot("/kafka08")).members()
                .register("g10", ConsumerId.ofOverride("g10", "c1"), registration(1), Duration.ofSeconds(1));
        assertThat(client.checkExists().forPath("/kafka08/consumers/g10/ids/g10_c1")).isNotNull();
        assertThat(client.checkExists().forPath("/consumers/g10")).isNull();
    }
}
