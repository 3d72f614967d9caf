package io.zkgroups.registry.store;

import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.MemberRegistration;
import io.zkgroups.registry.model.Subscription;
import io.zkgroups.testing.TestZooKeeper;
import io.zkgroups.testing.ZooKeeperExtension;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** MemberList reads only what may have changed, and never serves a registration that did change. */
@Timeout(60)
class MemberListIT {

    private static final AtomicInteger GROUPS = new AtomicInteger();
    @RegisterExtension
    static final ZooKeeperExtension zk = new ZooKeeperExtension();

    private static MemberRegistration subscribedTo(String topic, long timestamp) {
        return MemberRegistration.of(Subscription.topics(Map.of(topic, 1)), timestamp);
    }

    /** Registers {@code name} on a client of its own (ephemeral nodes need a live session). */
    private static CuratorFramework join(String group, String name, String topic) {
        CuratorFramework client = zk.newClient();
        ZkRegistry.of(client).members().register(group, ConsumerId.ofOverride(group, name), subscribedTo(topic, 1L),
                Duration.ofSeconds(1));
        return client;
    }

    private static Map<String, String> topicsByMember(MemberList.Read read) {
        Map<String, String> byMember = new java.util.TreeMap<>();
        read.listing().entries().forEach(m -> byMember.put(m.id().value(),
                String.join(",", m.registration().subscription().topicStreams(java.util.List.of(), true).keySet())));
        return byMember;
    }

    @Test
    void aSteadyGroupIsListedWithoutReadingRegistrationsAgain() {
        String group = "ml" + GROUPS.incrementAndGet();
        join(group, "a", "t");
        join(group, "b", "t");
        join(group, "c", "t");
        MemberList list = ZkRegistry.of(zk.newClient()).members().memberList(group);
        AtomicInteger events = new AtomicInteger();

        MemberList.Read first = list.read(event -> events.incrementAndGet());
        MemberList.Read second = list.read(event -> events.incrementAndGet());

        assertThat(first.readNow()).isEqualTo(3);
        assertThat(second.readNow()).isZero();
        assertThat(second.listing()).as("an unchanged group's listing, handed out again").isSameAs(first.listing());
        assertThat(second.cversion()).isEqualTo(first.cversion());
        assertThat(events).hasValue(0);
    }

    @Test
    void joinsAndLeavesCostOnlyTheNewRegistrations() {
        String group = "ml" + GROUPS.incrementAndGet();
        join(group, "a", "t");
        CuratorFramework b = join(group, "b", "t");
        MemberList list = ZkRegistry.of(zk.newClient()).members().memberList(group);
        MemberList.Read before = list.read(event -> { });

        b.close();
        join(group, "c", "u");
        MemberList.Read read = list.read(event -> { });

        assertThat(read.readNow()).isEqualTo(1);
        assertThat(read.listing()).isNotSameAs(before.listing());
        assertThat(read.listing().entries().get(0)).as("a's member, kept from the read before")
                .isSameAs(before.listing().entries().get(0));
        assertThat(topicsByMember(read)).containsExactly(Map.entry(group + "_a", "t"), Map.entry(group + "_c", "u"));
    }

    @Test
    void aMemberThatLeftAndCameBackWithADifferentRegistrationIsReadAgain() {
        String group = "ml" + GROUPS.incrementAndGet();
        join(group, "a", "t");
        CuratorFramework b = join(group, "b", "t");
        MemberList list = ZkRegistry.of(zk.newClient()).members().memberList(group);
        list.read(event -> { });

        b.close();
        join(group, "b", "other"); // same name, new registration: the name set is unchanged, the cversion is not

        MemberList.Read read = list.read(event -> { });
        assertThat(read.readNow()).isEqualTo(2); // cannot tell which one changed: reads all
        assertThat(topicsByMember(read)).containsEntry(group + "_b", "other");
    }

    @Test
    void aRegistrationRewrittenInPlaceIsReadAgainAndTheCallerIsTold() throws Exception {
        String group = "ml" + GROUPS.incrementAndGet();
        CuratorFramework a = join(group, "a", "t");
        join(group, "b", "t");
        MemberList list = ZkRegistry.of(zk.newClient()).members().memberList(group);
        AtomicInteger events = new AtomicInteger();
        list.read(event -> events.incrementAndGet());

        ZkRegistry.of(a).members().update(group, ConsumerId.ofOverride(group, "a"), subscribedTo("rewritten", 2L));
        await().atMost(Duration.ofSeconds(5)).until(() -> events.get() > 0);

        MemberList.Read read = list.read(event -> { });
        assertThat(read.readNow()).isEqualTo(1);
        assertThat(topicsByMember(read)).containsEntry(group + "_a", "rewritten");
    }

