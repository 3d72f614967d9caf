package io.zkgroups.it;

import io.zkgroups.it.support.LegacyConsumerProcess;
import io.zkgroups.rebalancer.assign.GroupSnapshot;
import io.zkgroups.rebalancer.assign.PartitionAssignor;
import io.zkgroups.rebalancer.assign.RangeAssignor;
import io.zkgroups.rebalancer.assign.RendezvousAssignor;
import io.zkgroups.rebalancer.assign.StickyAssignor;
import io.zkgroups.rebalancer.assign.StickyCapability;
import io.zkgroups.rebalancer.group.ZkGroupMember;
import io.zkgroups.rebalancer.group.GroupMemberConfig;
import io.zkgroups.rebalancer.group.MemberState;
import io.zkgroups.rebalancer.group.MembershipListener;
import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.BrokerInfo;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.Subscription;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.model.TopicRegistration;
import io.zkgroups.registry.store.Listing;
import io.zkgroups.registry.store.Member;
import io.zkgroups.registry.store.PartitionOwner;
import io.zkgroups.testing.ZooKeeperExtension;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Real kafka_2.10:0.8.2.2 consumers (child JVMs, no fetcher) and our {@link ZkGroupMember}s in one group, through
 * joins and leaves on both sides: a 0.8.2.2 consumer joining, leaving gracefully and being killed with SIGKILL
 * (its session must expire), ours joining and closing. After every change the group must converge to the
 * assignment 0.8.2.2 computes for the union of registered members, and at no moment may two live members
 * believe they own the same partition. A watcher thread samples that all the time: the owner znodes (a
 * 0.8.2.2 consumer believes it owns exactly what its owner znodes say: it claims before it fetches and deletes
 * after it stopped) and what our members report through {@code health().owned()}.
 */
@Timeout(150)
class MixedGroupInteropIT {

    private static final Duration CONVERGE = Duration.ofSeconds(45);
    /** Session of the 0.8.2.2 consumer that gets SIGKILLed: it leaves the group when this runs out. */
    private static final int KILLED_SESSION_MS = 1_500;

    @RegisterExtension
    static final ZooKeeperExtension zk = new ZooKeeperExtension();
    private static ZkRegistry observer;

    @BeforeAll
    static void registerAFakeBroker() {
        observer = ZkRegistry.of(zk.newClient());
        // 0.8.2.2 assigns nothing while /brokers/ids is empty; nothing listens on this port (no fetcher).
        observer.brokers().register(BrokerInfo.v1(0, "127.0.0.1", 9092, -1, System.currentTimeMillis()));
    }

