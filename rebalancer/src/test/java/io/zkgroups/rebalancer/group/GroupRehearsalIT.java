package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.Subscription;
import io.zkgroups.registry.store.RehearsalSpace;
import io.zkgroups.registry.testing.ZooKeeperExtension;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.Watcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The first join rehearsed in a scratch group: what it writes, where, and that the real group sees none of it. */
@Timeout(120)
class GroupRehearsalIT {

    @RegisterExtension
    static final ZooKeeperExtension zk = new ZooKeeperExtension();

    /** Every znode created below {@code path}, seen through a persistent recursive watch. */
    private static List<String> createdBelow(CuratorFramework observer, String path) throws Exception {
        List<String> created = new CopyOnWriteArrayList<>();
        observer.watchers().add().withMode(AddWatchMode.PERSISTENT_RECURSIVE).usingWatcher((Watcher) event -> {
            if (event.getType() == Watcher.Event.EventType.NodeCreated) {
                created.add(event.getPath());
            }
        }).forPath(path);
        return created;
    }

    @Test
    void theRehearsalRunsBothRolesInItsScratchGroupAndTheRealGroupSeesOnlyTheJoin() throws Exception {
        try (TestGroup group = new TestGroup(zk.server(), "reh1", "range", 2_000)) {
            group.createTopic("reh-t", 4);
            GroupMember first = group.start("a", Subscription.topics(Map.of("reh-t", 1)));
            group.awaitConverged();
            long generationBefore = first.health().generation();

            CuratorFramework observer = zk.newClient();
            String scratch = "/consumers/reh1/" + RehearsalSpace.DIRECTORY;
            List<String> scratchCreated = createdBelow(observer, scratch);
            List<String> realCreated = createdBelow(observer, "/consumers/reh1/ids");
            List<String> ownersCreated = createdBelow(observer, "/consumers/reh1/owners");

            GroupMember second = group.create("b", Subscription.topics(Map.of("reh-t", 1)), c -> c);
            AtomicInteger partners = new AtomicInteger();
            List<CuratorFramework> partnerClients = new CopyOnWriteArrayList<>();
            second.rehearseFirstJoin(() -> {
                partners.incrementAndGet();
                CuratorFramework client = zk.newClient();
                partnerClients.add(client);
                return client;
            });
            second.start();
            group.awaitConverged();

            ConsumerId b = second.consumerId();
            String partner = "reh1_zkgroups-rehearsal-partner";
            // the scratch group had both members registered and both claiming, below the session's space
            assertThat(scratchCreated).anySatisfy(p -> assertThat(p).endsWith("/consumers/reh1/ids/" + b.value()))
                    .anySatisfy(p -> assertThat(p).endsWith("/consumers/reh1/ids/" + partner))
                    .anySatisfy(p -> assertThat(p).contains("/consumers/reh1/owners/reh-t/"));
            assertThat(partners).hasValue(1);
            // the real group: one registration, owner znodes of b only, and one rebalance for a
            assertThat(realCreated).containsExactly("/consumers/reh1/ids/" + b.value());
            assertThat(ownersCreated).allSatisfy(p -> assertThat(p).startsWith("/consumers/reh1/owners/reh-t"));
            assertThat(group.ownerZnodes().values()).noneMatch(v -> v.contains("rehearsal"));
            assertThat(first.health().generation()).isEqualTo(generationBefore + 1);
            // nothing is left of it, and the partner's session has ended
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                    assertThat(observer.checkExists().forPath(scratch)).isNull());
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                    assertThat(partnerClients.get(0).getZookeeperClient().isConnected()).isFalse());
        }
    }

    @Test
    void aMemberWhosePartnerCannotConnectJoinsWithoutTheRehearsal() throws Exception {
        try (TestGroup group = new TestGroup(zk.server(), "reh2", "range", 2_000)) {
            group.createTopic("reh2-t", 3);
            GroupMember member = group.create("a", Subscription.topics(Map.of("reh2-t", 1)), c -> c);
            Supplier<CuratorFramework> unreachable = () -> {
                throw new IllegalStateException("cannot connect to ZooKeeper at nowhere:2181");
            };
            member.rehearseFirstJoin(unreachable);
            member.start();
            group.awaitConverged();

            assertThat(member.owned()).hasSize(3);
            assertThat(zk.newClient().checkExists().forPath("/consumers/reh2/" + RehearsalSpace.DIRECTORY)).isNull();
        }
    }

    @Test
    void closingDuringTheRehearsalEndsItAndTheMemberNeverRegisters() throws Exception {
        try (TestGroup group = new TestGroup(zk.server(), "reh3", "range", 2_000)) {
            group.createTopic("reh3-t", 2);
            GroupMember member = group.create("a", Subscription.topics(Map.of("reh3-t", 1)), c -> c);
            Thread[] closer = new Thread[1];
            member.rehearseFirstJoin(() -> {
                // the member closes while its rehearsal waits for this partner to join
                closer[0] = new Thread(member::close, "closer");
                closer[0].start();
                return zk.newClient();
            });
            member.start();
            await().atMost(Duration.ofSeconds(20)).until(() -> closer[0] != null);
            closer[0].join(Duration.ofSeconds(20).toMillis());

            assertThat(closer[0].isAlive()).as("close() returned").isFalse();
            assertThat(member.health().state()).isEqualTo(MemberState.CLOSED);
            CuratorFramework observer = zk.newClient();
            assertThat(observer.checkExists().forPath("/consumers/reh3/ids/" + member.consumerId().value())).isNull();
            assertThat(observer.checkExists().forPath("/consumers/reh3/" + RehearsalSpace.DIRECTORY)).isNull();
        }
    }
}
