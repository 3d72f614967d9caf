package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.Subscription;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.testing.ZooKeeperExtension;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@Timeout(180)
class ZkGroupMemberIT {

    private static final AtomicInteger GROUPS = new AtomicInteger();
    @RegisterExtension
    static final ZooKeeperExtension zk = new ZooKeeperExtension();

    private static TestGroup group(String strategy) {
        return new TestGroup(zk.server(), "gm" + GROUPS.incrementAndGet(), strategy, 2_000);
    }

    private static Subscription topics(String prefix, int count, int streams) {
        Map<String, Integer> map = new LinkedHashMap<>();
        for (int t = 0; t < count; t++) {
            map.put(prefix + t, streams);
        }
        return Subscription.topics(map);
    }

    @ParameterizedTest(name = "{0} members x {1} topics ({2})")
    @CsvSource({"1, 1, range", "3, 3, range", "3, 2, roundrobin", "20, 5, range", "20, 5, roundrobin"})
    void membersConvergeToTheAssignorsResult(int memberCount, int topicCount, String strategy) {
        try (TestGroup group = group(strategy)) {
            String prefix = group.group + "-t";
            for (int t = 0; t < topicCount; t++) {
                group.createTopic(prefix + t, 3 + 7 * t);
            }
            List<CompletableFuture<ZkGroupMember>> starting = new ArrayList<>();
            for (int i = 0; i < memberCount; i++) {
                int n = i;
                starting.add(CompletableFuture.supplyAsync(() -> group.start("m" + n, topics(prefix, topicCount, 1 + n % 2 * (strategy.equals("range") ? 1 : 0)))));
            }
            starting.forEach(CompletableFuture::join);
            group.awaitConverged();
        }
    }