    @Test
    void malformedRegistrationsAreReportedOnEveryReadAndGarbageFixedInPlaceIsSeen() throws Exception {
        String group = "ml" + GROUPS.incrementAndGet();
        join(group, "a", "t");
        CuratorFramework vandal = zk.newClient();
        vandal.create().withMode(CreateMode.EPHEMERAL).forPath("/consumers/" + group + "/ids/" + group + "_junk",
                "{not json".getBytes(StandardCharsets.UTF_8));
        MemberList list = ZkRegistry.of(zk.newClient()).members().memberList(group);
        AtomicInteger events = new AtomicInteger();

        MemberList.Read first = list.read(event -> events.incrementAndGet());
        MemberList.Read second = list.read(event -> events.incrementAndGet());
        assertThat(first.listing().unreadable()).singleElement()
                .satisfies(u -> assertThat(u.path()).isEqualTo("/consumers/" + group + "/ids/" + group + "_junk"));
        assertThat(second.listing()).isEqualTo(first.listing());

        vandal.setData().forPath("/consumers/" + group + "/ids/" + group + "_junk",
                io.zkgroups.registry.codec.MemberRegistrationCodec.encode(subscribedTo("fixed", 3L)));
        await().atMost(Duration.ofSeconds(5)).until(() -> events.get() > 0);
        MemberList.Read fixed = list.read(event -> { });
        assertThat(fixed.listing().unreadable()).isEmpty();
        assertThat(topicsByMember(fixed)).containsEntry(group + "_junk", "fixed");
    }

    @Test
    void withoutAWatcherNothingIsTrustedNextTime() {
        String group = "ml" + GROUPS.incrementAndGet();
        join(group, "a", "t");
        join(group, "b", "t");
        MemberList list = ZkRegistry.of(zk.newClient()).members().memberList(group);

        assertThat(list.read(null).readNow()).isEqualTo(2);
        assertThat(list.read(null).readNow()).isEqualTo(2);
    }

    @Test
    void aNewSessionReadsEverythingAgain() {
        String group = "ml" + GROUPS.incrementAndGet();
        join(group, "a", "t");
        join(group, "b", "t");
        CuratorFramework reader = zk.newClient();
        MemberList list = ZkRegistry.of(reader).members().memberList(group);
        list.read(event -> { });

        TestZooKeeper.expireSession(reader);
        await().atMost(Duration.ofSeconds(10)).ignoreExceptions()
                .until(() -> reader.getZookeeperClient().isConnected() && list.read(event -> { }).readNow() == 2);
    }

    @Test
    void aGroupWithoutIdsIsEmptyAndItsCreationIsWatched() {
        String group = "ml" + GROUPS.incrementAndGet();
        MemberList list = ZkRegistry.of(zk.newClient()).members().memberList(group);
        AtomicInteger events = new AtomicInteger();

        MemberList.Read none = list.read(event -> events.incrementAndGet());
        join(group, "a", "t");

        assertThat(none.listing().entries()).isEmpty();
        assertThat(none.cversion()).isEqualTo(-1);
        await().atMost(Duration.ofSeconds(5)).until(() -> events.get() > 0);
        assertThat(list.read(event -> { }).listing().entries()).extracting(m -> m.id().value()).containsExactly(group + "_a");
    }

    @Test
    void vouchesForARegistrationOnlyWhileItsWatchIsQuiet() throws Exception {
        String group = "ml" + GROUPS.incrementAndGet();
        CuratorFramework client = zk.newClient();
        ZkRegistry registry = ZkRegistry.of(client);
        ConsumerId me = ConsumerId.ofOverride(group, "me");
        registry.members().register(group, me, subscribedTo("t", 1L), Duration.ofSeconds(1));
        long session = registry.znodes().sessionId();
        MemberList list = registry.members().memberList(group);

        assertThat(list.vouchesFor(me, session)).as("nothing read yet").isFalse();
        list.read(null);
        assertThat(list.vouchesFor(me, session)).as("read without a watch").isFalse();
        list.read(event -> { });
        assertThat(list.vouchesFor(me, session)).isTrue();
        assertThat(list.vouchesFor(me, session + 1)).as("another session").isFalse();

        client.setData().forPath("/consumers/" + group + "/ids/" + me.value(),
                "{\"version\":1,\"subscription\":{\"t\":1},\"pattern\":\"static\",\"timestamp\":\"2\"}"
                        .getBytes(StandardCharsets.UTF_8));
        await().atMost(Duration.ofSeconds(5)).until(() -> !list.vouchesFor(me, session));
        list.read(event -> { });
        assertThat(list.vouchesFor(me, session)).as("read again").isTrue();
    }

