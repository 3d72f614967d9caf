package io.zkgroups.rebalancer.group;

import io.zkgroups.rebalancer.assign.GroupSnapshot;
import io.zkgroups.rebalancer.assign.PartitionAssignor;
import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.Subscription;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.store.Member;
import io.zkgroups.registry.store.PartitionOwner;
import io.zkgroups.testing.TestZooKeeper;
import org.apache.curator.framework.CuratorFramework;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A group of in-JVM members for tests, each with its own ZooKeeper session, plus the checks on them. */
final class TestGroup implements AutoCloseable {

    final TestZooKeeper zk;
    final String group;
    final String strategy;
    final ZkRegistry observer;
    final Set<Long> deadSessions = ConcurrentHashMap.newKeySet();
    final OwnershipTracker tracker = new OwnershipTracker(session -> !deadSessions.contains(session));
    final Map<ConsumerId, ZkGroupMember> members = new ConcurrentHashMap<>();
    final Map<ConsumerId, CuratorFramework> clients = new ConcurrentHashMap<>();
    private final int sessionTimeoutMs;

    TestGroup(TestZooKeeper zk, String group, String strategy, int sessionTimeoutMs) {
        this.zk = zk;
        this.group = group;
        this.strategy = strategy;
        this.sessionTimeoutMs = sessionTimeoutMs;
        this.observer = ZkRegistry.of(zk.newClient());
    }

    ZkGroupMember start(String name, Subscription subscription) {
        return start(name, subscription, UnaryOperator.identity());
    }

    ZkGroupMember start(String name, Subscription subscription, UnaryOperator<GroupMemberConfig> tweak) {
        ZkGroupMember member = create(name, subscription, tweak);
        member.start();
        return member;
    }

    ZkGroupMember create(String name, Subscription subscription, UnaryOperator<GroupMemberConfig> tweak) {
        ConsumerId id = ConsumerId.ofOverride(group, name);
        CuratorFramework client = zk.newClient(sessionTimeoutMs);
        GroupMemberConfig config = tweak.apply(GroupMemberConfig.of(group, id, subscription)
                .withAssignmentStrategy(strategy));
        ZkGroupMember member = ZkGroupMember.onZooKeeper(client, ZkLayout.root(), config,
                tracker.listenerFor(id, () -> sessionOf(client)));
        members.put(id, member);
        clients.put(id, client);
        return member;
    }

    /** Leaves gracefully. */
    void stop(ZkGroupMember member) {
        member.close();
        members.remove(member.consumerId());
        CuratorFramework client = clients.remove(member.consumerId());
        deadSessions.add(sessionOf(client));
        client.close();
    }

    /** Ends the member's session on the server for real; the member must recover by itself. */
    void expire(ZkGroupMember member) {
        CuratorFramework client = clients.get(member.consumerId());
        deadSessions.add(sessionOf(client));
        TestZooKeeper.expireSession(client);
    }

    void createTopic(String topic, int partitions) {
        observer.topics().create(topic, io.zkgroups.registry.model.TopicRegistration.v1(partitions, List.of(0)));
    }

    /** The assignment the assignor computes from what is registered now. */
    Map<TopicAndPartition, ThreadId> expected() {
        List<Member> registered = observer.members().list(group).entries();
        List<String> topics = observer.topics().topics();
        Map<ConsumerId, Map<String, Integer>> subscriptions = new TreeMap<>();
        Map<String, Integer> counts = new TreeMap<>();
        for (Member m : registered) {
            Map<String, Integer> streams = m.registration().subscription().topicStreams(topics, true);
            subscriptions.put(m.id(), streams);
            for (String topic : streams.keySet()) {
                observer.topics().read(topic).ifPresent(t -> counts.put(topic, t.partitionCount()));
            }
        }
        return PartitionAssignor.forStrategy(strategy).assign(new GroupSnapshot(subscriptions, counts)).owners();
    }

    /** Owner znodes as they are now. */
    Map<TopicAndPartition, String> ownerZnodes() {
        Map<TopicAndPartition, String> owners = new TreeMap<>();
        for (PartitionOwner owner : observer.owners().owners(group).entries()) {
            owners.put(owner.partition(), owner.value());
        }
        return owners;
    }

    /** Waits until every member is stable and owner znodes equal the assignor's result for the group. */
    void awaitConverged() {
        await().atMost(Duration.ofSeconds(45)).untilAsserted(() -> {
            assertThat(members.values()).allSatisfy(m -> assertThat(m.health().state())
                    .as(m.consumerId() + " " + m.health()).isEqualTo(MemberState.STABLE));
            Map<TopicAndPartition, ThreadId> expected = expected();
            Map<TopicAndPartition, String> expectedText = new TreeMap<>();
            expected.forEach((tp, thread) -> expectedText.put(tp, thread.toString()));
            assertThat(ownerZnodes()).isEqualTo(expectedText);
            for (ZkGroupMember m : members.values()) {
                Set<TopicAndPartition> rows = new java.util.TreeSet<>();
                expected.forEach((tp, thread) -> {
                    if (thread.consumer().equals(m.consumerId())) {
                        rows.add(tp);
                    }
                });
                assertThat(m.owned()).as("owned by " + m.consumerId()).isEqualTo(rows);
                assertThat(tracker.believedBy(m.consumerId())).as("believed by " + m.consumerId()).isEqualTo(rows);
            }
        });
        assertThat(tracker.violations()).isEmpty();
    }

    static long sessionOf(CuratorFramework client) {
        try {
            return client.getZookeeperClient().getZooKeeper().getSessionId();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        for (ZkGroupMember member : new ArrayList<>(members.values())) {
            member.close();
        }
        members.clear();
        clients.values().forEach(CuratorFramework::close);
        clients.clear();
    }
}
