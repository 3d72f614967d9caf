package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.Subscription;
import io.zkgroups.registry.store.MemberAlarmRegistry;
import io.zkgroups.registry.store.Unreadable;
import io.zkgroups.testing.ZooKeeperExtension;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A member's alarms (what it reports it cannot do: partitions Kafka does not let it fetch, offsets it cannot read)
 * reach ZooKeeper for the tools, in the member's session: written when they appear or change, removed when they clear,
 * written again in a new session after the old one expired, gone when the member stops.
 */
@Timeout(60)
class MemberAlarmsIT {

    private static final Duration WITHIN = Duration.ofSeconds(10);

    @RegisterExtension
    static final ZooKeeperExtension zk = new ZooKeeperExtension();

    @Test
    void alarmsArePublishedChangedClearedAndRepublishedInANewSession() throws Exception {
        try (TestGroup group = new TestGroup(zk.server(), "alarmed", "range", 2_000)) {
            group.createTopic("t", 2);
            ZkGroupMember member = group.start("m0", Subscription.topics(Map.of("t", 1)));
            ZkGroupMember quiet = group.start("m1", Subscription.topics(Map.of("t", 1)));
            group.awaitConverged();
            CuratorFramework tools = zk.newClient();
            MemberAlarmRegistry alarms = ZkRegistry.of(tools).memberAlarms();
            ConsumerId id = member.consumerId();

            List<Unreadable> down = List.of(new Unreadable("kafka:t-0", "cannot be fetched: no connection to any broker"));
            member.reportUnreadable("kafka", down);
            await().atMost(WITHIN).until(() -> down.equals(alarms.read("alarmed").alarms().get(id)));

            List<Unreadable> worse = List.of(down.get(0), new Unreadable("/consumers/alarmed/offsets/t/0", "not a number"));
            member.reportUnreadable("offsets", worse.subList(1, 2));
            await().atMost(WITHIN).until(() -> alarms.read("alarmed").alarms().get(id) != null
                    && alarms.read("alarmed").alarms().get(id).size() == 2);

            group.expire(member);
            group.awaitConverged();
            await("republished in the member's new session").atMost(WITHIN)
                    .until(() -> alarms.read("alarmed").alarms().get(id) != null
                            && alarms.read("alarmed").alarms().get(id).size() == 2);
            long owner = tools.checkExists().forPath(ZkLayout.root().memberAlarm("alarmed", id)).getEphemeralOwner();
            assertThat(owner).isEqualTo(TestGroup.sessionOf(group.clients.get(id)));

            member.reportUnreadable("kafka", List.of());
            member.reportUnreadable("offsets", List.of());
            await("cleared").atMost(WITHIN).untilAsserted(() -> assertThat(alarms.read("alarmed").alarms())
                    .as("health %s", member.health()).doesNotContainKey(id));

            member.reportUnreadable("kafka", down);
            await().atMost(WITHIN).until(() -> alarms.read("alarmed").alarms().containsKey(id));
            group.stop(member);
            await("gone with the member's session").atMost(WITHIN)
                    .until(() -> alarms.read("alarmed").alarms().isEmpty());
            assertThat(alarms.read("alarmed").unreadable()).isEmpty();
            assertThat(quiet.health().unreadable()).isEmpty();
        }
    }
}