    @Test
    void doesNotVouchForSomeoneElsesNodeUnderItsName() {
        String group = "ml" + GROUPS.incrementAndGet();
        join(group, "x", "t"); // another session's registration
        ZkRegistry registry = ZkRegistry.of(zk.newClient());
        MemberList list = registry.members().memberList(group);

        list.read(event -> { });

        assertThat(list.vouchesFor(ConsumerId.ofOverride(group, "x"), registry.znodes().sessionId())).isFalse();
    }

    /** Reads the list watching, and counts the events its watches deliver. */
    private static AtomicInteger readWatching(MemberList list) {
        AtomicInteger events = new AtomicInteger();
        list.read(event -> events.incrementAndGet());
        return events;
    }

    @Test
    void aLeaveHeardIsWhatTheNextReadReturns() {
        String group = "ml" + GROUPS.incrementAndGet();
        join(group, "a", "t");
        CuratorFramework b = join(group, "b", "t");
        join(group, "c", "u");
        MemberList list = ZkRegistry.of(zk.newClient()).members().memberList(group);
        AtomicInteger events = readWatching(list);
        assertThat(list.afterLeaveHeard()).isEmpty(); // nothing heard yet

        b.close();
        await().atMost(Duration.ofSeconds(5)).until(() -> events.get() == 2); // b's registration, then the listing
        MemberList.Read assumed = list.afterLeaveHeard().orElseThrow();
        MemberList.Read read = list.read(event -> { });

        assertThat(assumed.listing()).isEqualTo(read.listing());
        assertThat(topicsByMember(assumed)).containsOnlyKeys(group + "_a", group + "_c");
        assertThat(assumed.cversion()).isEqualTo(read.cversion());
        assertThat(assumed.readNow()).isZero();
        assertThat(list.afterLeaveHeard()).as("the read took in the leave").isEmpty();
    }

    @Test
    void aJoinBeforeTheLeaveIsNotAssumedAway() {
        String group = "ml" + GROUPS.incrementAndGet();
        join(group, "a", "t");
        CuratorFramework b = join(group, "b", "t");
        MemberList list = ZkRegistry.of(zk.newClient()).members().memberList(group);
        AtomicInteger events = readWatching(list);

        join(group, "d", "t"); // the listing's watch fires here, at the join's zxid
        await().atMost(Duration.ofSeconds(5)).until(() -> events.get() == 1);
        b.close();
        await().atMost(Duration.ofSeconds(5)).until(() -> events.get() == 2);

        assertThat(list.afterLeaveHeard()).isEmpty();
        assertThat(topicsByMember(list.read(event -> { }))).containsOnlyKeys(group + "_a", group + "_d");
    }

    @Test
    void twoLeavesOrARewrittenRegistrationAreNotAssumed() throws Exception {
        String group = "ml" + GROUPS.incrementAndGet();
        CuratorFramework a = join(group, "a", "t");
        CuratorFramework b = join(group, "b", "t");
        CuratorFramework c = join(group, "c", "t");
        join(group, "e", "t");
        MemberList list = ZkRegistry.of(zk.newClient()).members().memberList(group);
        AtomicInteger events = readWatching(list);

        b.close();
        c.close();
        await().atMost(Duration.ofSeconds(5)).until(() -> events.get() == 3); // two registrations, one listing event
        assertThat(list.afterLeaveHeard()).as("two leaves").isEmpty();

        AtomicInteger rewritten = readWatching(list);
        ZkRegistry.of(a).members().update(group, ConsumerId.ofOverride(group, "a"), subscribedTo("rewritten", 2L));
        await().atMost(Duration.ofSeconds(5)).until(() -> rewritten.get() == 1);
        assertThat(list.afterLeaveHeard()).as("a rewritten registration").isEmpty();
    }

    @Test
    void withoutWatchesNothingIsAssumed() {
        String group = "ml" + GROUPS.incrementAndGet();
        join(group, "a", "t");
        CuratorFramework b = join(group, "b", "t");
        MemberList list = ZkRegistry.of(zk.newClient()).members().memberList(group);
        list.read(null);

        b.close();
        await().atMost(Duration.ofSeconds(5)).until(() -> list.read(null).listing().entries().size() == 1);
        assertThat(list.afterLeaveHeard()).isEmpty();
    }
}