    @Test
    void joinsLeavesSessionExpiryAndNewPartitionsReconverge() {
        try (TestGroup group = group("range")) {
            group.createTopic("life-a", 6);
            group.createTopic("life-b", 4);
            Subscription both = Subscription.topics(Map.of("life-a", 1, "life-b", 2));
            ZkGroupMember first = group.start("a", both);
            group.start("b", both);
            group.awaitConverged();

            ZkGroupMember third = group.start("c", both);
            group.awaitConverged();
            assertThat(third.health().lastCauses()).isNotEmpty();

            group.stop(first);
            group.awaitConverged();

            long generationBefore = third.health().generation();
            group.expire(third);
            await().atMost(Duration.ofSeconds(20)).until(() -> third.health().generation() > generationBefore);
            group.awaitConverged();
            assertThat(third.health().lastCauses()).anySatisfy(c -> assertThat(c).isInstanceOf(RebalanceCause.SessionExpired.class));

            group.observer.topics().addPartitions("life-a", 9, List.of(0));
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                    assertThat(group.ownerZnodes()).containsKey(TopicAndPartition.of("life-a", 8)));
            group.awaitConverged();
            assertThat(third.health().lastCauses()).contains(new RebalanceCause.PartitionsChanged("life-a", 6, 9));
        }
    }

    @Test
    void aWhitelistMemberPicksUpANewlyCreatedMatchingTopic() {
        try (TestGroup group = group("range")) {
            group.createTopic("wl-one", 2);
            group.createTopic("other", 2);
            ZkGroupMember member = group.start("w", Subscription.whitelist("wl-.*", 1));
            group.awaitConverged();
            assertThat(member.owned()).extracting(TopicAndPartition::topic).containsOnly("wl-one");

            group.createTopic("wl-two", 3);

            await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                    assertThat(member.owned()).contains(TopicAndPartition.of("wl-two", 2)));
            group.awaitConverged();
            assertThat(member.health().lastCauses()).contains(new RebalanceCause.TopicCreated("wl-two"));
        }
    }

    @Test
    void aMalformedMemberIsReportedAndLeftOutWhileTheGroupKeepsWorking() throws Exception {
        try (TestGroup group = group("range")) {
            group.createTopic("mal", 4);
            CuratorFramework vandal = zk.newClient();
            vandal.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL)
                    .forPath("/consumers/" + group.group + "/ids/" + group.group + "_garbage", "{not json".getBytes(StandardCharsets.UTF_8));
            ZkGroupMember a = group.start("a", Subscription.topics(Map.of("mal", 1)));
            ZkGroupMember b = group.start("b", Subscription.topics(Map.of("mal", 1)));

            group.awaitConverged();

            assertThat(a.owned()).hasSize(2);
            assertThat(b.owned()).hasSize(2);
            assertThat(a.health().malformedMembers()).singleElement()
                    .satisfies(u -> assertThat(u.path()).endsWith("/ids/" + group.group + "_garbage"));
        }
    }

    @Test
    void aMemberWhoseRegistrationIsDeletedRegistersAgain() throws Exception {
        try (TestGroup group = group("range")) {
            group.createTopic("gone", 4);
            Subscription sub = Subscription.topics(Map.of("gone", 1));
            ZkGroupMember a = group.start("a", sub);
            group.start("b", sub);
            group.awaitConverged();
            CuratorFramework vandal = zk.newClient();
            String registration = "/consumers/" + group.group + "/ids/" + a.consumerId().value();
            long deleted = vandal.checkExists().forPath(registration).getCzxid();

            vandal.delete().forPath(registration);

            await().atMost(Duration.ofSeconds(30)).until(() -> {
                org.apache.zookeeper.data.Stat now = vandal.checkExists().forPath(registration);
                return now != null && now.getCzxid() != deleted;
            });
            group.awaitConverged();
        }
    }

    @Test
    void aMemberBeyondTheGroupSizeCapIsRefusedWithoutDisturbingTheGroup() {
        try (TestGroup group = group("range")) {
            group.createTopic("cap", 4);
            Subscription sub = Subscription.topics(Map.of("cap", 1));
            ZkGroupMember a = group.start("a", sub, c -> c.withMaxGroupSize(2));
            ZkGroupMember b = group.start("b", sub, c -> c.withMaxGroupSize(2));
            group.awaitConverged();
            long generationA = a.health().generation();

            ZkGroupMember extra = group.create("c", sub, c -> c.withMaxGroupSize(2));
            group.members.remove(extra.consumerId());
            extra.start();

            await().atMost(Duration.ofSeconds(10)).until(() -> extra.health().state() == MemberState.REFUSED);
            assertThat(extra.health().lastError()).get().asString().contains("is full").contains("at most 2");
            assertThat(extra.owned()).isEmpty();
            assertThat(group.observer.members().ids(group.group, null)).hasSize(2);
            assertThat(a.health().generation()).isEqualTo(generationA);
            extra.close();
            group.awaitConverged();
            assertThat(b.owned()).hasSize(2);
        }
    }

    @Test
    void simultaneousJoinersBeyondTheCapAreRefusedByRegistrationOrder() {
        try (TestGroup group = group("range")) {
            group.createTopic("burst", 6);
            Subscription sub = Subscription.topics(Map.of("burst", 1));
            List<ZkGroupMember> all = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                all.add(group.create("m" + i, sub, c -> c.withMaxGroupSize(3)));
            }
            all.parallelStream().forEach(ZkGroupMember::start);

            await().atMost(Duration.ofSeconds(30)).until(() -> all.stream().allMatch(m ->
                    m.health().state() == MemberState.STABLE || m.health().state() == MemberState.REFUSED));
            List<ZkGroupMember> refused = all.stream().filter(m -> m.health().state() == MemberState.REFUSED).toList();
            assertThat(refused).hasSize(2);
            refused.forEach(m -> group.members.remove(m.consumerId()));
            group.awaitConverged();
            assertThat(group.observer.members().ids(group.group, null)).hasSize(3);
        }
    }

    @Test
    void aRoundRobinMemberWithAnIncompatibleSubscriptionIsRefusedBeforeJoining() {
        try (TestGroup group = group("roundrobin")) {
            group.createTopic("rr-a", 3);
            group.createTopic("rr-b", 3);
            ZkGroupMember a = group.start("a", Subscription.topics(Map.of("rr-a", 1, "rr-b", 1)));
            group.awaitConverged();

            ZkGroupMember odd = group.create("odd", Subscription.topics(Map.of("rr-a", 1)), c -> c);
            group.members.remove(odd.consumerId());
            odd.start();

            await().atMost(Duration.ofSeconds(10)).until(() -> odd.health().state() == MemberState.REFUSED);
            assertThat(odd.health().lastError()).get().asString().contains("roundrobin").contains("odd");
            assertThat(group.observer.members().ids(group.group, null)).containsExactly(a.consumerId());
            odd.close();
            group.awaitConverged();
        }
    }

    @Test
    void aClaimBlockedByAnUnregisteredOwnerWaitsForItsSessionThenClaimsAtOnce() throws Exception {
        try (TestGroup group = group("range")) {
            group.createTopic("held", 2);
            CuratorFramework squatter = zk.newClient(2_000);
            squatter.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL)
                    .forPath("/consumers/" + group.group + "/owners/held/1", (group.group + "_ghost-0").getBytes(StandardCharsets.UTF_8));
            ZkGroupMember member = group.start("m", Subscription.topics(Map.of("held", 1)));

            await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2))
                    .until(() -> member.health().state() != MemberState.STABLE);
            assertThat(member.health().lastError()).get().asString().contains("[held,1]").contains("ghost");

            squatter.close(); // its session ends; the owner znode goes with it

            await().atMost(Duration.ofSeconds(5)).until(() -> member.health().state() == MemberState.STABLE);
            group.awaitConverged();
        }
    }

    /**
     * Owner znodes of the member's own session that it does not know of (a claim applied after its attempt gave up on
     * it, a member before this one on the same client) would hold their partitions for as long as the session lives.
     */
    @Test
    void ownerZnodesOfItsOwnSessionThatTheMemberDoesNotTrackAreReleased() throws Exception {
        try (TestGroup group = group("range")) {
            group.createTopic("leftover", 2);
            Subscription leftover = Subscription.topics(Map.of("leftover", 1));
            ZkGroupMember a = group.create("a", leftover, c -> c);
            group.clients.get(a.consumerId()).create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL)
                    .forPath("/consumers/" + group.group + "/owners/leftover/1", (group.group + "_a-0").getBytes(StandardCharsets.UTF_8));
            a.start();
            group.start("b", leftover); // range: a gets partition 0, b partition 1 — held by a's session
            group.awaitConverged();
        }
    }

    /** An {@link Error} thrown inside an attempt (an allocation too large, say) is a failed attempt, retried. */
    @Test
    void anErrorInsideARebalanceAttemptIsRetriedLikeAnyFailure() {
        try (TestGroup group = group("range")) {
            group.createTopic("fragile", 2);
            ConsumerId id = ConsumerId.ofOverride(group.group, "m");
            CuratorFramework client = zk.newClient(2_000);
            TopicMetadata zkMetadata = new ZkTopicMetadata(io.zkgroups.registry.ZkRegistry.of(client).topics());
            AtomicInteger reads = new AtomicInteger();
            TopicMetadata failingOnce = new TopicMetadata() {
                @Override
                public Map<String, Integer> partitionCounts(java.util.Collection<String> topics, Runnable onChange) {
                    if (reads.incrementAndGet() == 1) {
                        throw new OutOfMemoryError("Requested array size exceeds VM limit (thrown by the test)");
                    }
                    return zkMetadata.partitionCounts(topics, onChange);
                }

                @Override
                public List<String> topics(Runnable onChange) {
                    return zkMetadata.topics(onChange);
                }
            };
            ZkGroupMember member = new ZkGroupMember(client, io.zkgroups.registry.ZkLayout.root(),
                    GroupMemberConfig.of(group.group, id, Subscription.topics(Map.of("fragile", 1))), failingOnce,
                    group.tracker.listenerFor(id, () -> TestGroup.sessionOf(client)));
            group.members.put(id, member);
            group.clients.put(id, client);
            member.start();
            group.awaitConverged();
            assertThat(reads.get()).isGreaterThan(1);
        }
    }

    @Test
    void closeDuringABlockedRebalanceReturnsPromptly() throws Exception {
        try (TestGroup group = group("range")) {
            group.createTopic("stuck", 1);
            CuratorFramework squatter = zk.newClient();
            squatter.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL)
                    .forPath("/consumers/" + group.group + "/owners/stuck/0", "someone-0".getBytes(StandardCharsets.UTF_8));
            ZkGroupMember member = group.start("m", Subscription.topics(Map.of("stuck", 1)));
            await().atMost(Duration.ofSeconds(5)).until(() -> member.health().lastError().isPresent());

            long start = System.nanoTime();
            member.close();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
            assertThat(member.health().state()).isEqualTo(MemberState.CLOSED);
            assertThat(group.observer.members().ids(group.group, null)).isEmpty();
            group.members.remove(member.consumerId());
        }
    }

    @Test
    void gracefulLeaveCommitsBeforeReleasing() {
        try (TestGroup group = group("range")) {
            group.createTopic("order", 2);
            List<String> events = java.util.Collections.synchronizedList(new ArrayList<>());
            ConsumerId id = ConsumerId.ofOverride(group.group, "solo");
            CuratorFramework client = zk.newClient();
            ZkGroupMember member = ZkGroupMember.onZooKeeper(client, io.zkgroups.registry.ZkLayout.root(),
                    GroupMemberConfig.of(group.group, id, Subscription.topics(Map.of("order", 1))),
                    new MembershipListener() {
                        @Override
                        public void onRevoked(java.util.Set<TopicAndPartition> partitions) {
                            // the owner znodes must still be ours while we commit
                            events.add("revoked with owners " + group.ownerZnodes().size());
                        }

                        @Override
                        public void onLost(java.util.Set<TopicAndPartition> partitions) {
                            events.add("lost");
                        }

                        @Override
                        public void onAssigned(java.util.SortedMap<TopicAndPartition, OwnershipFence.Grant> grants) {
                            events.add("assigned " + grants.size());
                        }
                    });
            member.start();
            await().atMost(Duration.ofSeconds(10)).until(() -> member.health().isStable());
            member.close();
            assertThat(events).containsExactly("assigned 2", "revoked with owners 2");
            assertThat(group.ownerZnodes()).isEmpty();
        }
    }

    @Test
    void aJoinWalksTheAttemptPhasesInOrderAndAHandOverWaitsOnlyInAwaitingOwners() {
        try (TestGroup group = group("range")) {
            group.createTopic("phases", 4);
            Subscription one = Subscription.topics(Map.of("phases", 1));
            List<String> firstMoves = new java.util.concurrent.CopyOnWriteArrayList<>();
            List<String> secondMoves = new java.util.concurrent.CopyOnWriteArrayList<>();
            ZkGroupMember first = group.create("a", one, c -> c);
            first.addPhaseListener((from, to) -> firstMoves.add(from + "->" + to));
            first.start();
            group.awaitConverged();
            await().atMost(Duration.ofSeconds(10)).until(() -> first.phase() == MemberPhase.STABLE);
            assertThat(upToFirstStable(firstMoves)).containsExactly("LATENT->JOINING", "JOINING->READING",
                    "READING->REVOKING", "REVOKING->CLAIMING", "CLAIMING->STABLE");

            firstMoves.clear();
            ZkGroupMember second = group.create("b", one, c -> c);
            second.addPhaseListener((from, to) -> secondMoves.add(from + "->" + to));
            second.start();
            group.awaitConverged();
            await().atMost(Duration.ofSeconds(10)).until(() -> first.phase() == MemberPhase.STABLE
                    && second.phase() == MemberPhase.STABLE);
            assertThat(firstMoves).as("the member that gives partitions away")
                    .containsSubsequence("STABLE->READING", "READING->REVOKING", "REVOKING->CLAIMING", "CLAIMING->STABLE");
            List<String> joined = upToFirstStable(secondMoves);
            assertThat(joined).as("the member that joins").startsWith("LATENT->JOINING", "JOINING->READING",
                    "READING->REVOKING", "REVOKING->CLAIMING").endsWith("CLAIMING->STABLE");
            assertThat(joined.subList(4, joined.size() - 1)).as("between its claims it only awaits previous owners")
                    .allMatch(move -> move.equals("CLAIMING->AWAITING_OWNERS") || move.equals("AWAITING_OWNERS->CLAIMING"));

            firstMoves.clear();
            group.stop(first);
            assertThat(firstMoves).containsExactly("STABLE->LEAVING", "LEAVING->CLOSED");
        }
    }

    private static List<String> upToFirstStable(List<String> moves) {
        List<String> walked = new ArrayList<>();
        for (String move : moves) {
            walked.add(move);
            if (move.endsWith("->STABLE")) {
                break;
            }
        }
        return walked;
    }

    @Test
    void healthListenersSeeEveryChangeInOrderAndOnlyChanges() {
        try (TestGroup group = group("range")) {
            group.createTopic("watched", 4);
            List<MemberHealth> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
            ZkGroupMember first = group.create("a", Subscription.topics(Map.of("watched", 1)), c -> c);
            first.addHealthListener(seen::add);
            first.start();
            group.awaitConverged();
            ZkGroupMember second = group.start("b", Subscription.topics(Map.of("watched", 1)));
            group.awaitConverged();

            await().atMost(Duration.ofSeconds(5)).until(() -> !seen.isEmpty() && seen.get(seen.size() - 1).equals(first.health()));
            for (int i = 1; i < seen.size(); i++) {
                assertThat(seen.get(i)).as("value %d repeats the one before", i).isNotEqualTo(seen.get(i - 1));
                assertThat(seen.get(i).generation()).isGreaterThanOrEqualTo(seen.get(i - 1).generation());
            }
            assertThat(seen).extracting(MemberHealth::state).contains(MemberState.REBALANCING);
            MemberHealth last = seen.get(seen.size() - 1);
            assertThat(last.isStable()).isTrue();
            assertThat(last.owned()).hasSize(2).doesNotContainAnyElementsOf(second.owned());

            group.stop(first);
            assertThat(seen.get(seen.size() - 1).state()).isEqualTo(MemberState.CLOSED);
            assertThat(seen.get(seen.size() - 1).owned()).isEmpty();
        }
    }

    @Test
    void aLeaveAndAJoinAtTheSameMomentConverge() {
        try (TestGroup group = group("range")) {
            group.createTopic("swap", 12);
            Subscription one = Subscription.topics(Map.of("swap", 1));
            ZkGroupMember leaving = group.start("a", one);
            group.start("b", one);
            group.start("c", one);
            group.awaitConverged();

            for (int round = 0; round < 3; round++) {
                ZkGroupMember joining = group.create("n" + round, one, c -> c);
                CompletableFuture<Void> leave = CompletableFuture.runAsync(() -> group.stop(members(group).get(0)));
                joining.start();
                leave.join();
                group.awaitConverged();
            }
            assertThat(leaving.health().state()).isEqualTo(MemberState.CLOSED);
        }
    }

    @Test
    void leavesOneAfterAnotherEachReconverge() {
        try (TestGroup group = group("roundrobin")) {
            group.createTopic("drain", 10);
            Subscription one = Subscription.topics(Map.of("drain", 1));
            for (int i = 0; i < 5; i++) {
                group.start("m" + i, one);
            }
            group.awaitConverged();
            while (group.members.size() > 1) {
                group.stop(members(group).get(0));
                group.awaitConverged();
            }
        }
    }

    @Test
    void aLeaveAndAJoinInOneTransactionAreBothSeen() throws Exception {
        // A member's leave is acted on before the group is read again (MemberList.afterLeaveHeard); the read that
        // follows must still find a registration created in the same transaction as the deletion.
        try (TestGroup group = group("range")) {
            group.createTopic("multi", 12);
            Subscription one = Subscription.topics(Map.of("multi", 1));
            CuratorFramework outsider = zk.newClient();
            String x = io.zkgroups.registry.ZkLayout.root().member(group.group, ConsumerId.ofOverride(group.group, "x"));
            String y = io.zkgroups.registry.ZkLayout.root().member(group.group, ConsumerId.ofOverride(group.group, "y"));
            byte[] registration = io.zkgroups.registry.codec.MemberRegistrationCodec.encode(
                    io.zkgroups.registry.model.MemberRegistration.of(one, 1L));
            outsider.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(x, registration);
            ZkGroupMember a = group.start("a", one);
            ZkGroupMember b = group.start("b", one);
            awaitOwnRows(group, a, b); // x's rows (8-11) stay unowned: nobody runs x

            outsider.transaction().forOperations(outsider.transactionOp().delete().forPath(x),
                    outsider.transactionOp().create().withMode(CreateMode.EPHEMERAL).forPath(y, registration));

            // without the read after the leave, a and b would settle on 0-5 and 6-11 (the group without x and y)
            awaitOwnRows(group, a, b);
            assertThat(a.owned()).hasSize(4);
            assertThat(b.owned()).hasSize(4);
            assertThat(group.tracker.violations()).isEmpty();
            outsider.close();
        }
    }

    /** Waits until each of {@code live} is stable with exactly its rows of the assignment of everyone registered. */
    private static void awaitOwnRows(TestGroup group, ZkGroupMember... live) {
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            Map<TopicAndPartition, io.zkgroups.registry.model.ThreadId> expected = group.expected();
            for (ZkGroupMember m : live) {
                assertThat(m.health().state()).as(m.consumerId().value()).isEqualTo(MemberState.STABLE);
                assertThat(m.owned()).as("owned by " + m.consumerId()).isEqualTo(expected.entrySet().stream()
                        .filter(e -> e.getValue().consumer().equals(m.consumerId())).map(Map.Entry::getKey)
                        .collect(java.util.stream.Collectors.toCollection(java.util.TreeSet::new)));
            }
        });
    }

    private static List<ZkGroupMember> members(TestGroup group) {
        List<ZkGroupMember> sorted = new ArrayList<>(group.members.values());
        sorted.sort(java.util.Comparator.comparing(m -> m.consumerId().value()));
        return sorted;
    }
}
