package io.zkgroups.rebalancer.group;

import io.zkgroups.rebalancer.assign.Assignment;
import io.zkgroups.rebalancer.assign.AssignorType;
import io.zkgroups.rebalancer.assign.Assignors;
import io.zkgroups.rebalancer.assign.GroupSnapshot;
import io.zkgroups.rebalancer.assign.PartitionAssignor;
import io.zkgroups.rebalancer.consumer.ZkConsumerConfig;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.Subscription;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.testing.ZooKeeperExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.ResourceLock;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.SortedMap;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A new assignor is its class plus one registration: registered here (in a test only), the consumer config accepts
 * its name and real members on a real ZooKeeper converge to its assignment.
 */
@Timeout(120)
@ResourceLock("io.zkgroups.rebalancer.assign.Assignors")
class PluggableAssignorIT {

    @RegisterExtension
    static final ZooKeeperExtension zk = new ZooKeeperExtension();

    /** Every partition to the first thread of the last consumer id: unlike range whenever two members share a topic. */
    static final class LastMemberTakesAll implements PartitionAssignor {
        static final String NAME = "test-last-takes-all";

        @Override
        public String name() {
            return NAME;
        }

        @Override
        public Assignment assign(GroupSnapshot group) {
            return PartitionAssignor.topicByTopic(group, (threads, partitions, owners) -> {
                ThreadId last = threads.get(threads.size() - 1);
                ThreadId first = new ThreadId(last.consumer(), 0);
                partitions.forEach(p -> owners.put(p, first));
            });
        }
    }

    @Test
    void aRegisteredAssignorIsAcceptedByTheConfigAndUsedByTheMembers() {
        try (Assignors.Registration ignored = Assignors.register(
                AssignorType.own(LastMemberTakesAll.NAME, LastMemberTakesAll::new, "this test"));
             TestGroup group = new TestGroup(zk.server(), "pluggable", LastMemberTakesAll.NAME, 2_000)) {
            Properties props = new Properties();
            props.setProperty("group.id", "pluggable");
            props.setProperty("zookeeper.connect", "127.0.0.1:1");
            props.setProperty("partition.assignment.strategy", LastMemberTakesAll.NAME);
            ZkConsumerConfig config = ZkConsumerConfig.from(props);
            assertThat(config.memberConfig(ConsumerId.ofOverride("pluggable", "a"), Subscription.topics(Map.of("p", 1)))
                    .assignmentStrategy()).isEqualTo(LastMemberTakesAll.NAME);

            group.createTopic("p", 4);
            Subscription sub = Subscription.topics(Map.of("p", 2));
            group.start("a", sub);
            group.start("b", sub);
            group.awaitConverged();

            SortedMap<TopicAndPartition, String> owners = new TreeMap<>(group.ownerZnodes());
            assertThat(owners).hasSize(4).allSatisfy((tp, owner) -> assertThat(owner).isEqualTo("pluggable_b-0"));
            Map<TopicAndPartition, ThreadId> range = PartitionAssignor.forStrategy("range").assign(new GroupSnapshot(
                    Map.of(ConsumerId.ofOverride("pluggable", "a"), Map.of("p", 2),
                            ConsumerId.ofOverride("pluggable", "b"), Map.of("p", 2)), Map.of("p", 4))).owners();
            assertThat(List.copyOf(range.values())).isNotEqualTo(List.copyOf(group.expected().values()));
        }
        assertThat(Assignors.names()).containsExactly("range", "roundrobin", "sticky");
    }
}
