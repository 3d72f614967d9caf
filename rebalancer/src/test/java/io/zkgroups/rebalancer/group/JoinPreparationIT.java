package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.model.Subscription;
import io.zkgroups.registry.testing.ZooKeeperExtension;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** What a joining member does before it registers, seen in ZooKeeper's transaction order. */
@Timeout(120)
class JoinPreparationIT {

    @RegisterExtension
    static final ZooKeeperExtension zk = new ZooKeeperExtension();

    @Test
    void theOwnerDirectoryOfAFreshGroupExistsBeforeTheFirstMemberRegisters() throws Exception {
        try (TestGroup group = new TestGroup(zk.server(), "prep1", "range", 2_000)) {
            group.createTopic("prep-t", 4);
            GroupMember first = group.start("a", Subscription.topics(Map.of("prep-t", 1)));
            group.awaitConverged();

            CuratorFramework client = zk.newClient();
            Stat directory = client.checkExists().forPath("/consumers/prep1/owners/prep-t");
            Stat registration = client.checkExists().forPath("/consumers/prep1/ids/" + first.consumerId().value());
            // created before the registration: the claim after it had nothing to create first
            assertThat(directory.getCzxid()).isLessThan(registration.getCzxid());
            assertThat(first.owned()).hasSize(4);
        }
    }
}