    @Tag("older-zookeeper") // also run on ZooKeeper 3.4 and 3.5 (integration-tests/pom.xml)
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"range", "roundrobin"})
    void oldAndNewMembersShareAGroupThroughJoinsLeavesAndKillsWithoutDoubleOwnership(String strategy) throws Exception {
        try (MixedGroup group = new MixedGroup("mix-" + strategy, strategy)) {
            group.createTopic("a", 7);
            group.createTopic("b", 5);

            group.startLegacy("old1", 2, 6_000);
            group.startLegacy("old2", 1, KILLED_SESSION_MS);
            group.startOurs("new1", 1);
            group.startOurs("new2", 2);
            group.awaitLegacyReady();
            group.awaitConverged("2 old + 2 new started together");

            group.startOurs("new3", 1);
            group.awaitConverged("new3 joined");

            group.kill("old2");
            group.awaitConverged("old2 SIGKILLed, its session expired");

            group.startLegacy("old3", 1, 6_000);
            group.awaitLegacyReady();
            group.awaitConverged("old3 joined");

            group.closeOurs("new1");
            group.awaitConverged("new1 closed");

            group.shutdownLegacy("old1");
            group.awaitConverged("old1 shut down gracefully");

            group.stopWatching();
            System.out.printf("[%s] %d ownership samples, %d violations%n", group.group, group.samples.get(),
                    group.violations.size());
            assertThat(group.samples.get()).as("ownership samples taken").isGreaterThan(20);
            assertThat(group.violations).as("partitions two live members believed they owned at once").isEmpty();
        }
    }

    /**
     * Our members on the sticky strategy: alone they are assigned by rendezvous hashing and a join moves only a
     * few partitions, each revoked from and assigned to exactly the members it moves between; a real 0.8.2.2
     * consumer joining turns everyone to range exactly, and when it leaves the group is sticky again. The watcher
     * checks that no partition is believed owned twice at any moment; every stable point has every partition owned.
     */
    @Test
    void aStickyGroupIsRangeExactlyWhileA082MemberIsInItAndStickyAgainWhenItLeaves() throws Exception {
        try (MixedGroup group = new MixedGroup("mix-sticky", PartitionAssignor.STICKY)) {
            group.createTopic("a", 40);
            group.createTopic("b", 12);
            group.startOurs("new1", 1);
            group.startOurs("new2", 2);
            group.startOurs("new3", 1);
            group.startOurs("new4", 1);
            group.awaitConverged("4 sticky members started together");
            assertThat(group.inEffect()).isInstanceOf(RendezvousAssignor.class);

            Map<TopicAndPartition, String> before = group.ownerZnodes();
            Map<TopicAndPartition, ThreadId> rangeBefore = group.rangeOfRegistered();
            group.callbacks.clear();
            group.startOurs("new5", 1);
            group.awaitConverged("new5 joined");
            Map<TopicAndPartition, String> after = group.ownerZnodes();
            Set<TopicAndPartition> moved = new TreeSet<>();
            before.forEach((tp, owner) -> {
                if (!owner.equals(after.get(tp))) {
                    moved.add(tp);
                }
            });
            int rangeMoved = 0;
            Map<TopicAndPartition, ThreadId> rangeAfter = group.rangeOfRegistered();
            for (Map.Entry<TopicAndPartition, ThreadId> row : rangeBefore.entrySet()) {
                rangeMoved += row.getValue().equals(rangeAfter.get(row.getKey())) ? 0 : 1;
            }
            System.out.printf("[mix-sticky] new5 joined 6 threads: %d of 52 partitions moved (range: %d)%n",
                    moved.size(), rangeMoved);
            // 52 partitions over 7 threads: the joiner's share is 7 or 8; three times that is the bound of the
            // assignor's property tests
            assertThat(moved).as("moved partitions").hasSizeLessThanOrEqualTo(3 * 8);
            assertThat(moved.size()).as("moved partitions vs range's").isLessThan(rangeMoved);
            group.assertCallbacksNamedOnlyWhatMoved(before, after);

            group.startLegacy("old1", 1, 6_000);
            group.awaitLegacyReady();
            group.awaitConverged("a 0.8.2.2 member joined");
            assertThat(group.inEffect()).isInstanceOf(RangeAssignor.class);
            assertThat(group.ownerZnodes()).as("owner znodes are 0.8.2.2's range assignment")
                    .isEqualTo(text(group.rangeOfRegistered()));

            group.shutdownLegacy("old1");
            group.awaitConverged("the 0.8.2.2 member left");
            assertThat(group.inEffect()).isInstanceOf(RendezvousAssignor.class);
            assertThat(group.ownerZnodes()).isEqualTo(after);

            group.stopWatching();
            assertThat(group.samples.get()).as("ownership samples taken").isGreaterThan(20);
            assertThat(group.violations).as("partitions two live members believed they owned at once").isEmpty();
        }
    }

    private static Map<TopicAndPartition, String> text(Map<TopicAndPartition, ThreadId> owners) {
        Map<TopicAndPartition, String> text = new TreeMap<>();
        owners.forEach((tp, thread) -> text.put(tp, thread.toString()));
        return text;
    }

    /** One mixed group: its members, the convergence check and the double-ownership watcher. */
    private static final class MixedGroup implements AutoCloseable {
        private final String group;
        /** What the 0.8.2.2 members use: sticky is zkgroups' own, which falls back to range. */
        private final String legacyStrategy;
        private final PartitionAssignor assignor;
        /** Every listener call of our members, in order: "member revoked|assigned [partitions]". */
        final List<String> callbacks = Collections.synchronizedList(new ArrayList<>());
        private final String strategy;
        private final Map<String, Integer> partitions = new TreeMap<>();
        private final Map<String, LegacyConsumerProcess> legacy = new ConcurrentHashMap<>();
        private final Map<String, ZkGroupMember> ours = new ConcurrentHashMap<>();
        private final Map<String, CuratorFramework> clients = new ConcurrentHashMap<>();
        /** Consumer ids of the members alive now (a killed one is removed before the kill). */
        private final Set<String> live = ConcurrentHashMap.newKeySet();
        private final List<LegacyConsumerProcess> notReady = Collections.synchronizedList(new ArrayList<>());
        final List<String> violations = Collections.synchronizedList(new ArrayList<>());
        final AtomicLong samples = new AtomicLong();
        private final ScheduledExecutorService watcher = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "double-ownership-watcher");
            t.setDaemon(true);
            return t;
        });
        private volatile long changeStarted = System.nanoTime();
        /** The change in progress, for the violation messages. */
        private volatile String change = "start";

        MixedGroup(String group, String strategy) {
            this.group = group;
            this.strategy = strategy;
            this.legacyStrategy = strategy.equals(PartitionAssignor.STICKY) ? PartitionAssignor.RANGE : strategy;
            this.assignor = PartitionAssignor.forStrategy(strategy);
            watcher.scheduleWithFixedDelay(this::sample, 0, 2, TimeUnit.MILLISECONDS);
        }

        void createTopic(String name, int count) {
            String topic = group + "-" + name;
            observer.topics().create(topic, TopicRegistration.v1(count, List.of(0)));
            partitions.put(topic, count);
        }

        private Map<String, Integer> subscription(int streams) {
            Map<String, Integer> topics = new LinkedHashMap<>();
            partitions.keySet().forEach(t -> topics.put(t, streams));
            return topics;
        }

        void startLegacy(String name, int streams, int sessionTimeoutMs) {
            changeStarted = System.nanoTime();
            LegacyConsumerProcess.Builder builder = LegacyConsumerProcess.builder(group + "-" + name)
                    .zookeeperConnect(zk.connectString())
                    .groupId(group)
                    .consumerId(name)
                    .property("partition.assignment.strategy", legacyStrategy)
                    .property("zookeeper.session.timeout.ms", Integer.toString(sessionTimeoutMs))
                    // claims collide while the group changes: retry fast, and long enough to outlast a dead
                    // member's session (0.8.2.2's 2 s x 4 does not)
                    .property("rebalance.backoff.ms", "250")
                    .property("rebalance.max.retries", "40")
                    .property("auto.commit.enable", "false")
                    .noFetcher();
            subscription(streams).forEach(builder::topic);
            LegacyConsumerProcess process = builder.start();
            legacy.put(group + "_" + name, process);
            live.add(group + "_" + name);
            notReady.add(process);
        }

        void awaitLegacyReady() {
            for (LegacyConsumerProcess process : List.copyOf(notReady)) {
                process.awaitReady(LegacyConsumerProcess.DEFAULT_TIMEOUT);
                notReady.remove(process);
            }
        }

        void startOurs(String name, int streams) {
            changeStarted = System.nanoTime();
            ConsumerId id = ConsumerId.ofOverride(group, name);
            CuratorFramework client = zk.newClient(4_000);
            ZkGroupMember member = ZkGroupMember.onZooKeeper(client, ZkLayout.root(),
                    GroupMemberConfig.of(group, id, Subscription.topics(subscription(streams))).withAssignmentStrategy(strategy),
                    recorder(id.value()));
            clients.put(id.value(), client);
            ours.put(id.value(), member);
            live.add(id.value());
            member.start();
        }

        void closeOurs(String name) {
            changeStarted = System.nanoTime();
            String id = group + "_" + name;
            ours.get(id).close();
            live.remove(id);
            ours.remove(id);
            clients.remove(id).close();
        }

        void kill(String name) {
            changeStarted = System.nanoTime();
            String id = group + "_" + name;
            live.remove(id); // a dead member believes nothing; its owner znodes stay until its session expires
            assertThat(legacy.remove(id).kill()).as("exit code after SIGKILL").isEqualTo(137);
        }

        void shutdownLegacy(String name) {
            changeStarted = System.nanoTime();
            String id = group + "_" + name;
            LegacyConsumerProcess process = legacy.get(id);
            assertThat(process.shutdown()).isZero();
            live.remove(id);
            legacy.remove(id);
        }

        /**
         * Waits until the registered members are exactly the live ones, the owner znodes are exactly what the
         * assignor computes for them (every partition owned), and each of our members is stable and owns its rows.
         */
        void awaitConverged(String step) {
            await(step).atMost(CONVERGE).pollInterval(Duration.ofMillis(20)).untilAsserted(() -> {
                Listing<Member> registered = observer.members().list(group);
                assertThat(registered.unreadable()).isEmpty();
                assertThat(registered.entries()).extracting(m -> m.id().value())
                        .containsExactlyInAnyOrderElementsOf(live);
                Map<TopicAndPartition, ThreadId> expected = expected(registered.entries());
                assertThat(expected).as("the assignment covers every partition")
                        .hasSize(partitions.values().stream().mapToInt(Integer::intValue).sum());
                Map<TopicAndPartition, String> expectedText = new TreeMap<>();
                expected.forEach((tp, thread) -> expectedText.put(tp, thread.toString()));
                assertThat(ownerZnodes()).as("owner znodes").isEqualTo(expectedText);
                ours.forEach((id, member) -> {
                    Set<TopicAndPartition> rows = new TreeSet<>();
                    expected.forEach((tp, thread) -> {
                        if (thread.consumer().value().equals(id)) {
                            rows.add(tp);
                        }
                    });
                    assertThat(member.health().state()).as(id + " " + member.health()).isEqualTo(MemberState.STABLE);
                    assertThat(member.owned()).as("owned by " + id).isEqualTo(rows);
                });
            });
            legacy.values().forEach(p -> assertThat(p.isAlive()).as(p + " is alive").isTrue());
            System.out.printf("[%s] converged after '%s' in %d ms%n", group, step,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - changeStarted));
            change = "after " + step;
        }

        /** The strategy's assignment for the registered members (0.8.2.2's, unless every one advertises sticky). */
        private Map<TopicAndPartition, ThreadId> expected(List<Member> registered) {
            return assignor.assign(snapshot(registered)).owners();
        }

        private GroupSnapshot snapshot(List<Member> registered) {
            List<String> topics = observer.topics().topics();
            Map<ConsumerId, Map<String, Integer>> subscriptions = new TreeMap<>();
            Set<ConsumerId> sticky = new TreeSet<>();
            for (Member m : registered) {
                subscriptions.put(m.id(), m.registration().subscription().topicStreams(topics, true));
                if (StickyCapability.advertisedBy(m.registration().capabilities())) {
                    sticky.add(m.id());
                }
            }
            return new GroupSnapshot(subscriptions, partitions, sticky);
        }

        /** The assignor the strategy uses for the members registered now. */
        PartitionAssignor inEffect() {
            return ((StickyAssignor) assignor).inEffect(snapshot(observer.members().list(group).entries()));
        }

        /** 0.8.2.2's range assignment of the members registered now. */
        Map<TopicAndPartition, ThreadId> rangeOfRegistered() {
            return new RangeAssignor().assign(snapshot(observer.members().list(group).entries())).owners();
        }

        private MembershipListener recorder(String id) {
            return new MembershipListener() {
                @Override
                public void onRevoked(Set<TopicAndPartition> partitions) {
                    callbacks.add(id + " revoked " + new TreeSet<>(partitions));
                }

                @Override
                public void onLost(Set<TopicAndPartition> partitions) {
                    callbacks.add(id + " lost " + new TreeSet<>(partitions));
                }

                @Override
                public void onAssigned(java.util.SortedMap<TopicAndPartition, io.zkgroups.rebalancer.group.OwnershipFence.Grant> grants) {
                    callbacks.add(id + " assigned " + new TreeSet<>(grants.keySet()));
                }
            };
        }

        /**
         * Between {@code before} and {@code after} (owner znodes of two stable points, {@link #callbacks} cleared
         * at the first) each of our members was told exactly of what it lost (revoked) and gained (assigned), in
         * at most one call each, and a member whose partitions stayed heard nothing.
         */
        void assertCallbacksNamedOnlyWhatMoved(Map<TopicAndPartition, String> before, Map<TopicAndPartition, String> after) {
            List<String> expectedCalls = new ArrayList<>();
            for (String id : new TreeSet<>(ours.keySet())) {
                Set<TopicAndPartition> lost = new TreeSet<>();
                Set<TopicAndPartition> gained = new TreeSet<>();
                before.forEach((tp, owner) -> {
                    if (owner.startsWith(id + "-") && !owner.equals(after.get(tp))) {
                        lost.add(tp);
                    }
                });
                after.forEach((tp, owner) -> {
                    if (owner.startsWith(id + "-") && !owner.equals(before.get(tp))) {
                        gained.add(tp);
                    }
                });
                if (!lost.isEmpty()) {
                    expectedCalls.add(id + " revoked " + lost);
                }
                if (!gained.isEmpty()) {
                    expectedCalls.add(id + " assigned " + gained);
                }
            }
            assertThat(callbacks).as("listener calls of our members")
                    .containsExactlyInAnyOrderElementsOf(expectedCalls);
        }

        private Map<TopicAndPartition, String> ownerZnodes() {
            Map<TopicAndPartition, String> owners = new TreeMap<>();
            for (PartitionOwner owner : observer.owners().owners(group).entries()) {
                owners.put(owner.partition(), owner.value());
            }
            return owners;
        }

        /**
         * One look at who believes they own what. Our members count as owners of what their health reports both
         * before and after the owner znodes were read (so a hand-over during the read is not mistaken for an
         * overlap); the member named in an owner znode counts as its owner while it is alive.
         */
        private void sample() {
            try {
                Map<String, Set<TopicAndPartition>> before = ownedByOurs();
                List<PartitionOwner> owners = observer.owners().owners(group).entries();
                Map<String, Set<TopicAndPartition>> after = ownedByOurs();
                Set<String> alive = Set.copyOf(live);
                Map<TopicAndPartition, Set<String>> believers = new TreeMap<>();
                before.forEach((id, owned) -> {
                    if (after.containsKey(id)) {
                        for (TopicAndPartition tp : owned) {
                            if (after.get(id).contains(tp)) {
                                believers.computeIfAbsent(tp, k -> new TreeSet<>()).add(id);
                            }
                        }
                    }
                });
                for (PartitionOwner owner : owners) {
                    owner.thread().map(t -> t.consumer().value()).filter(alive::contains)
                            .ifPresent(id -> believers.computeIfAbsent(owner.partition(), k -> new TreeSet<>()).add(id));
                }
                believers.forEach((tp, who) -> {
                    if (who.size() > 1) {
                        violations.add("during '" + change + "': " + tp + " believed owned by " + who
                                + " (owner znodes: " + owners + ")");
                    }
                });
                samples.incrementAndGet();
            } catch (RuntimeException e) {
                // ZooKeeper hiccup while reading: the next sample looks again
            }
        }

        private Map<String, Set<TopicAndPartition>> ownedByOurs() {
            Map<String, Set<TopicAndPartition>> owned = new TreeMap<>();
            ours.forEach((id, member) -> {
                if (live.contains(id)) {
                    owned.put(id, member.owned());
                }
            });
            return owned;
        }

        void stopWatching() throws InterruptedException {
            watcher.shutdown();
            assertThat(watcher.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }

        @Override
        public void close() {
            watcher.shutdownNow();
            ours.values().forEach(ZkGroupMember::close);
            clients.values().forEach(CuratorFramework::close);
            legacy.values().forEach(LegacyConsumerProcess::close);
        }
    }
}
