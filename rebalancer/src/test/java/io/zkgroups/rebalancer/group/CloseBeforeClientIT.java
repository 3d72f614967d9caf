package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.Subscription;
import io.zkgroups.registry.model.TopicRegistration;
import io.zkgroups.testing.ConnectionRequests;
import io.zkgroups.testing.ZooKeeperExtension;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A member whose owner closes its client right after ({@code ZkGroupConsumer}) leaves without removing its watches on
 * the server first: they end with the session, and the closing process does not wait for those requests. It still
 * leaves: its registration and owner znodes are gone when the call returns.
 */
@Timeout(120)
class CloseBeforeClientIT {

    private static final String TOPIC = "T";

    @RegisterExtension
    static final ZooKeeperExtension zk = new ZooKeeperExtension();

    @BeforeAll
    static void topic() {
        ZkRegistry.of(zk.newClient()).topics().create(TOPIC, TopicRegistration.v1(4, List.of(0)));
    }

    @Test
    void aMemberWhoseClientClosesNextLeavesWithFewerRequests() throws Exception {
        // the least of two: a ping or a lease beat may land in one close's window, hardly in both
        long close = Math.min(requestsToLeave("g1", ZkGroupMember::close),
                requestsToLeave("g2", ZkGroupMember::close));
        long beforeClient = Math.min(requestsToLeave("g3", ZkGroupMember::closeBeforeClient),
                requestsToLeave("g4", ZkGroupMember::closeBeforeClient));

        assertThat(beforeClient).as("requests leaving, the watches left to the session").isPositive()
                .isLessThan(close);
    }

    /** Requests on the member's connection while {@code leave} runs, once it is stable; checks that it left. */
    private static long requestsToLeave(String group, Consumer<ZkGroupMember> leave) throws Exception {
        // a long session keeps pings and lease beats far apart
        CuratorFramework client = zk.server().adopt(CuratorFrameworkFactory.builder()
                .connectString(zk.connectString()).sessionTimeoutMs(60_000).connectionTimeoutMs(5_000)
                .retryPolicy(new ExponentialBackoffRetry(50, 10, 500)).ensembleTracker(false).build());
        ConsumerId me = ConsumerId.ofOverride(group, "m");
        ZkGroupMember member = ZkGroupMember.onZooKeeper(client, ZkLayout.root(),
                GroupMemberConfig.of(group, me, Subscription.topics(Map.of(TOPIC, 1))), MembershipListener.NONE);
        CuratorFramework observer = zk.newClient();
        try {
            member.start();
            await().atMost(Duration.ofSeconds(30)).until(() -> member.health().state() == MemberState.STABLE
                    && observer.getChildren().forPath(ZkLayout.root().owners(group, TOPIC)).size() == 4);
            long before = ConnectionRequests.of(zk.connectString(), client);
            leave.accept(member);
            long requests = ConnectionRequests.of(zk.connectString(), client) - before;
            assertThat(observer.checkExists().forPath(ZkLayout.root().member(group, me))).as("registration").isNull();
            assertThat(observer.getChildren().forPath(ZkLayout.root().owners(group, TOPIC))).as("owner znodes").isEmpty();
            return requests;
        } finally {
            member.close();
            client.close();
            observer.close();
        }
    }
}
