package io.zkgroups.rebalancer.assign;

import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static io.zkgroups.rebalancer.assign.AssignmentInvariants.assertBalancedFavouringEarlierThreads;
import static io.zkgroups.rebalancer.assign.AssignmentInvariants.assertCompleteAndOwnedBySubscribers;
import static io.zkgroups.rebalancer.assign.AssignmentInvariants.countsPerThread;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Range is fully pinned down by: every partition once, to a subscriber; per topic, threads in String order take
 * consecutive runs of ascending partitions; run lengths differ by at most one, longer runs first.
 */
class RangeAssignorPropertiesTest {

    private final RangeAssignor range = new RangeAssignor();

    @Provide
    Arbitrary<GroupSnapshot> groups() {
        return GroupArbitraries.anyGroup();
    }

    @Property(tries = 500)
    void assignsEveryPartitionOnceToAThreadOfASubscriber(@ForAll("groups") GroupSnapshot group) {
        assertCompleteAndOwnedBySubscribers(group, range.assign(group));
    }

    @Property(tries = 500)
    void perTopicThreadsTakeConsecutiveRunsInStringOrder(@ForAll("groups") GroupSnapshot group) {
        Assignment assignment = range.assign(group);

        for (String topic : group.subscribedTopics()) {
            List<ThreadId> threads = group.threadsOf(topic);
            List<Integer> ownerPositions = group.partitionsOf(topic).stream()
                    .map(partition -> threads.indexOf(assignment.owner(partition).orElseThrow()))
                    .toList();
            assertThat(ownerPositions).as("owner positions along %s", topic).isSorted();
        }
    }

    @Property(tries = 500)
    void perTopicThreadCountsDifferByAtMostOneWithTheExtrasFirst(@ForAll("groups") GroupSnapshot group) {
        Assignment assignment = range.assign(group);

        for (String topic : group.subscribedTopics()) {
            assertBalancedFavouringEarlierThreads(countsPerThread(assignment, group.threadsOf(topic), topic));
        }
    }

    @Property(tries = 300)
    void theOrderTheCallerBuiltItsMapsInDoesNotMatter(@ForAll("groups") GroupSnapshot group, @ForAll Random random) {
        GroupSnapshot rebuilt = GroupArbitraries.rebuiltInShuffledOrder(group, random);

        assertThat(range.assign(rebuilt)).isEqualTo(range.assign(group));
    }

    @Property(tries = 300)
    void eachMembersRowsAreWhatItsOwnSpecLoopComputes(@ForAll("groups") GroupSnapshot group) {
        Assignment assignment = range.assign(group);

        for (ConsumerId member : group.members()) {
            assertThat(assignment.forConsumer(member)).isEqualTo(rowsComputedBy(member, group));
        }
    }

    /**
     * 0.8.2.2's range loop as written (docs/compatibility.md#range): a 0.8.2.2 member places only its own threads among
     * all of a topic's threads.
     */
    private static Assignment rowsComputedBy(ConsumerId member, GroupSnapshot group) {
        Map<TopicAndPartition, ThreadId> rows = new HashMap<>();
        group.subscriptionOf(member).forEach((topic, streams) -> {
            List<ThreadId> threads = group.threadsOf(topic);
            List<TopicAndPartition> partitions = group.partitionsOf(topic);
            int n = partitions.size() / threads.size();
            int r = partitions.size() % threads.size();
            for (int thread = 0; thread < streams; thread++) {
                int k = threads.indexOf(member.thread(thread));
                int start = n * k + Math.min(k, r);
                int count = n + (k + 1 > r ? 0 : 1);
                for (TopicAndPartition partition : partitions.subList(start, start + count)) {
                    rows.put(partition, member.thread(thread));
                }
            }
        });
        return new Assignment(rows);
    }
}
