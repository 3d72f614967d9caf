package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.codec.TopicRegistrationCodec;
import io.zkgroups.registry.model.Subscription;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.model.TopicRegistration;
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
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Bad data in ZooKeeper is an alarm, never a stall: an unreadable znode affects only what it names, and the rest
 * of the group is assigned as usual.
 */
@Timeout(120)
class BadDataIT {

    private static final Duration CONVERGE = Duration.ofSeconds(30);
    @RegisterExtension
    static final ZooKeeperExtension zk = new ZooKeeperExtension();

    @Test
    void anUnreadableTopicRegistrationLeavesOnlyThatTopicUnassignedUntilItIsRepaired() throws Exception {
        try (TestGroup group = new TestGroup(zk.server(), "bad-topic", "range", 2_000)) {
            group.createTopic("fine", 4);
            CuratorFramework vandal = zk.newClient();
            vandal.create().creatingParentsIfNeeded().forPath("/brokers/topics/broken",
                    "garbage".getBytes(StandardCharsets.UTF_8));
            Subscription both = Subscription.topics(Map.of("fine", 1, "broken", 1));
            ZkGroupMember a = group.start("a", both);
            ZkGroupMember b = group.start("b", both);

            await("the readable topic is assigned").atMost(CONVERGE).untilAsserted(() -> {
                assertThat(List.of(a, b)).allSatisfy(m -> assertThat(m.health().state())
                        .as(m.consumerId() + " " + m.health()).isEqualTo(MemberState.STABLE));
                assertThat(group.ownerZnodes().keySet()).isEqualTo(partitions("fine", 4));
            });
            assertThat(a.owned()).hasSize(2);
            assertThat(b.owned()).hasSize(2);
            assertThat(a.health().unreadable()).as("the member's health names the znode")
                    .singleElement().satisfies(u -> assertThat(u.path()).isEqualTo("/brokers/topics/broken"));

            vandal.setData().forPath("/brokers/topics/broken",
                    TopicRegistrationCodec.encode(TopicRegistration.v1(2, List.of(0))));

            await("the repaired topic is assigned too").atMost(CONVERGE).untilAsserted(() -> {
                assertThat(List.of(a, b)).allSatisfy(m -> assertThat(m.health().state()).isEqualTo(MemberState.STABLE));
                assertThat(group.ownerZnodes().keySet()).containsAll(partitions("broken", 2));
            });
            group.awaitConverged();
            assertThat(a.health().unreadable()).isEmpty();
        }
    }

    @Test
    void aRegistrationDeclaringAnAbsurdStreamCountIsLeftOutAndReportedInsteadOfAllocated() throws Exception {
        try (TestGroup group = new TestGroup(zk.server(), "bad-streams", "range", 2_000)) {
            group.createTopic("streams", 4);
            CuratorFramework vandal = zk.newClient();
            vandal.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL)
                    .forPath("/consumers/bad-streams/ids/bad-streams_huge", ("{\"version\":1,\"subscription\":"
                            + "{\"streams\":2147483647},\"pattern\":\"static\",\"timestamp\":\"1\"}")
                            .getBytes(StandardCharsets.UTF_8));
            Subscription sub = Subscription.topics(Map.of("streams", 1));
            ZkGroupMember a = group.start("a", sub);
            ZkGroupMember b = group.start("b", sub);

            await("the readable members share the topic").atMost(CONVERGE).untilAsserted(() -> {
                assertThat(List.of(a, b)).allSatisfy(m -> assertThat(m.health().state())
                        .as(m.consumerId() + " " + m.health()).isEqualTo(MemberState.STABLE));
                assertThat(group.ownerZnodes().keySet()).isEqualTo(partitions("streams", 4));
            });
            assertThat(a.owned()).hasSize(2);
            assertThat(b.owned()).hasSize(2);
            assertThat(a.health().malformedMembers()).singleElement().satisfies(u -> {
                assertThat(u.path()).isEqualTo("/consumers/bad-streams/ids/bad-streams_huge");
                assertThat(u.reason()).contains("2147483647");
            });
        }
    }

    private static Set<TopicAndPartition> partitions(String topic, int count) {
        return java.util.stream.IntStream.range(0, count).mapToObj(p -> TopicAndPartition.of(topic, p))
                .collect(Collectors.toSet());
    }
}
