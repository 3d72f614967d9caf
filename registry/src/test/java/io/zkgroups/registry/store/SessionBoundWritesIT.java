package io.zkgroups.registry.store;

import io.zkgroups.registry.RegistryException;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.MemberRegistration;
import io.zkgroups.registry.model.Subscription;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.testing.HeldWrite;
import io.zkgroups.testing.TestZooKeeper;
import io.zkgroups.testing.ZooKeeperExtension;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Writes to a session's ephemerals (owner znodes, registrations) never act on another session's nodes: a request
 * whose session ends before it reaches ZooKeeper is not replayed on the client's next session, where the same path
 * may by then be another member's.
 */
@Timeout(60)
class SessionBoundWritesIT {

    @RegisterExtension
    static final ZooKeeperExtension zk = new ZooKeeperExtension();

    private static ConsumerId join(ZkRegistry registry, String group, String name) {
        return Members.join(registry, group, name, "T");
    }

    private static Map<TopicAndPartition, ThreadId> claims(ConsumerId id, int... partitions) {
        return Members.claims(id, "T", partitions);
    }

    /** Ends {@code client}'s session {@code session} for real and waits until the client has its next one. */
    private static void expireAndAwaitNextSession(CuratorFramework client, long session) {
        TestZooKeeper.expireSession(client);
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            long now = HeldWrite.sessionOf(client);
            return now != 0 && now != session && client.getZookeeperClient().isConnected();
        });
    }

    @Test
    void theFallbackOfADeleteIsNotReplayedOnTheNextSessionWhereAnotherMemberTookThePath() throws Exception {
        HeldWrite held = new HeldWrite();
        CuratorFramework client = held.newClient(zk.server());
        ZkRegistry mine = ZkRegistry.of(client);
        ZkRegistry other = ZkRegistry.of(zk.newClient());
        ConsumerId me = join(mine, "s1", "me");
        mine.owners().claim("s1", me, claims(me, 0));
        long session = mine.znodes().sessionId();
        String path = "/consumers/s1/owners/T/0";

        // The caller's version is stale, so the transaction fails and the fallback reads the node (still ours)
        // and deletes it: that delete is held until our session has ended and another member has the path.
        held.holdAfter(1);
        CompletableFuture<List<String>> deleting = CompletableFuture.supplyAsync(
                () -> new SessionWrites(mine.znodes()).deleteAll(session, Map.of(path, 7)));
        held.awaitHeld();
        expireAndAwaitNextSession(client, session);
        ConsumerId taker = join(other, "s1", "taker");
        other.owners().claim("s1", taker, claims(taker, 0));
        long takerSession = other.znodes().sessionId();
        held.release();
        List<String> deleted = deleting.get(30, TimeUnit.SECONDS);

        Stat stat = zk.newClient().checkExists().forPath(path);
        assertThat(stat).as("the other member's owner znode at " + path).isNotNull();
        assertThat(stat.getEphemeralOwner()).isEqualTo(takerSession);
        assertThat(deleted).isEmpty();
    }

    @Test
    void aClaimWhoseSessionEndsBeforeItArrivesIsNotMadeInTheNextSession() throws Exception {
        HeldWrite held = new HeldWrite();
        CuratorFramework client = held.newClient(zk.server());
        ZkRegistry mine = ZkRegistry.of(client);
        ZkRegistry successor = ZkRegistry.of(zk.newClient());
        ConsumerId me = join(mine, "s2", "me");
        long session = mine.znodes().sessionId();

        held.holdAfter(0); // the claim's transaction
        CompletableFuture<Void> claiming = CompletableFuture.runAsync(() -> mine.owners().claim("s2", me, claims(me, 0, 1)));
        held.awaitHeld();
        expireAndAwaitNextSession(client, session);
        join(successor, "s2", "me"); // the same consumer id, registered again by another process
        held.release();

        assertThat(catchFailure(claiming)).as("the claim of an ended session").isInstanceOf(RegistryException.class)
                .hasMessageContaining("nothing was claimed");
        assertThat(successor.owners().owners("s2").entries()).as("owner znodes under /consumers/s2/owners").isEmpty();
    }

    /**
     * An offset commit held until the committing member's session has ended, the next owner has claimed the partition
     * and committed further: the plain Curator commit (what the consumer used before the ownership fence) is replayed
     * on the client's new session and rewinds the next owner's offset; the owner's commit is not.
     */
    @Test
    void anOffsetCommitWhoseSessionEndsBeforeItArrivesRewindsNothing() throws Exception {
        for (boolean owned : new boolean[] {false, true}) {
            String group = owned ? "s6" : "s5";
            HeldWrite held = new HeldWrite();
            CuratorFramework client = held.newClient(zk.server());
            ZkRegistry mine = ZkRegistry.of(client);
            ZkRegistry next = ZkRegistry.of(zk.newClient());
            ConsumerId me = join(mine, group, "me");
            mine.owners().claim(group, me, claims(me, 0));
            long session = mine.znodes().sessionId();
            TopicAndPartition t0 = TopicAndPartition.of("T", 0);
            mine.offsets().commit(group, Map.of(t0, 1L)); // the offset znode exists, like after any earlier commit

            held.holdAfter(0); // the commit's multi()
            CompletableFuture<Void> committing = CompletableFuture.runAsync(() -> {
                if (owned) {
                    mine.offsets().commitOwned(group, Map.of(t0, 5L), session);
                } else {
                    mine.offsets().commit(group, Map.of(t0, 5L));
                }
            });
            held.awaitHeld();
            expireAndAwaitNextSession(client, session);
            ConsumerId other = join(next, group, "next");
            next.owners().claim(group, other, claims(other, 0));
            next.offsets().commit(group, Map.of(t0, 9L)); // the next owner has moved on
            held.release();

            Throwable failure = catchFailure(committing);
            long stored = next.offsets().read(group, List.of(t0)).offsets().get(t0);
            if (owned) {
                assertThat(failure).as("the owner's write fails with its session").isInstanceOf(RegistryException.class);
                assertThat(stored).as("the next owner's offset").isEqualTo(9L);
            } else {
                assertThat(failure).as("Curator replays the write on the new session").isNull();
                assertThat(stored).as("rewound by the replay").isEqualTo(5L);
            }
        }
    }

    @Test
    void aClaimForAConsumerIdThatAnotherSessionRegisteredSinceIsRefusedAndLeavesNothing() throws Exception {
        CuratorFramework client = zk.newClient();
        ZkRegistry mine = ZkRegistry.of(client);
        ZkRegistry successor = ZkRegistry.of(zk.newClient());
        ConsumerId me = join(mine, "s4", "me");
        long registeredSession = mine.znodes().sessionId();
        // The member stalls (a long pause) after reading its session: it expires, another process takes the id...
        expireAndAwaitNextSession(client, registeredSession);
        join(successor, "s4", "me");

        // ...and the member wakes up and claims, in the client's new session.
        assertThatThrownBy(() -> mine.owners().claim("s4", me, claims(me, 0, 1)))
                .isInstanceOf(RegistryException.class)
                .hasMessageContaining("/consumers/s4/ids/s4_me").hasMessageContaining("nothing was claimed");
        assertThat(successor.owners().owners("s4").entries()).as("owner znodes under /consumers/s4/owners").isEmpty();
    }

    @Test
    void leavingAfterTheSessionEndedLeavesTheNextRegistrationOfTheSameConsumerIdAlone() throws Exception {
        CuratorFramework client = zk.newClient();
        ZkRegistry mine = ZkRegistry.of(client);
        ZkRegistry successor = ZkRegistry.of(zk.newClient());
        ConsumerId me = join(mine, "s3", "me");
        long registeredSession = mine.znodes().sessionId();
        MemberList members = mine.members().memberList("s3");
        members.read(event -> { });
        assertThat(members.vouchesFor(me, registeredSession)).isTrue();

        expireAndAwaitNextSession(client, registeredSession);
        join(successor, "s3", "me"); // session S2: the same consumer id in another process
        long successorSession = successor.znodes().sessionId();

        mine.owners().releaseAndUnregister("s3", me, List.of(), registeredSession,
                members.vouchesFor(me, registeredSession));

        Stat stat = zk.newClient().checkExists().forPath("/consumers/s3/ids/s3_me");
        assertThat(stat).as("the successor's registration /consumers/s3/ids/s3_me").isNotNull();
        assertThat(stat.getEphemeralOwner()).isEqualTo(successorSession);
    }

    @Test
    void aRegistrationUpdateAfterTheSessionEndedLeavesTheNextRegistrationOfTheSameConsumerIdAlone() throws Exception {
        CuratorFramework client = zk.newClient();
        ZkRegistry mine = ZkRegistry.of(client);
        ZkRegistry successor = ZkRegistry.of(zk.newClient());
        ConsumerId me = join(mine, "s5", "me");
        expireAndAwaitNextSession(client, mine.znodes().sessionId());
        join(successor, "s5", "me");
        byte[] successors = successor.znodes().read("/consumers/s5/ids/s5_me").orElseThrow().bytes();

        assertThatThrownBy(() -> mine.members().update("s5", me,
                MemberRegistration.of(Subscription.topics(Map.of("other-topic", 3)), 2)))
                .isInstanceOf(RegistryException.class).hasMessageContaining("/consumers/s5/ids/s5_me");
        assertThat(successor.znodes().read("/consumers/s5/ids/s5_me").orElseThrow().bytes())
                .as("the successor's registration").isEqualTo(successors);
    }

    private static Throwable catchFailure(CompletableFuture<?> future) throws Exception {
        try {
            future.get(30, TimeUnit.SECONDS);
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        }
    }
}
