package io.zkgroups.rebalancer.assign;

import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** What every correct assignment of a group satisfies, whatever the strategy. */
final class AssignmentInvariants {

    private AssignmentInvariants() {
    }

    /**
     * Every partition of every subscribed topic has exactly one owner, every owner is a thread its member has on
     * that topic, and the members' own views add up to the whole.
     */
    static void assertCompleteAndOwnedBySubscribers(GroupSnapshot group, Assignment assignment) {
        List<TopicAndPartition> expected = group.subscribedTopics().stream()
                .flatMap(topic -> group.partitionsOf(topic).stream()).toList();
        assertThat(assignment.owners().keySet()).containsExactlyInAnyOrderElementsOf(expected);

        assignment.owners().forEach((partition, owner) -> assertThat(
                group.subscriptionOf(owner.consumer()).getOrDefault(partition.topic(), 0))
                .as("streams of %s on %s, which owns %s", owner.consumer(), partition.topic(), partition)
                .isGreaterThan(owner.thread()));

        int rowsOfMembers = 0;
        for (ConsumerId member : group.members()) {
            Assignment own = assignment.forConsumer(member);
            assertThat(own.owners().values()).allMatch(thread -> thread.consumer().equals(member));
            rowsOfMembers += own.size();
        }
        assertThat(rowsOfMembers).isEqualTo(assignment.size());
    }

    /** How many partitions each of {@code threads} owns, in the order of {@code threads}. */
    static List<Integer> countsPerThread(Assignment assignment, List<ThreadId> threads, String topicOrNull) {
        Map<ThreadId, Integer> counts = new HashMap<>();
        assignment.owners().forEach((partition, owner) -> {
            if (topicOrNull == null || partition.topic().equals(topicOrNull)) {
                counts.merge(owner, 1, Integer::sum);
            }
        });
        return threads.stream().map(thread -> counts.getOrDefault(thread, 0)).toList();
    }

    /** Counts differ by at most one, and earlier threads never have fewer than later ones. */
    static void assertBalancedFavouringEarlierThreads(List<Integer> counts) {
        assertThat(counts).isSortedAccordingTo((a, b) -> Integer.compare(b, a));
        if (!counts.isEmpty()) {
            assertThat(counts.get(0) - counts.get(counts.size() - 1)).isBetween(0, 1);
        }
    }
}
