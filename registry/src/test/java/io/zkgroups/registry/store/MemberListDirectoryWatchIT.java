package io.zkgroups.registry.store;

import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.MemberRegistration;
import io.zkgroups.registry.model.Subscription;
import io.zkgroups.testing.ZooKeeperExtension;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A MemberList under its one persistent recursive watch ({@link MemberList#watchDirectory}, ZooKeeper 3.9 here) hears
 * what data watches on each registration would: rewrites, leaves (still predicted without a read), joins.
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

        assertThat(list.read(event -> events.incrementAndGet()).readNow()).isEqualTo(3);
        assertThat(list.read(event -> events.incrementAndGet()).readNow()).isZero();

        ZkRegistry.of(a).members().update(group, ConsumerId.ofOverride(group, "a"),
                MemberRegistration.of(Subscription.topics(Map.of("rewritten", 1)), 2L));
        await().atMost(Duration.ofSeconds(5)).until(() -> events.get() > 0);
        MemberList.Read read = list.read(event -> { });

        assertThat(read.readNow()).isEqualTo(1);
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

        assertThat(assumed.listing()).isEqualTo(list.read(event -> { }).listing());
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
}
