package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.MemberRegistration;
import io.zkgroups.registry.model.Subscription;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.model.TopicRegistration;
import io.zkgroups.testing.ConnectionRequests;
import io.zkgroups.testing.ZooKeeperExtension;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.Watcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a member does before it registers costs its own start and delays the whole deploy of a large group: it must not
 * grow with the group. Counted by the server, on the joiner's connection, from {@code start()} to the moment its
 * registration appears, in a group of one member and in one of 60, owning 600 partitions between them.
 */
@Timeout(120)
class JoinBeforeRegistrationIT {

    private static final String TOPIC = "T";
    /** Long: the member reads nothing after registering until it has gathered the group's reactions. */
    private static final Duration DEBOUNCE = Duration.ofSeconds(3);

    @RegisterExtension
    static final ZooKeeperExtension zk = new ZooKeeperExtension();

    @Test
    void theRequestsBeforeRegisteringDoNotGrowWithTheGroup() throws Exception {
        ZkRegistry admin = ZkRegistry.of(zk.newClient());
        admin.topics().create(TOPIC, TopicRegistration.v1(600, List.of(0)));

        populate(admin, "small", 1, 600);
        long small = requestsBeforeRegistering("small");
        populate(admin, "crowded", 60, 600);
        long crowded = requestsBeforeRegistering("crowded");

        // The client's read of /zookeeper/config (it learns its servers' generation), the subscribed topic's
        // registration (its partition count, read ahead), the lease's first beat and the registration. What the member
        // sends right after registering (a beat, the scan for untracked owner znodes) may or may not reach the server
        // before the count is read, hence a range; a read of the group before registering would cost one request per
        // member (60 here).
        assertThat(small).as("requests before registering beside one member").isBetween(2L, 6L);
        assertThat(crowded).as("requests before registering beside 60 members and 600 owner znodes").isBetween(2L, 6L);
    }

    /** Registrations of {@code members} others, on another session, owning every partition between them. */
    private static void populate(ZkRegistry admin, String group, int members, int partitions) {
        Map<TopicAndPartition, ThreadId> claims = new TreeMap<>();
        for (int i = 0; i < members; i++) {
            ConsumerId id = ConsumerId.ofOverride(group, "other-" + i);
            admin.members().register(group, id, MemberRegistration.of(Subscription.topics(Map.of(TOPIC, 1)), 0),
                    Duration.ZERO);
            for (int p = i * partitions / members; p < (i + 1) * partitions / members; p++) {
                claims.put(TopicAndPartition.of(TOPIC, p), new ThreadId(id, 0));
            }
            Map<TopicAndPartition, ThreadId> own = new TreeMap<>(claims);
            own.values().removeIf(thread -> !thread.consumer().equals(id));
            admin.owners().claim(group, id, own);
        }
    }

    private static long requestsBeforeRegistering(String group) throws Exception {
        // as the consumer builds its client: without Curator's ensemble tracker, whose reads after connecting would
        // land at any time; a long session keeps pings and lease beats far apart
        CuratorFramework client = zk.server().adopt(CuratorFrameworkFactory.builder()
                .connectString(zk.connectString()).sessionTimeoutMs(60_000).connectionTimeoutMs(5_000)
                .retryPolicy(new ExponentialBackoffRetry(50, 10, 500)).ensembleTracker(false).build());
        ConsumerId me = ConsumerId.ofOverride(group, "joiner");
        ZkGroupMember member = ZkGroupMember.onZooKeeper(client, ZkLayout.root(),
                GroupMemberConfig.of(group, me, Subscription.topics(Map.of(TOPIC, 1))).withDebounce(DEBOUNCE),
                MembershipListener.NONE);
        CuratorFramework observer = zk.newClient();
        String path = ZkLayout.root().member(group, me);
        CompletableFuture<Long> atRegistration = new CompletableFuture<>();
        Watcher registered = event -> atRegistration.complete(ConnectionRequests.of(zk.connectString(), client));
        assertThat(observer.checkExists().usingWatcher(registered).forPath(path)).isNull();
        long before = ConnectionRequests.of(zk.connectString(), client);
        try {
            member.start();
            return atRegistration.get(30, TimeUnit.SECONDS) - before;
        } finally {
            member.close();
            client.close();
            observer.close();
        }
    }
}
