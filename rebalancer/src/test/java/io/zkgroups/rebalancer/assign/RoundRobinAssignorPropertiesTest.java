package io.zkgroups.rebalancer.assign;

import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

import static io.zkgroups.rebalancer.assign.AssignmentInvariants.assertBalancedFavouringEarlierThreads;
import static io.zkgroups.rebalancer.assign.AssignmentInvariants.assertCompleteAndOwnedBySubscribers;
import static io.zkgroups.rebalancer.assign.AssignmentInvariants.countsPerThread;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RoundRobinAssignorPropertiesTest {

    private final RoundRobinAssignor roundRobin = new RoundRobinAssignor();

    @Provide
    Arbitrary<GroupSnapshot> uniformGroups() {
        return GroupArbitraries.uniformGroup();
    }

    @Provide
    Arbitrary<GroupSnapshot> groupsWithCollidingTopics() {
        return GroupArbitraries.uniformGroupWithCollidingTopics();
    }

    @Provide
    Arbitrary<GroupSnapshot> anyGroups() {
        return GroupArbitraries.anyGroup();
    }

    @Property(tries = 500)
    void assignsEveryPartitionOnceToAThreadOfASubscriber(@ForAll("uniformGroups") GroupSnapshot group) {
        assertCompleteAndOwnedBySubscribers(group, assignUnlessAmbiguous(group));
    }

    @Property(tries = 500)
    void allThreadsOwningCountsDifferByAtMostOneWithTheExtrasFirst(@ForAll("uniformGroups") GroupSnapshot group) {
        Assignment assignment = assignUnlessAmbiguous(group);
        List<ThreadId> threads = group.threadsOf(group.subscribedTopics().first());

        assertBalancedFavouringEarlierThreads(countsPerThread(assignment, threads, null));
    }

    @Property(tries = 300)
    void theOrderTheCallerBuiltItsMapsInDoesNotMatter(@ForAll("uniformGroups") GroupSnapshot group,
                                                      @ForAll Random random) {
        GroupSnapshot rebuilt = GroupArbitraries.rebuiltInShuffledOrder(group, random);

        assertThat(roundRobin.assign(rebuilt)).isEqualTo(assignUnlessAmbiguous(group));
    }

    /**
     * The heart of the ambiguity rule: 0.8.2.2 may list topics in any order before its stable hash sort. Replaying
     * its algorithm for every topic order, we must return the one answer they all agree on, and refuse exactly
     * when they do not agree.
     */
    @Property(tries = 400)
    void matchesEveryTopicOrder082MightUseAndRefusesExactlyWhenTheyDisagree(
            @ForAll("groupsWithCollidingTopics") GroupSnapshot group) {
        Set<Assignment> answersOf082 = new HashSet<>();
        for (List<String> topicOrder : permutations(new ArrayList<>(group.subscribedTopics()))) {
            answersOf082.add(roundRobinAs082(group, topicOrder));
        }

        String outcome = answersOf082.size() > 1 ? "ambiguous"
                : hasCrossTopicCollision(group) ? "harmless cross-topic collision" : "no cross-topic collision";
        Statistics.label("outcome").collect(outcome);
        Statistics.label("outcome").coverage(coverage -> {
            coverage.check("ambiguous").count(cases -> cases > 0);
            coverage.check("harmless cross-topic collision").count(cases -> cases > 0);
        });
        if (answersOf082.size() == 1) {
            assertThat(roundRobin.assign(group)).isEqualTo(answersOf082.iterator().next());
        } else {
            assertThatThrownBy(() -> roundRobin.assign(group)).isInstanceOf(AmbiguousAssignmentException.class);
        }
    }

    /** 0.8.2.2's literal check: every topic's set of thread ids equals the first topic's. */
    @Property(tries = 500)
    void refusesExactlyTheGroupsWhoseTopicsHaveDifferentThreadSets(@ForAll("anyGroups") GroupSnapshot group) {
        Set<Set<ThreadId>> threadSets = new HashSet<>();
        group.subscribedTopics().forEach(topic -> threadSets.add(Set.copyOf(group.threadsOf(topic))));
        boolean compatibleIn082 = threadSets.size() <= 1;
        Statistics.label("compatible in 0.8.2.2").collect(compatibleIn082);
        Statistics.label("compatible in 0.8.2.2").coverage(coverage -> {
            coverage.check(true).count(compatible -> compatible > 0);
            coverage.check(false).count(incompatible -> incompatible > 0);
        });

        if (compatibleIn082) {
            assignUnlessAmbiguous(group);
            RoundRobinAssignor.validate(group.subscriptions());
        } else {
            assertThatThrownBy(() -> roundRobin.assign(group))
                    .isInstanceOf(IncompatibleSubscriptionException.class);
            assertThatThrownBy(() -> RoundRobinAssignor.validate(group.subscriptions()))
                    .isInstanceOf(IncompatibleSubscriptionException.class);
        }
    }

    private static boolean hasCrossTopicCollision(GroupSnapshot group) {
        Map<Integer, Set<String>> topicsPerHash = new HashMap<>();
        group.subscribedTopics().forEach(topic -> group.partitionsOf(topic).forEach(partition ->
                topicsPerHash.computeIfAbsent(partition.toString().hashCode(), hash -> new HashSet<>()).add(topic)));
        return topicsPerHash.values().stream().anyMatch(topics -> topics.size() > 1);
    }

    /** Random names practically never collide; the collision cases have their own property above. */
    private Assignment assignUnlessAmbiguous(GroupSnapshot group) {
        try {
            return roundRobin.assign(group);
        } catch (AmbiguousAssignmentException collision) {
            Assume.that(false);
            throw collision;
        }
    }

    /**
     * Round robin as 0.8.2.2 computes it (docs/compatibility.md#roundrobin), with the topics listed in
     * {@code topicOrder} before the stable hash sort.
     */
    private static Assignment roundRobinAs082(GroupSnapshot group, List<String> topicOrder) {
        Map<TopicAndPartition, ThreadId> owners = new TreeMap<>();
        if (topicOrder.isEmpty()) {
            return new Assignment(owners);
        }
        List<ThreadId> threads = group.threadsOf(topicOrder.get(0));
        List<TopicAndPartition> partitions = new ArrayList<>();
        topicOrder.forEach(topic -> partitions.addAll(group.partitionsOf(topic)));
        partitions.sort(Comparator.comparingInt(partition -> partition.toString().hashCode()));
        for (int i = 0; i < partitions.size(); i++) {
            owners.put(partitions.get(i), threads.get(i % threads.size()));
        }
        return new Assignment(owners);
    }

    private static List<List<String>> permutations(List<String> items) {
        if (items.size() <= 1) {
            return List.of(items);
        }
        List<List<String>> result = new ArrayList<>();
        for (String first : items) {
            List<String> rest = new ArrayList<>(items);
            rest.remove(first);
            for (List<String> tail : permutations(rest)) {
                List<String> permutation = new ArrayList<>();
                permutation.add(first);
                permutation.addAll(tail);
                result.add(permutation);
            }
        }
        return result;
    }
}
