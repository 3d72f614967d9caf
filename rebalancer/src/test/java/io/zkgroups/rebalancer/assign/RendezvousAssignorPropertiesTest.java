package io.zkgroups.rebalancer.assign;

import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static io.zkgroups.rebalancer.assign.AssignmentInvariants.assertCompleteAndOwnedBySubscribers;
import static io.zkgroups.rebalancer.assign.AssignmentInvariants.countsPerThread;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sticky assignment is valid, balanced per topic, the same for every member whatever order it read the group
 * in, a fixed point, and moves few partitions when one member joins or leaves.
 */
class RendezvousAssignorPropertiesTest {

    private final RendezvousAssignor sticky = new RendezvousAssignor();
    private final RangeAssignor range = new RangeAssignor();

    @Provide
    Arbitrary<GroupSnapshot> groups() {
        return GroupArbitraries.anyGroup();
    }

    /** A group, and a member that joins it with an arbitrary subscription to the group's topics. */
    @Provide
    Arbitrary<GroupSnapshot[]> joins() {
        return GroupArbitraries.anyGroup().flatMap(group -> {
            List<String> topics = List.copyOf(group.partitionCounts().keySet());
            return Arbitraries.integers().between(0, 3).list().ofSize(topics.size()).map(streams -> {
                Map<String, Integer> subscription = new TreeMap<>();
                for (int i = 0; i < topics.size(); i++) {
                    if (streams.get(i) > 0) {
                        subscription.put(topics.get(i), streams.get(i));
                    }
                }
                return new GroupSnapshot[] {group, group.withMember(new ConsumerId("g_joiner"), subscription)};
            });
        });
    }

    @Property(tries = 500)
    void assignsEveryPartitionOnceToAThreadOfASubscriber(@ForAll("groups") GroupSnapshot group) {
        assertCompleteAndOwnedBySubscribers(group, sticky.assign(group));
    }

    @Property(tries = 500)
    void perTopicThreadCountsDifferByAtMostOne(@ForAll("groups") GroupSnapshot group) {
        Assignment assignment = sticky.assign(group);

        for (String topic : group.subscribedTopics()) {
            List<Integer> counts = countsPerThread(assignment, group.threadsOf(topic), topic);
            if (!counts.isEmpty()) {
                assertThat(counts.stream().mapToInt(Integer::intValue).max().orElseThrow()
                        - counts.stream().mapToInt(Integer::intValue).min().orElseThrow())
                        .as("spread of %s over %s", topic, group.threadsOf(topic)).isLessThanOrEqualTo(1);
            }
        }
        assertThat(BalanceCheck.problems(group, assignment.owners())).isEmpty();
    }

    @Property(tries = 200)
    void everyMemberComputesTheSameTargetWhateverOrderItReadTheGroupIn(@ForAll("groups") GroupSnapshot group,
                                                                      @ForAll long seed) {
        GroupSnapshot readElsewhere = GroupArbitraries.rebuiltInShuffledOrder(group, new Random(seed));

        assertThat(sticky.assign(readElsewhere)).isEqualTo(sticky.assign(group));
    }

    @Provide
    Arbitrary<List<GroupSnapshot[]>> joinBatches() {
        return joins().list().ofSize(200);
    }

    /**
     * Over many random groups, a member that joins or leaves moves on average at most 1.5 times its own share of
     * each topic (its threads' partitions, which must move; measured on this sample: 1.04–1.28, range 1.75–2.48),
     * and no more than range in total. Single groups can do worse: when a topic has about as many partitions as
     * threads, who holds the last extra partitions can shift; and with fewer partitions than threads range may
     * move nothing. The bounds are measured, not proven, so the sample is fixed (seed, no edge cases).
     */
    @Property(tries = 10, seed = "20261201", edgeCases = EdgeCasesMode.NONE)
    void aJoinOrLeaveMovesAboutTheChangedMembersShare(@ForAll("joinBatches") List<GroupSnapshot[]> joins) {
        long moved = 0;
        long shares = 0;
        long rangeMoved = 0;
        ConsumerId joiner = new ConsumerId("g_joiner");
        for (GroupSnapshot[] join : joins) {
            for (GroupSnapshot[] change : List.of(join, new GroupSnapshot[] {join[1], join[0]})) {
                Assignment was = sticky.assign(change[0]);
                Assignment is = sticky.assign(change[1]);
                for (String topic : join[1].subscribedTopics()) {
                    moved += moved(was, is, topic);
                    rangeMoved += moved(range.assign(change[0]), range.assign(change[1]), topic);
                    shares += Math.max(countOf(was, joiner, topic), countOf(is, joiner, topic));
                }
            }
        }
        assertThat(2 * moved).as("twice the moves, against 3 x the shares").isLessThanOrEqualTo(3 * shares);
        assertThat(moved).isLessThanOrEqualTo(rangeMoved);
    }

    /**
     * With one stream each and at least four partitions per member, a join moves at most three times the
     * joiner's share (measured on 10 members × 100 partitions: 13.9 on average, range 55). Measured, not proven:
     * a fixed sample.
     */
    @Property(tries = 300, seed = "20261201")
    void aJoinMovesAtMostThreeTimesTheJoinersShare(@ForAll @IntRange(min = 2, max = 12) int members,
                                                               @ForAll @IntRange(min = 4, max = 20) int perMember,
                                                               @ForAll @IntRange(min = 0, max = 11) int extra,
                                                               @ForAll @IntRange(min = 0, max = 1000) int names) {
        int partitions = members * perMember + extra % members;
        Map<ConsumerId, Map<String, Integer>> subscriptions = new TreeMap<>();
        for (int i = 0; i < members; i++) {
            subscriptions.put(new ConsumerId("g_" + names + "-m" + i), Map.of("T", 1));
        }
        GroupSnapshot before = new GroupSnapshot(subscriptions, Map.of("T", partitions));
        GroupSnapshot after = before.withMember(new ConsumerId("g_" + names + "-new"), Map.of("T", 1));

        int stickyMoves = moved(sticky.assign(before), sticky.assign(after), "T");
        assertThat(stickyMoves).isLessThanOrEqualTo(3 * ceilDiv(partitions, members + 1));
    }

    private static int countOf(Assignment assignment, ConsumerId member, String topic) {
        return (int) assignment.owners().entrySet().stream()
                .filter(row -> row.getKey().topic().equals(topic) && row.getValue().consumer().equals(member))
                .count();
    }

    /** Partitions of {@code topic} owned in both assignments, by different threads. */
    static int moved(Assignment before, Assignment after, String topic) {
        int moved = 0;
        for (Map.Entry<TopicAndPartition, ThreadId> row : before.owners().entrySet()) {
            ThreadId now = after.owners().get(row.getKey());
            if (row.getKey().topic().equals(topic) && now != null && !now.equals(row.getValue())) {
                moved++;
            }
        }
        return moved;
    }

    private static int ceilDiv(int a, int b) {
        return (a + b - 1) / b;
    }
}
