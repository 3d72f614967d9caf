package io.zkgroups.registry.store;

import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.testing.ZooKeeperExtension;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(60)
class OffsetRegistryIT {

    @RegisterExtension
    static final ZooKeeperExtension zk = new ZooKeeperExtension();

    private static TopicAndPartition tp(String topic, int partition) {
        return TopicAndPartition.of(topic, partition);
    }

    /** The owner znode of {@code tp} in {@code group}, an ephemeral of {@code client}'s session, as a claim makes it. */
    private static void own(CuratorFramework client, String group, TopicAndPartition tp) throws Exception {
        client.create().creatingParentsIfNeeded().withMode(org.apache.zookeeper.CreateMode.EPHEMERAL)
                .forPath("/consumers/" + group + "/owners/" + tp.topic() + "/" + tp.partition(),
                        (group + "_a-0").getBytes(StandardCharsets.UTF_8));
    }

    /** A member's side of the store: its client, its offsets on that client, its session (its owner znodes'). */
    private record Owner(CuratorFramework client, OffsetRegistry store, long session) {
        void commitOwned(String group, Map<TopicAndPartition, Long> offsets) {
            store.commitOwned(group, offsets, session);
        }
    }

    /** A member of {@code group} on a session of its own, owning {@code owned} as its claims made them. */
    private static Owner owner(String group, TopicAndPartition... owned) throws Exception {
        CuratorFramework client = zk.newClient();
        ZkRegistry registry = ZkRegistry.of(client);
        for (TopicAndPartition tp : owned) {
            own(client, group, tp);
        }
        return new Owner(client, registry.offsets(), registry.znodes().sessionId());
    }

    /** The offset stored at {@code path}, as text. */
    private static String offsetAt(CuratorFramework client, String path) throws Exception {
        return new String(client.getData().forPath(path), StandardCharsets.US_ASCII);
    }

    /** Requests the server received on {@code client}'s connection while {@code commit} ran. */
    private static long requestsOf(CuratorFramework client, Runnable commit) {
        long before = io.zkgroups.testing.ConnectionRequests.of(zk.connectString(), client);
        commit.run();
        return io.zkgroups.testing.ConnectionRequests.of(zk.connectString(), client) - before;
    }

    @Test
    void offsetsAreWrittenAsDecimalTextAndReadBack() throws Exception {
        CuratorFramework client = zk.newClient();
        ZkRegistry registry = ZkRegistry.of(client);

        OffsetRegistry.CommitResult result = registry.offsets().commit("f1", Map.of(tp("T", 0), 286894308L, tp("T", 1), 0L, tp("U", 0), 7L));

        assertThat(result.written()).isEqualTo(3);
        assertThat(new String(client.getData().forPath("/consumers/f1/offsets/T/0"), StandardCharsets.US_ASCII)).isEqualTo("286894308");
        assertThat(client.checkExists().forPath("/consumers/f1/offsets/T").getEphemeralOwner()).isZero();
        OffsetRegistry fresh = ZkRegistry.of(zk.newClient()).offsets();
        assertThat(fresh.read("f1", List.of(tp("T", 0), tp("T", 1), tp("T", 2), tp("U", 0))).offsets())
                .containsExactlyInAnyOrderEntriesOf(Map.of(tp("T", 0), 286894308L, tp("T", 1), 0L, tp("U", 0), 7L));
        assertThat(fresh.readAll("f1").offsets()).hasSize(3);
    }

    @Test
    void anOffsetReadMissingBesideOneThatExistsIsCreatedByTheFirstCommitWithoutALook() throws Exception {
        Owner owner = owner("f20", tp("T", 1), tp("T", 0));
        CuratorFramework client = owner.client();
        OffsetRegistry store = owner.store();
        ZkRegistry.of(zk.newClient()).offsets().commit("f20", Map.of(tp("T", 0), 4L)); // another member committed T-0
        // as a member reads the committed offsets of what it was assigned: T-1 has none yet
        assertThat(store.read("f20", List.of(tp("T", 0), tp("T", 1))).offsets()).containsOnlyKeys(tp("T", 0));

        assertThat(requestsOf(client, () -> owner.commitOwned("f20", Map.of(tp("T", 0), 9L, tp("T", 1), 7L))))
                .as("the write alone: no listing of /consumers/f20/offsets/T first").isEqualTo(1);
        assertThat(offsetAt(client, "/consumers/f20/offsets/T/1")).isEqualTo("7");
        assertThat(offsetAt(client, "/consumers/f20/offsets/T/0")).isEqualTo("9");
    }

