package io.zkgroups.registry.store;

import io.zkgroups.registry.RegistryException;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.testing.ConnectionRequests;
import io.zkgroups.testing.TcpProxy;
import io.zkgroups.testing.TestZooKeeper;
import io.zkgroups.testing.ZooKeeperExtension;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

@Timeout(60)
class OwnerRegistryIT {

    @RegisterExtension
    static final ZooKeeperExtension zk = new ZooKeeperExtension();

    private static ConsumerId join(ZkRegistry registry, String group, String name) {
        return Members.join(registry, group, name, "T");
    }

    private static Map<TopicAndPartition, ThreadId> claims(ConsumerId id, int... partitions) {
        return Members.claims(id, "T", partitions);
    }

    @Test
    void claimCreatesEphemeralOwnerZnodesHoldingTheThreadId() throws Exception {
        CuratorFramework client = zk.newClient();
        ZkRegistry registry = ZkRegistry.of(client);
        ConsumerId me = join(registry, "o1", "c1");

        registry.owners().claim("o1", me, claims(me, 0, 1, 2));

        for (int p = 0; p < 3; p++) {
            String path = "/consumers/o1/owners/T/" + p;
            assertThat(new String(client.getData().forPath(path), StandardCharsets.UTF_8)).isEqualTo("o1_c1-0");
            assertThat(client.checkExists().forPath(path).getEphemeralOwner())
                    .isEqualTo(client.getZookeeperClient().getZooKeeper().getSessionId());
        }
        assertThat(client.checkExists().forPath("/consumers/o1/owners/T").getEphemeralOwner()).isZero();
        assertThat(registry.owners().owners("o1").entries()).extracting(PartitionOwner::value)
                .containsExactly("o1_c1-0", "o1_c1-0", "o1_c1-0");
    }

