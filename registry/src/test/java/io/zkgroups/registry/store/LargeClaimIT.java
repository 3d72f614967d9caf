package io.zkgroups.registry.store;

import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.testing.ZooKeeperExtension;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Claims and releases larger than one ZooKeeper request may carry ({@code jute.maxbuffer}, 1 MB by default): a member
 * alone in its group with a topic of 20,000 partitions owns them all, and such a claim stays all-or-nothing.
 */
@Timeout(120)
class LargeClaimIT {

    /** 20,000 creates of owner znodes of this topic make a request of about 2 MB. */
    private static final String TOPIC = "a-topic-with-twenty-thousand-partitions";
    private static final int PARTITIONS = 20_000;

    @RegisterExtension
    static final ZooKeeperExtension zk = new ZooKeeperExtension();

    private static int ownerZnodes(CuratorFramework client, String group) throws Exception {
        String dir = "/consumers/" + group + "/owners/" + TOPIC;
        return client.checkExists().forPath(dir) == null ? 0 : client.getChildren().forPath(dir).size();
    }

    @Test
    void aMemberAloneOwnsEveryPartitionOfAHugeTopicAndReleasesThemAll() throws Exception {
        CuratorFramework client = zk.newClient();
        ZkRegistry registry = ZkRegistry.of(client);
        ConsumerId me = Members.join(registry, "big1", "alone", TOPIC);
        Map<TopicAndPartition, ThreadId> claims = Members.firstPartitions(me, TOPIC, PARTITIONS);

        Map<TopicAndPartition, PartitionOwner> held = registry.owners().releaseAndClaim("big1", me, List.of(), claims, null);

        assertThat(held).isEmpty();
        assertThat(ownerZnodes(client, "big1")).isEqualTo(PARTITIONS);
        assertThat(registry.owners().owner("big1", TopicAndPartition.of(TOPIC, PARTITIONS - 1))).get()
                .satisfies(owner -> assertThat(owner.isClaimOf(registry.znodes().sessionId(), me.thread(0))).isTrue());

        List<TopicAndPartition> released = registry.owners().release("big1", claims.keySet());

        assertThat(released).hasSize(PARTITIONS);
        assertThat(ownerZnodes(client, "big1")).isZero();
    }

    @Test
    void aHugeClaimThatCollidesInItsLastPartitionLeavesNothingOfTheClaimerBehind() throws Exception {
        CuratorFramework client = zk.newClient();
        ZkRegistry registry = ZkRegistry.of(client);
        ZkRegistry other = ZkRegistry.of(zk.newClient());
        ConsumerId me = Members.join(registry, "big2", "me", TOPIC);
        ConsumerId holder = Members.join(other, "big2", "holder", TOPIC);
        TopicAndPartition last = TopicAndPartition.of(TOPIC, PARTITIONS - 1);
        other.owners().claim("big2", holder, Map.of(last, holder.thread(0)));

        ClaimConflictException conflict = catchThrowableOfType(ClaimConflictException.class,
                () -> registry.owners().claim("big2", me, Members.firstPartitions(me, TOPIC, PARTITIONS)));

        assertThat(conflict).as("the claim's failure").isNotNull();
        assertThat(conflict.heldBy()).containsOnlyKeys(last);
        assertThat(ownerZnodes(client, "big2")).as("owner znodes left under /consumers/big2/owners").isEqualTo(1);
        assertThat(registry.owners().owner("big2", last)).get().extracting(PartitionOwner::value)
                .isEqualTo("big2_holder-0");
    }
}