    @Test
    void anOffsetReadMissingIsCreatedWithoutALookOnceAnotherMemberCreatedItsDirectory() throws Exception {
        Owner owner = owner("f22", tp("T", 1));
        CuratorFramework client = owner.client();
        OffsetRegistry store = owner.store();
        // a group that never committed: the read finds neither T-1's offset nor its directory
        assertThat(store.read("f22", List.of(tp("T", 1))).offsets()).isEmpty();
        ZkRegistry.of(zk.newClient()).offsets().commit("f22", Map.of(tp("T", 0), 4L)); // another member, first

        assertThat(requestsOf(client, () -> owner.commitOwned("f22", Map.of(tp("T", 1), 7L))))
                .as("the write alone: no listing of /consumers/f22/offsets/T first").isEqualTo(1);
        assertThat(offsetAt(client, "/consumers/f22/offsets/T/1")).isEqualTo("7");
    }

    @Test
    void theFirstCommitOfAGroupCreatesTheDirectoriesOfOffsetsReadMissing() throws Exception {
        Owner owner = owner("f23", tp("T", 0));
        CuratorFramework client = owner.client();
        OffsetRegistry store = owner.store();
        assertThat(store.read("f23", List.of(tp("T", 0), tp("U", 0))).offsets()).isEmpty();

        store.commit("f23", Map.of(tp("U", 0), 3L));
        owner.commitOwned("f23", Map.of(tp("T", 0), 5L));

        assertThat(ZkRegistry.of(zk.newClient()).offsets().readAll("f23").offsets())
                .containsExactlyInAnyOrderEntriesOf(Map.of(tp("T", 0), 5L, tp("U", 0), 3L));
    }

    @Test
    void aNewGroupsFirstCommitCreatesBothOffsetDirectoriesInOneRequest() throws Exception {
        Owner owner = owner("f24", tp("T", 0));
        CuratorFramework client = owner.client();
        OffsetRegistry store = owner.store();
        assertThat(store.read("f24", List.of(tp("T", 0))).offsets()).isEmpty();

        assertThat(requestsOf(client, () -> owner.commitOwned("f24", Map.of(tp("T", 0), 5L))))
                .as("the write that finds no directory, the listings of /consumers/f24/offsets and of its T, one "
                        + "multi() creating both, the write again").isEqualTo(5);
        assertThat(offsetAt(client, "/consumers/f24/offsets/T/0")).isEqualTo("5");
    }

    @Test
    void aFirstCommitCreatesOnlyTheDirectoriesStillMissing() throws Exception {
        Owner owner = owner("f25", tp("T", 0), tp("U", 0));
        CuratorFramework client = owner.client();
        OffsetRegistry store = owner.store();
        assertThat(store.read("f25", List.of(tp("T", 0), tp("U", 0))).offsets()).isEmpty();
        // another member committed first: /consumers/f25/offsets and its U exist, T does not
        ZkRegistry.of(zk.newClient()).offsets().commit("f25", Map.of(tp("U", 1), 1L));

        owner.commitOwned("f25", Map.of(tp("T", 0), 5L, tp("U", 0), 6L));

        assertThat(offsetAt(client, "/consumers/f25/offsets/T/0")).isEqualTo("5");
        assertThat(offsetAt(client, "/consumers/f25/offsets/U/0")).isEqualTo("6");
    }

    @Test
    void anOffsetReadMissingThatAnotherWriterCreatedMeanwhileIsStillWritten() throws Exception {
        CuratorFramework client = zk.newClient();
        ZkRegistry registry = ZkRegistry.of(client);
        ZkRegistry.of(zk.newClient()).offsets().commit("f21", Map.of(tp("T", 0), 4L));
        OffsetRegistry store = registry.offsets();
        assertThat(store.read("f21", List.of(tp("T", 0), tp("T", 1))).offsets()).containsOnlyKeys(tp("T", 0));
        ZkRegistry.of(zk.newClient()).offsets().commit("f21", Map.of(tp("T", 1), 2L)); // a tool, say

        store.commit("f21", Map.of(tp("T", 1), 8L));

        assertThat(new String(client.getData().forPath("/consumers/f21/offsets/T/1"), StandardCharsets.US_ASCII)).isEqualTo("8");
    }