    @Test
    void aClaimIsAllOrNothingAndNamesWhoHoldsWhat() {
        ZkRegistry other = ZkRegistry.of(zk.newClient());
        ConsumerId holder = join(other, "o2", "holder");
        other.owners().claim("o2", holder, claims(holder, 1));
        ZkRegistry mine = ZkRegistry.of(zk.newClient());
        ConsumerId me = join(mine, "o2", "me");

        ClaimConflictException conflict = catchThrowableOfType(ClaimConflictException.class,
                () -> mine.owners().claim("o2", me, claims(me, 0, 1, 2)));

        assertThat(conflict.heldBy()).containsOnlyKeys(TopicAndPartition.of("T", 1));
        assertThat(conflict.getMessage()).contains("[T,1]").contains("o2_holder-0");
        assertThat(mine.owners().owners("o2").entries())
                .as("no owner znode of the failed claim is left behind")
                .extracting(PartitionOwner::partition, PartitionOwner::value)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(TopicAndPartition.of("T", 1), "o2_holder-0"));
    }

    @Test
    void claimingWhatThisSessionAlreadyOwnsIsIdempotent() {
        ZkRegistry registry = ZkRegistry.of(zk.newClient());
        ConsumerId me = join(registry, "o3", "c1");
        registry.owners().claim("o3", me, claims(me, 0));
        registry.owners().claim("o3", me, claims(me, 0, 1));
        assertThat(registry.owners().owners("o3").entries()).hasSize(2);
    }

    @Test
    void aMemberThatIsNotRegisteredCannotClaim() {
        ZkRegistry registry = ZkRegistry.of(zk.newClient());
        join(registry, "o4", "someone");
        ConsumerId ghost = ConsumerId.ofOverride("o4", "ghost");
        assertThatThrownBy(() -> registry.owners().claim("o4", ghost, claims(ghost, 0)))
                .isInstanceOf(RegistryException.class)
                .hasMessageContaining("/consumers/o4/ids/o4_ghost");
        assertThat(registry.owners().owners("o4").entries()).isEmpty();
    }

    @Test
    void releaseDeletesOnlyThisSessionsOwnerZnodes() {
        ZkRegistry other = ZkRegistry.of(zk.newClient());
        ConsumerId holder = join(other, "o5", "holder");
        other.owners().claim("o5", holder, claims(holder, 1));
        ZkRegistry mine = ZkRegistry.of(zk.newClient());
        ConsumerId me = join(mine, "o5", "me");
        mine.owners().claim("o5", me, claims(me, 0, 2));

        List<TopicAndPartition> released = mine.owners().release("o5",
                List.of(TopicAndPartition.of("T", 0), TopicAndPartition.of("T", 1), TopicAndPartition.of("T", 5)));

        assertThat(released).containsExactly(TopicAndPartition.of("T", 0));
        assertThat(mine.owners().owners("o5").entries()).extracting(PartitionOwner::partition)
                .containsExactly(TopicAndPartition.of("T", 1), TopicAndPartition.of("T", 2));
    }

    @Test
    void ownersOfAnExpiredSessionVanish() throws Exception {
        CuratorFramework doomed = zk.newClient(2_000);
        ZkRegistry registry = ZkRegistry.of(doomed);
        ConsumerId me = join(registry, "o6", "c1");
        registry.owners().claim("o6", me, claims(me, 0, 1));
        ZkRegistry observer = ZkRegistry.of(zk.newClient());

        TestZooKeeper.expireSession(doomed);

        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
                .until(() -> observer.owners().owners("o6").entries().isEmpty());
        assertThat(observer.members().ids("o6", null)).isEmpty();
    }

    @Test
    void malformedOwnerZnodesAreReportedNotThrown() throws Exception {
        CuratorFramework client = zk.newClient();
        ZkRegistry registry = ZkRegistry.of(client);
        ConsumerId me = join(registry, "o7", "c1");
        registry.owners().claim("o7", me, claims(me, 0));
        client.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath("/consumers/o7/owners/T/zz", new byte[0]);
        client.create().withMode(CreateMode.EPHEMERAL).forPath("/consumers/o7/owners/T/3", new byte[0]);

        Listing<PartitionOwner> owners = registry.owners().owners("o7");
        assertThat(owners.entries()).extracting(PartitionOwner::partition).containsExactly(TopicAndPartition.of("T", 0));
        assertThat(owners.unreadable()).extracting(Unreadable::path)
                .containsExactlyInAnyOrder("/consumers/o7/owners/T/zz", "/consumers/o7/owners/T/3");
    }

    @Test
    void leavingReleasesOwnPartitionsAndTheRegistrationTogetherAndLeavesOthersAlone() throws Exception {
        CuratorFramework client = zk.newClient();
        ZkRegistry registry = ZkRegistry.of(client);
        ZkRegistry other = ZkRegistry.of(zk.newClient());
        ConsumerId me = join(registry, "o9", "leaver");
        ConsumerId stays = join(other, "o9", "stays");
        registry.owners().claim("o9", me, claims(me, 0, 1));
        other.owners().claim("o9", stays, claims(stays, 2));

        List<TopicAndPartition> released = registry.owners().releaseAndUnregister("o9", me,
                List.of(TopicAndPartition.of("T", 0), TopicAndPartition.of("T", 1), TopicAndPartition.of("T", 2)));

        assertThat(released).containsExactly(TopicAndPartition.of("T", 0), TopicAndPartition.of("T", 1));
        assertThat(client.checkExists().forPath("/consumers/o9/ids/o9_leaver")).isNull();
        assertThat(other.owners().owners("o9").entries()).extracting(PartitionOwner::value).containsExactly("o9_stays-0");
        assertThat(other.members().ids("o9", null)).containsExactly(stays);
    }

    @Test
    void ownersOfSomePartitionsAreReadAtOnceAndWatchedUntilTheyLetGo() throws Exception {
        ZkRegistry holderRegistry = ZkRegistry.of(zk.newClient());
        ConsumerId holder = join(holderRegistry, "o10", "holder");
        holderRegistry.owners().claim("o10", holder, claims(holder, 0, 2));
        ZkRegistry reader = ZkRegistry.of(zk.newClient());
        java.util.concurrent.CountDownLatch letGo = new java.util.concurrent.CountDownLatch(2);

        Map<TopicAndPartition, PartitionOwner> owners = reader.owners().owners("o10",
                List.of(TopicAndPartition.of("T", 0), TopicAndPartition.of("T", 1), TopicAndPartition.of("T", 2)),
                event -> letGo.countDown());

        assertThat(owners).containsOnlyKeys(TopicAndPartition.of("T", 0), TopicAndPartition.of("T", 2));
        assertThat(owners.values()).allSatisfy(o -> assertThat(o.thread()).contains(holder.thread(0)));
        assertThat(letGo.getCount()).isEqualTo(2);
        holderRegistry.owners().release("o10", List.of(TopicAndPartition.of("T", 0), TopicAndPartition.of("T", 2)));
        assertThat(letGo.await(5, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void releaseAndClaimSwapsPartitionsInOneTransaction() throws Exception {
        CuratorFramework client = zk.newClient();
        ZkRegistry registry = ZkRegistry.of(client);
        ConsumerId me = join(registry, "o11", "swapper");
        registry.owners().claim("o11", me, claims(me, 0, 1));

        Map<TopicAndPartition, PartitionOwner> held = registry.owners().releaseAndClaim("o11", me,
                List.of(TopicAndPartition.of("T", 0)), claims(me, 1, 2, 3), null);

        assertThat(held).isEmpty();
        assertThat(registry.owners().owners("o11").entries()).extracting(PartitionOwner::partition)
                .containsExactly(TopicAndPartition.of("T", 1), TopicAndPartition.of("T", 2), TopicAndPartition.of("T", 3));
    }

    @Test
    void releaseAndClaimOnlyReleasesWhileSomeoneElseHoldsAClaimAndWatchesIt() throws Exception {
        ZkRegistry registry = ZkRegistry.of(zk.newClient());
        ZkRegistry other = ZkRegistry.of(zk.newClient());
        ConsumerId me = join(registry, "o12", "me");
        ConsumerId holder = join(other, "o12", "holder");
        registry.owners().claim("o12", me, claims(me, 0));
        other.owners().claim("o12", holder, claims(holder, 2));
        java.util.concurrent.CountDownLatch letGo = new java.util.concurrent.CountDownLatch(1);

        Map<TopicAndPartition, PartitionOwner> held = registry.owners().releaseAndClaim("o12", me,
                List.of(TopicAndPartition.of("T", 0)), claims(me, 1, 2), event -> letGo.countDown());

        assertThat(held).containsOnlyKeys(TopicAndPartition.of("T", 2));
        assertThat(held.get(TopicAndPartition.of("T", 2)).thread()).contains(holder.thread(0));
        assertThat(registry.owners().owners("o12").entries()).extracting(PartitionOwner::value)
                .containsExactly("o12_holder-0"); // 0 released, 1 not claimed (all or nothing)
        other.owners().release("o12", List.of(TopicAndPartition.of("T", 2)));
        assertThat(letGo.await(5, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(registry.owners().releaseAndClaim("o12", me, List.of(), claims(me, 1, 2), null)).isEmpty();
        assertThat(registry.owners().owners("o12").entries()).extracting(PartitionOwner::value)
                .containsExactly("o12_me-0", "o12_me-0");
    }

    @Test
    void releaseAndClaimRefusesAMemberThatIsNotRegisteredAndClaimsNothing() {
        ZkRegistry registry = ZkRegistry.of(zk.newClient());
        ConsumerId ghost = ConsumerId.ofOverride("o13", "ghost");
        join(ZkRegistry.of(zk.newClient()), "o13", "someone");

        assertThatThrownBy(() -> registry.owners().releaseAndClaim("o13", ghost, List.of(), claims(ghost, 0), null))
                .isInstanceOf(RegistryException.class).hasMessageContaining("not registered");
        assertThat(registry.owners().owners("o13").entries()).isEmpty();
    }

    /** Returns once {@code client}'s event thread has handled every watch event ZooKeeper sent it before now. */
    private static void drainEvents(CuratorFramework client) throws Exception {
        java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
        client.checkExists().inBackground((c, event) -> done.countDown()).forPath("/"); // answered after earlier events
        assertThat(done.await(5, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void aClaimDeletedAndTakenByAnotherMemberBehindOurBackIsNotReleased() throws Exception {
        CuratorFramework client = zk.newClient();
        ZkRegistry registry = ZkRegistry.of(client);
        ZkRegistry other = ZkRegistry.of(zk.newClient());
        ConsumerId me = join(registry, "o14", "me");
        ConsumerId thief = join(other, "o14", "thief");
        registry.owners().claim("o14", me, claims(me, 0, 1)); // claimed and read back under a watch: vouched for

        CuratorFramework operator = zk.newClient();
        operator.delete().forPath("/consumers/o14/owners/T/0"); // someone deletes our live owner znode...
        other.owners().claim("o14", thief, claims(thief, 0)); // ...and another member takes the partition
        drainEvents(client);

        List<TopicAndPartition> released = registry.owners().release("o14",
                List.of(TopicAndPartition.of("T", 0), TopicAndPartition.of("T", 1)));

        assertThat(released).containsExactly(TopicAndPartition.of("T", 1));
        assertThat(other.owners().owner("o14", TopicAndPartition.of("T", 0))).get()
                .extracting(PartitionOwner::value).isEqualTo("o14_thief-0");
    }

    @Test
    void leavingWithAVouchedRegistrationDeletesItAndTheClaimsWithoutTouchingOthers() throws Exception {
        CuratorFramework client = zk.newClient();
        ZkRegistry registry = ZkRegistry.of(client);
        ZkRegistry other = ZkRegistry.of(zk.newClient());
        ConsumerId me = join(registry, "o15", "leaver");
        ConsumerId stays = join(other, "o15", "stays");
        registry.owners().claim("o15", me, claims(me, 0));
        other.owners().claim("o15", stays, claims(stays, 1));

        List<TopicAndPartition> released = registry.owners().releaseAndUnregister("o15", me,
                List.of(TopicAndPartition.of("T", 0), TopicAndPartition.of("T", 1)), registry.znodes().sessionId(), true);

        assertThat(released).containsExactly(TopicAndPartition.of("T", 0));
        assertThat(client.checkExists().forPath("/consumers/o15/ids/o15_leaver")).isNull();
        assertThat(other.owners().owners("o15").entries()).extracting(PartitionOwner::value).containsExactly("o15_stays-0");
        assertThat(other.members().ids("o15", null)).containsExactly(stays);
    }

    @Test
    void aClaimThatFailedBecauseItsHolderLetGoMeanwhileIsRetried() throws Exception {
        ZkRegistry registry = ZkRegistry.of(zk.newClient());
        ConsumerId me = join(registry, "o16", "me");
        // our own node from a claim whose reply was "lost": the transaction fails on it, the read finds it ours
        registry.owners().claim("o16", me, claims(me, 0));

        assertThat(registry.owners().releaseAndClaim("o16", me, List.of(), claims(me, 0, 1), null)).isEmpty();
        assertThat(registry.owners().owners("o16").entries()).extracting(PartitionOwner::partition)
                .containsExactly(TopicAndPartition.of("T", 0), TopicAndPartition.of("T", 1));
    }
    @Test
    void aClaimSucceedsAfterAnOperatorDeletedTheTopicsOwnerDirectory() throws Exception {
        ZkRegistry registry = ZkRegistry.of(zk.newClient());
        ConsumerId me = join(registry, "o17", "me");
        registry.owners().claim("o17", me, claims(me, 0));
        registry.owners().release("o17", List.of(TopicAndPartition.of("T", 0)));
        zk.newClient().delete().deletingChildrenIfNeeded().forPath("/consumers/o17/owners/T"); // an operator tidies up

        registry.owners().claim("o17", me, claims(me, 1));

        assertThat(registry.owners().owners("o17").entries()).extracting(PartitionOwner::partition)
                .containsExactly(TopicAndPartition.of("T", 1));
    }

    @Test
    void aClaimWithReleaseSucceedsAfterTheWholeOwnersDirectoryWasDeleted() throws Exception {
        ZkRegistry registry = ZkRegistry.of(zk.newClient());
        ConsumerId me = join(registry, "o18", "me");
        registry.owners().claim("o18", me, claims(me, 0));
        registry.owners().release("o18", List.of(TopicAndPartition.of("T", 0)));
        zk.newClient().delete().deletingChildrenIfNeeded().forPath("/consumers/o18/owners");

        assertThat(registry.owners().releaseAndClaim("o18", me, List.of(), claims(me, 1, 2), null)).isEmpty();

        assertThat(registry.owners().owners("o18").entries()).extracting(PartitionOwner::partition)
                .containsExactly(TopicAndPartition.of("T", 1), TopicAndPartition.of("T", 2));
    }

    @Test
    void ownedBySessionFindsEveryOwnerZnodeOfThisSessionAndNothingElse() throws Exception {
        CuratorFramework client = zk.newClient();
        ZkRegistry registry = ZkRegistry.of(client);
        ZkRegistry other = ZkRegistry.of(zk.newClient());
        ConsumerId me = join(registry, "o19", "me");
        ConsumerId someoneElse = join(other, "o19", "other");
        registry.owners().claim("o19", me, Map.of(TopicAndPartition.of("T", 0), me.thread(0),
                TopicAndPartition.of("T", 1), me.thread(0), TopicAndPartition.of("U", 3), me.thread(1)));
        other.owners().claim("o19", someoneElse, claims(someoneElse, 2));
        // ours, but made behind the registry's back (e.g. a claim whose reply was lost): found all the same
        client.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL)
                .forPath("/consumers/o19/owners/V/7", "o19_me-0".getBytes(StandardCharsets.UTF_8));
        CuratorFramework operator = zk.newClient();
        operator.create().forPath("/consumers/o19/owners/T/4", "o19_me-0".getBytes(StandardCharsets.UTF_8)); // persistent
        client.create().withMode(CreateMode.EPHEMERAL).forPath("/consumers/o19/owners/T/zz", new byte[0]);
        operator.create().forPath("/consumers/o19/owners/not a topic", new byte[0]);

        assertThat(registry.owners().ownedBySession("o19")).containsExactly(TopicAndPartition.of("T", 0),
                TopicAndPartition.of("T", 1), TopicAndPartition.of("U", 3), TopicAndPartition.of("V", 7));
        assertThat(other.owners().ownedBySession("o19")).containsExactly(TopicAndPartition.of("T", 2));
        assertThat(registry.owners().ownedBySession("no-such-group")).isEmpty();
    }

    @Test
    void onAServerWithPersistentWatchesAClaimReadsNothingBackAndItsReleaseIsOneRequest() throws Exception {
        CuratorFramework client = zk.newClient();
        ZkRegistry registry = ZkRegistry.of(client);
        ConsumerId me = join(registry, "o20", "me");
        // the first claim in a topic arms the persistent watch on its owner directory
        registry.owners().claim("o20", me, claims(me, 99));
        registry.owners().release("o20", claims(me, 99).keySet());
        long before = ConnectionRequests.of(zk.connectString(), client);

        registry.owners().claim("o20", me, Members.firstPartitions(me, "T", 10));
        long claimed = ConnectionRequests.of(zk.connectString(), client);
        registry.owners().release("o20", Members.firstPartitions(me, "T", 10).keySet());
        long released = ConnectionRequests.of(zk.connectString(), client);

        // one transaction and the read of the registration, not a read of each of the ten owner znodes
        // (the bound leaves room for a ping: the figure before persistent watches was 12)
        assertThat(claimed - before).as("requests of the claim").isLessThanOrEqualTo(3);
        assertThat(released - claimed).as("requests of the release: no read first").isLessThanOrEqualTo(2);
        assertThat(registry.owners().owners("o20").entries()).isEmpty();
    }

    @Test
    void aFirstClaimInADirectoryItsWatchListedDoesNotCreateTheDirectory() throws Exception {
        ZkRegistry other = ZkRegistry.of(zk.newClient());
        ConsumerId first = join(other, "o24", "first");
        other.owners().claim("o24", first, claims(first, 0)); // owners/T exists from now on
        CuratorFramework client = zk.newClient();
        ZkRegistry registry = ZkRegistry.of(client);
        ConsumerId me = join(registry, "o24", "me");
        // as a member's claim does: which of them are held, from the directory's watch (armed and listed here)
        assertThat(registry.owners().heldAmong("o24", claims(me, 1).keySet(), event -> { })).contains(java.util.Set.of());
        long before = ConnectionRequests.of(zk.connectString(), client);

        assertThat(registry.owners().releaseAndClaim("o24", me, List.of(), claims(me, 1), event -> { })).isEmpty();

        // the claim's transaction and the read of the registration; a create of owners/T would be a third
        assertThat(ConnectionRequests.of(zk.connectString(), client) - before).as("requests of the claim").isEqualTo(2);
        assertThat(registry.owners().owner("o24", TopicAndPartition.of("T", 1))).get()
                .extracting(PartitionOwner::value).isEqualTo("o24_me-0");
    }

    @Test
    void aDirectoryWhoseListingFoundItMissingIsStillCreatedBeforeTheFirstClaim() throws Exception {
        long listedFirst = firstClaimRequests("o25", true);
        long notListed = firstClaimRequests("o26", false);

        // the same creates of the directory, the claim and the read of the registration; without the listing first,
        // the claim itself arms the directory's watch and lists it (two more requests)
        assertThat(listedFirst).as("requests of a first claim after its directory was listed missing")
                .isEqualTo(notListed - 2);
    }

    /** Requests of a member's first claim in a new group, after a look at the owner directory if {@code listFirst}. */
    private static long firstClaimRequests(String group, boolean listFirst) throws Exception {
        CuratorFramework client = zk.newClient();
        ZkRegistry registry = ZkRegistry.of(client);
        ConsumerId me = join(registry, group, "me");
        if (listFirst) { // arms the directory's watch and lists it: it does not exist yet
            assertThat(registry.owners().heldAmong(group, claims(me, 1).keySet(), event -> { })).contains(java.util.Set.of());
        }
        long before = ConnectionRequests.of(zk.connectString(), client);
        assertThat(registry.owners().releaseAndClaim(group, me, List.of(), claims(me, 1), event -> { })).isEmpty();
        long requests = ConnectionRequests.of(zk.connectString(), client) - before;
        assertThat(registry.owners().owner(group, TopicAndPartition.of("T", 1))).isPresent();
        return requests;
    }

    @Test
    void aDisconnectionEndsWhatThePersistentWatchVouchesFor() throws Exception {
        try (TcpProxy proxy = TcpProxy.start(new java.net.InetSocketAddress("127.0.0.1", zk.server().server().getPort()))) {
            CuratorFramework client = zk.server().adopt(org.apache.curator.framework.CuratorFrameworkFactory.builder()
                    .connectString("127.0.0.1:" + proxy.port()).sessionTimeoutMs(10_000).connectionTimeoutMs(5_000)
                    .retryPolicy(new org.apache.curator.retry.RetryOneTime(10)).build());
            ZkRegistry registry = ZkRegistry.of(client);
            ZkRegistry other = ZkRegistry.of(zk.newClient());
            ConsumerId me = join(registry, "o21", "me");
            ConsumerId thief = join(other, "o21", "thief");
            registry.owners().claim("o21", me, claims(me, 0, 1)); // vouched for by the persistent watch on owners/T
            java.util.concurrent.CountDownLatch suspended = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.CountDownLatch reconnected = new java.util.concurrent.CountDownLatch(1);
            client.getConnectionStateListenable().addListener((c, state) -> {
                if (state == org.apache.curator.framework.state.ConnectionState.SUSPENDED) {
                    suspended.countDown();
                } else if (state == org.apache.curator.framework.state.ConnectionState.RECONNECTED) {
                    reconnected.countDown();
                }
            });

            proxy.blackhole(); // no reconnection until the heal, and what the server sends meanwhile is lost with the socket
            client.getZookeeperClient().getZooKeeper().getTestable().closeSocket();
            assertThat(suspended.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            zk.newClient().delete().forPath("/consumers/o21/owners/T/0"); // our owner znode goes behind our back...
            other.owners().claim("o21", thief, claims(thief, 0)); // ...and another member takes it, at version 0 too
            proxy.heal();
            assertThat(reconnected.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue(); // the same session

            List<TopicAndPartition> released = registry.owners().release("o21",
                    List.of(TopicAndPartition.of("T", 0), TopicAndPartition.of("T", 1)));

            assertThat(released).containsExactly(TopicAndPartition.of("T", 1));
            assertThat(other.owners().owner("o21", TopicAndPartition.of("T", 0))).get()
                    .extracting(PartitionOwner::value).isEqualTo("o21_thief-0");
        }
    }

    @Test
    void theDirectoryWatchTellsWhichPartitionsAreStillHeldWithoutARequestAndWakesWhenTheyGo() throws Exception {
        ZkRegistry holderRegistry = ZkRegistry.of(zk.newClient());
        ConsumerId holder = join(holderRegistry, "o22", "holder");
        holderRegistry.owners().claim("o22", holder, claims(holder, 0, 2)); // before the reader's watch: the listing tells
        CuratorFramework client = zk.newClient();
        ZkRegistry reader = ZkRegistry.of(client);
        ConsumerId readerId = join(reader, "o22", "reader");
        reader.owners().claim("o22", readerId, claims(readerId, 5)); // arms its watch on owners/T
        holderRegistry.owners().claim("o22", holder, claims(holder, 3)); // after it: an event tells
        drainEvents(client);
        java.util.concurrent.CountDownLatch letGo = new java.util.concurrent.CountDownLatch(3);
        long before = ConnectionRequests.of(zk.connectString(), client);

        java.util.Optional<java.util.Set<TopicAndPartition>> held = reader.owners().heldAmong("o22",
                List.of(TopicAndPartition.of("T", 0), TopicAndPartition.of("T", 1), TopicAndPartition.of("T", 2),
                        TopicAndPartition.of("T", 3)), event -> letGo.countDown());

        assertThat(ConnectionRequests.of(zk.connectString(), client)).as("requests").isEqualTo(before);
        assertThat(held).contains(java.util.Set.of(TopicAndPartition.of("T", 0), TopicAndPartition.of("T", 2),
                TopicAndPartition.of("T", 3)));
        holderRegistry.owners().release("o22", List.of(TopicAndPartition.of("T", 0), TopicAndPartition.of("T", 2),
                TopicAndPartition.of("T", 3)));
        assertThat(letGo.await(5, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(reader.owners().heldAmong("o22", List.of(TopicAndPartition.of("T", 0)), event -> { })).contains(java.util.Set.of());
    }

    @Test
    void afterStopWatchingTheDirectoryWatchTellsThisClientNothingMore() throws Exception {
        ZkRegistry holderRegistry = ZkRegistry.of(zk.newClient());
        ConsumerId holder = join(holderRegistry, "o23", "holder");
        holderRegistry.owners().claim("o23", holder, claims(holder, 0, 1));
        CuratorFramework client = zk.newClient();
        ZkRegistry reader = ZkRegistry.of(client);
        java.util.concurrent.CountDownLatch letGo = new java.util.concurrent.CountDownLatch(2);
        assertThat(reader.owners().heldAmong("o23", List.of(TopicAndPartition.of("T", 0), TopicAndPartition.of("T", 1)),
                event -> letGo.countDown())).contains(java.util.Set.of(TopicAndPartition.of("T", 0), TopicAndPartition.of("T", 1)));
        holderRegistry.owners().release("o23", List.of(TopicAndPartition.of("T", 0)));
        drainEvents(client);
        assertThat(letGo.getCount()).as("waiters not yet told").isEqualTo(1);

        reader.owners().stopWatching();
        holderRegistry.owners().release("o23", List.of(TopicAndPartition.of("T", 1)));
        drainEvents(client);

        assertThat(letGo.getCount()).as("waiters not yet told").isEqualTo(1);
        assertThat(reader.owners().heldAmong("o23", List.of(TopicAndPartition.of("T", 1)), event -> { })).isEmpty();
    }
}
