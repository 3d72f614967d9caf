package io.zkgroups.registry.store;

import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.MemberRegistration;
import io.zkgroups.registry.model.Subscription;
import io.zkgroups.testing.TcpProxy;
import io.zkgroups.testing.ZooKeeperExtension;
import org.apache.curator.drivers.AdvancedTracerDriver;
import org.apache.curator.drivers.EventTrace;
import org.apache.curator.drivers.OperationTrace;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A MemberList under its one persistent recursive watch ({@link MemberList#watchDirectory}, ZooKeeper 3.9 here) hears
 * what data watches on each registration would: rewrites, leaves (still predicted without a read), joins; and it
 * applies them to its last read instead of listing the group again, until a disconnection may have hidden one.
 */
@Timeout(60)
class MemberListDirectoryWatchIT {

    private static final AtomicInteger GROUPS = new AtomicInteger();
    @RegisterExtension
    static final ZooKeeperExtension zk = new ZooKeeperExtension();

    private static CuratorFramework join(String group, String name, String topic) {
        CuratorFramework client = zk.newClient();
        ZkRegistry.of(client).members().register(group, ConsumerId.ofOverride(group, name),
                MemberRegistration.of(Subscription.topics(Map.of(topic, 1)), 1L), Duration.ofSeconds(1));
        return client;
    }

    private static MemberList watchingList(String group) {
        MemberList list = ZkRegistry.of(zk.newClient()).members().memberList(group);
        list.watchDirectory();
        return list;
    }

    private static String topicOf(MemberList.Read read, String id) {
        return read.listing().entries().stream().filter(m -> m.id().value().equals(id)).findFirst().orElseThrow()
                .registration().subscription().topicStreams(java.util.List.of(), true).keySet().iterator().next();
    }

    @Test
    void readsEachRegistrationOnceAndHearsARewrite() throws Exception {
        String group = "mld" + GROUPS.incrementAndGet();
        CuratorFramework a = join(group, "a", "t");
        join(group, "b", "t");
        join(group, "c", "t");
        MemberList list = watchingList(group);
        AtomicInteger events = new AtomicInteger();

        MemberList.Read first = list.read(event -> events.incrementAndGet());
        MemberList.Read second = list.read(event -> events.incrementAndGet());
        assertThat(first.readNow()).isEqualTo(3);
        assertThat(second.readNow()).isZero();
        assertThat(second.listing()).as("an unchanged group's listing, handed out again").isSameAs(first.listing());

        ZkRegistry.of(a).members().update(group, ConsumerId.ofOverride(group, "a"),
                MemberRegistration.of(Subscription.topics(Map.of("rewritten", 1)), 2L));
        await().atMost(Duration.ofSeconds(5)).until(() -> events.get() > 0);
        MemberList.Read read = list.read(event -> { });

        assertThat(read.readNow()).isEqualTo(1);
        assertThat(read.listing()).isNotSameAs(first.listing());
        assertThat(topicOf(read, group + "_a")).isEqualTo("rewritten");
    }

    @Test
    void aLeaveIsStillActedOnWithoutARead() {
        String group = "mld" + GROUPS.incrementAndGet();
        join(group, "a", "t");
        CuratorFramework b = join(group, "b", "t");
        MemberList list = watchingList(group);
        AtomicInteger events = new AtomicInteger();
        list.read(event -> events.incrementAndGet());

        b.close();
        await().atMost(Duration.ofSeconds(5)).until(() -> events.get() == 2); // b's registration, then the listing
        MemberList.Read assumed = list.afterLeaveHeard().orElseThrow();

        assertThat(list.read(event -> { }).listing()).as("the read that confirms the leave: the listing acted on")
                .isSameAs(assumed.listing());
        assertThat(assumed.listing().entries()).hasSize(1);
    }

    @Test
    void aJoinIsHeardAndNotAssumedAway() {
        String group = "mld" + GROUPS.incrementAndGet();
        join(group, "a", "t");
        CuratorFramework b = join(group, "b", "t");
        MemberList list = watchingList(group);
        AtomicInteger events = new AtomicInteger();
        list.read(event -> events.incrementAndGet());

        join(group, "d", "u"); // the directory watch's creation event, then the listing's
        await().atMost(Duration.ofSeconds(5)).until(() -> events.get() == 2);
        b.close();
        await().atMost(Duration.ofSeconds(5)).until(() -> events.get() == 3); // the listing's watch fired already

        assertThat(list.afterLeaveHeard()).isEmpty();
        MemberList.Read read = list.read(event -> { });
        assertThat(read.readNow()).isEqualTo(1);
        assertThat(topicOf(read, group + "_d")).isEqualTo("u");
        assertThat(read.listing().entries()).hasSize(2);
    }

    @Test
    void joinsAndLeavesAreAppliedFromTheirEventsWithoutListingTheGroup() {
        String group = "mld" + GROUPS.incrementAndGet();
        join(group, "a", "t");
        CuratorFramework b = join(group, "b", "t");
        CuratorFramework client = zk.newClient();
        AtomicInteger listings = countListings(client, "/consumers/" + group + "/ids");
        MemberList list = ZkRegistry.of(client).members().memberList(group);
        list.watchDirectory();
        AtomicInteger events = new AtomicInteger();
        list.read(event -> events.incrementAndGet());
        assertThat(listings).as("listings of ids").hasValue(1);

        join(group, "d", "u"); // the directory watch's creation event, then the listing's
        await().atMost(Duration.ofSeconds(5)).until(() -> events.get() == 2);
        MemberList.Read afterJoin = list.read(event -> events.incrementAndGet());
        assertThat(ids(afterJoin)).containsExactly(group + "_a", group + "_b", group + "_d");
        assertThat(afterJoin.readNow()).as("registrations read").isOne();
        assertThat(topicOf(afterJoin, group + "_d")).isEqualTo("u");

        b.close(); // only the directory watch's event: nothing armed the listing's again
        await().atMost(Duration.ofSeconds(5)).until(() -> events.get() == 3);
        MemberList.Read afterLeave = list.read(event -> events.incrementAndGet());
        assertThat(ids(afterLeave)).containsExactly(group + "_a", group + "_d");
        assertThat(afterLeave.readNow()).isZero();
        assertThat(listings).as("listings of ids after a join and a leave").hasValue(1);
        assertThat(afterLeave.listing()).as("what a fresh listing finds")
                .isEqualTo(ZkRegistry.of(zk.newClient()).members().memberList(group).read(null).listing());
    }

    @Test
    void aJoinDuringADisconnectionIsFoundByListingTheGroupAgain() throws Exception {
        String group = "mld" + GROUPS.incrementAndGet();
        join(group, "a", "t");
        try (TcpProxy proxy = TcpProxy.start("zk", Integer.parseInt(zk.connectString().replaceAll(".*:", "")))) {
            CuratorFramework client = CuratorFrameworkFactory.builder().connectString("127.0.0.1:" + proxy.port())
                    .sessionTimeoutMs(30_000).connectionTimeoutMs(5_000)
                    .retryPolicy(new ExponentialBackoffRetry(50, 10, 500)).build();
            CountDownLatch suspended = new CountDownLatch(1);
            CountDownLatch reconnected = new CountDownLatch(1);
            client.getConnectionStateListenable().addListener((c, state) -> {
                if (state == ConnectionState.SUSPENDED) {
                    suspended.countDown();
                } else if (state == ConnectionState.RECONNECTED) {
                    reconnected.countDown();
                }
            });
            zk.server().adopt(client);
            AtomicInteger listings = countListings(client, "/consumers/" + group + "/ids");
            MemberList list = ZkRegistry.of(client).members().memberList(group);
            list.watchDirectory();
            list.read(event -> { });

            proxy.cut();
            assertThat(suspended.await(20, TimeUnit.SECONDS)).isTrue();
            join(group, "d", "u"); // unheard: the list's client is cut off
            proxy.heal();
            assertThat(reconnected.await(20, TimeUnit.SECONDS)).isTrue();
            MemberList.Read read = list.read(event -> { });

            assertThat(ids(read)).containsExactly(group + "_a", group + "_d");
            assertThat(listings).as("listings of ids: the first read's and the one after the disconnection").hasValue(2);
        }
    }

    private static List<String> ids(MemberList.Read read) {
        return read.listing().entries().stream().map(m -> m.id().value()).toList();
    }

    /** Counts {@code client}'s listings of {@code path} (Curator traces every operation). */
    private static AtomicInteger countListings(CuratorFramework client, String path) {
        AtomicInteger listings = new AtomicInteger();
        client.getZookeeperClient().setTracerDriver(new AdvancedTracerDriver() {
            @Override
            public void addTrace(OperationTrace trace) {
                if (trace.getName().startsWith("GetChildrenBuilderImpl") && path.equals(trace.getPath())) {
                    listings.incrementAndGet();
                }
            }

            @Override
            public void addEvent(EventTrace trace) {
            }
        });
        return listings;
    }
}