    /**
     * An owner's offset write goes out on its own session and checks its owner znode: once the session has ended (and
     * the server has deleted its owner znodes) the write is refused and nothing lands — not even on the client's new
     * session, where a replay would overwrite whatever the partition's next owner committed.
     */
    @Test
    void anOwnersWriteLandsOnlyWhileItsSessionHoldsTheOwnerZnode() throws Exception {
        CuratorFramework client = zk.newClient();
        ZkRegistry registry = ZkRegistry.of(client);
        OffsetRegistry store = registry.offsets();
        client.create().creatingParentsIfNeeded().withMode(org.apache.zookeeper.CreateMode.EPHEMERAL)
                .forPath("/consumers/f9/owners/T/0", "f9_a-0".getBytes(StandardCharsets.UTF_8));
        long session = registry.znodes().sessionId();

        store.commitOwned("f9", Map.of(tp("T", 0), 5L), session);
        assertThat(new String(client.getData().forPath("/consumers/f9/offsets/T/0"), StandardCharsets.US_ASCII)).isEqualTo("5");

        assertThatThrownBy(() -> store.commitOwned("f9", Map.of(tp("T", 1), 5L), session))
                .as("no owner znode for T-1").isInstanceOf(NotOwnedException.class).hasMessageContaining("/consumers/f9/owners/T/1");
        assertThat(client.checkExists().forPath("/consumers/f9/offsets/T/1")).isNull();

        io.zkgroups.testing.TestZooKeeper.expireSession(client);
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(20)).until(() -> {
            try {
                return registry.znodes().sessionId() != session && client.getZookeeperClient().isConnected();
            } catch (io.zkgroups.registry.RegistryException reconnecting) {
                return false;
            }
        });
        client.create().creatingParentsIfNeeded().withMode(org.apache.zookeeper.CreateMode.EPHEMERAL)
                .forPath("/consumers/f9/owners/T/0", "f9_b-0".getBytes(StandardCharsets.UTF_8)); // the next owner's claim
        assertThatThrownBy(() -> store.commitOwned("f9", Map.of(tp("T", 0), 3L), session))
                .isInstanceOf(NotOwnedException.class).hasMessageContaining("0x" + Long.toHexString(session));
        assertThat(new String(client.getData().forPath("/consumers/f9/offsets/T/0"), StandardCharsets.US_ASCII)).isEqualTo("5");
    }

    @Test
    void unchangedOffsetsAreNotWrittenAgain() throws Exception {
        CuratorFramework client = zk.newClient();
        OffsetRegistry store = ZkRegistry.of(client).offsets();
        store.commit("f2", Map.of(tp("T", 0), 5L, tp("T", 1), 6L));
        int version0 = client.checkExists().forPath("/consumers/f2/offsets/T/0").getVersion();
        int version1 = client.checkExists().forPath("/consumers/f2/offsets/T/1").getVersion();

        OffsetRegistry.CommitResult again = store.commit("f2", Map.of(tp("T", 0), 5L, tp("T", 1), 9L));

        assertThat(again.written()).isEqualTo(1);
        assertThat(again.unchanged()).isEqualTo(1);
        assertThat(client.checkExists().forPath("/consumers/f2/offsets/T/0").getVersion()).isEqualTo(version0);
        assertThat(client.checkExists().forPath("/consumers/f2/offsets/T/1").getVersion()).isEqualTo(version1 + 1);
    }

    @Test
    void offsetsWrittenBySomeoneElseAreOverwrittenAfterARead() throws Exception {
        CuratorFramework client = zk.newClient();
        OffsetRegistry store = ZkRegistry.of(client).offsets();
        store.commit("f3", Map.of(tp("T", 0), 5L));
        ZkRegistry.of(zk.newClient()).offsets().commit("f3", Map.of(tp("T", 0), 8L)); // e.g. a 0.8.2.2 member

        assertThat(store.read("f3", List.of(tp("T", 0))).offsets()).containsEntry(tp("T", 0), 8L);
        assertThat(store.commit("f3", Map.of(tp("T", 0), 5L)).written()).isEqualTo(1);
        assertThat(new String(client.getData().forPath("/consumers/f3/offsets/T/0"), StandardCharsets.US_ASCII)).isEqualTo("5");
    }

    @Test
    void aDeletedOffsetZnodeIsRecreatedOnTheNextCommit() throws Exception {
        CuratorFramework client = zk.newClient();
        OffsetRegistry store = ZkRegistry.of(client).offsets();
        store.commit("f4", Map.of(tp("T", 0), 1L, tp("T", 1), 1L));
        client.delete().forPath("/consumers/f4/offsets/T/0"); // a tool deleted it

        store.commit("f4", Map.of(tp("T", 0), 2L, tp("T", 1), 2L));

        assertThat(store.read("f4", List.of(tp("T", 0), tp("T", 1))).offsets())
                .containsExactlyInAnyOrderEntriesOf(Map.of(tp("T", 0), 2L, tp("T", 1), 2L));
    }

    @Test
    void manyOffsetsGoInSeveralBatches() {
        OffsetRegistry store = ZkRegistry.of(zk.newClient()).offsets();
        Map<TopicAndPartition, Long> offsets = new TreeMap<>();
        for (int i = 0; i < 2_500; i++) {
            offsets.put(tp("topic-" + (i % 5), i / 5), (long) i * 1000);
        }

        OffsetRegistry.CommitResult result = store.commit("f5", offsets);

        assertThat(result.written()).isEqualTo(2_500);
        assertThat(result.batches()).isGreaterThanOrEqualTo(3);
        assertThat(ZkRegistry.of(zk.newClient()).offsets().readAll("f5").offsets()).isEqualTo(offsets);
    }

    @Test
    void onAServerWithMultiReadsOffsetsAreReadInOneRequestPerBatch() {
        Map<TopicAndPartition, Long> offsets = new TreeMap<>();
        for (int p = 0; p < 1_200; p++) {
            offsets.put(tp("T", p), 10L * p);
        }
        ZkRegistry.of(zk.newClient()).offsets().commit("f10", offsets);
        List<TopicAndPartition> wanted = new java.util.ArrayList<>(offsets.keySet());
        wanted.add(tp("T", 5_000)); // never committed: absent from the result
        CuratorFramework client = zk.newClient();
        OffsetRegistry store = ZkRegistry.of(client).offsets();
        store.read("f10", List.of(tp("T", 0))); // the client learns its servers' generation (a request of its own)
        long before = io.zkgroups.testing.ConnectionRequests.of(zk.connectString(), client);

        OffsetRegistry.OffsetRead read = store.read("f10", wanted);

        assertThat(read.offsets()).isEqualTo(offsets);
        assertThat(read.unreadable()).isEmpty();
        // 1,201 reads in three requests of at most 500 (the bound leaves room for two pings on a loaded machine)
        assertThat(io.zkgroups.testing.ConnectionRequests.of(zk.connectString(), client) - before)
                .as("requests").isBetween(3L, 5L);
    }

    @Test
    void malformedOffsetsAreReportedNotThrown() throws Exception {
        CuratorFramework client = zk.newClient();
        OffsetRegistry store = ZkRegistry.of(client).offsets();
        store.commit("f6", Map.of(tp("T", 0), 3L));
        client.create().forPath("/consumers/f6/offsets/T/1", "12abc".getBytes(StandardCharsets.US_ASCII));
        client.create().forPath("/consumers/f6/offsets/T/x", "1".getBytes(StandardCharsets.US_ASCII));

        OffsetRegistry.OffsetRead read = store.readAll("f6");

        assertThat(read.offsets()).containsExactly(Map.entry(tp("T", 0), 3L));
        assertThat(read.unreadable()).extracting(Unreadable::path)
                .containsExactlyInAnyOrder("/consumers/f6/offsets/T/1", "/consumers/f6/offsets/T/x");
    }

    @Test
    void aFreshStoreUpdatesOffsetsThatAlreadyExist() throws Exception {
        CuratorFramework client = zk.newClient();
        ZkRegistry.of(client).offsets().commit("f7", Map.of(tp("T", 0), 1L, tp("T", 1), 1L));

        OffsetRegistry restarted = ZkRegistry.of(zk.newClient()).offsets(); // knows nothing yet
        OffsetRegistry.CommitResult result = restarted.commit("f7", Map.of(tp("T", 0), 2L, tp("T", 1), 3L, tp("T", 2), 4L));

        assertThat(result.written()).isEqualTo(3);
        assertThat(ZkRegistry.of(zk.newClient()).offsets().readAll("f7").offsets())
                .containsExactlyInAnyOrderEntriesOf(Map.of(tp("T", 0), 2L, tp("T", 1), 3L, tp("T", 2), 4L));
        assertThat(client.checkExists().forPath("/consumers/f7/offsets/T/0").getVersion()).isEqualTo(1);
    }
    @Test
    void aDeletedTopicDirectoryIsCreatedAgainOnTheNextCommit() throws Exception {
        CuratorFramework client = zk.newClient();
        OffsetRegistry store = ZkRegistry.of(client).offsets();
        store.commit("f8", Map.of(tp("T", 0), 1L, tp("U", 0), 1L));
        client.delete().deletingChildrenIfNeeded().forPath("/consumers/f8/offsets/T"); // a tool reset the topic

        store.commit("f8", Map.of(tp("T", 0), 2L, tp("T", 1), 2L, tp("U", 0), 2L));

        assertThat(ZkRegistry.of(zk.newClient()).offsets().readAll("f8").offsets())
                .containsExactlyInAnyOrderEntriesOf(Map.of(tp("T", 0), 2L, tp("T", 1), 2L, tp("U", 0), 2L));
    }
}
