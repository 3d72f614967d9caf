package io.zkgroups.rebalancer.assign;

import io.zkgroups.registry.model.TopicAndPartition;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The order in which round robin deals partitions, and the test for when 0.8.2.2's order is unknowable.
 * <p>
 * 0.8.2.2 lists partitions topic by topic in Scala {@code HashMap} order (partitions ascending within a topic)
 * and stably sorts them by {@code ("[" + T + "," + P + "]").hashCode()}. Only partitions with exactly equal
 * hash codes (a <em>tie</em>) keep that input order, so the unknown topic order matters only inside a tie, and
 * there only <em>between topics</em>: one topic's partitions stay ascending whatever the topic order.
 * <p>
 * Inside a tie the partitions therefore come as one block per topic, blocks in the unknown topic order. With
 * {@code N} threads, a partition's owner is its position mod {@code N}, and moving a block shifts the blocks
 * behind it by its size. So the owners are the same for every topic order if and only if the tie holds one
 * topic, or every topic's block size is a multiple of {@code N} (e.g. {@code N = 1}). Any other tie is
 * ambiguous: swapping two neighbouring blocks shifts one of them by a size that is not a multiple of {@code N}.
 */
final class RoundRobinOrder {

    private RoundRobinOrder() {
    }

    /** 0.8.2.2's sort key: the Java hash code of {@code "[T,P]"}, a signed int, ascending. */
    static int sortKey(TopicAndPartition partition) {
        return partition.toString().hashCode();
    }

    /** Partitions stably sorted by {@link #sortKey}; ties keep the order of {@code partitions}. */
    static List<TopicAndPartition> sorted(List<TopicAndPartition> partitions) {
        List<TopicAndPartition> sorted = new ArrayList<>(partitions);
        sorted.sort(Comparator.comparingInt(RoundRobinOrder::sortKey)); // List.sort is stable
        return sorted;
    }

    /**
     * @param sorted      partitions as returned by {@link #sorted}
     * @param threadCount number of threads the partitions are dealt to
     * @throws AmbiguousAssignmentException if any tie's owners depend on the topic order
     */
    static void requireUnambiguous(List<TopicAndPartition> sorted, int threadCount) {
        List<List<TopicAndPartition>> ambiguous = new ArrayList<>();
        for (List<TopicAndPartition> tie : ties(sorted)) {
            if (ownersDependOnTopicOrder(tie, threadCount)) {
                ambiguous.add(tie);
            }
        }
        if (!ambiguous.isEmpty()) {
            throw new AmbiguousAssignmentException(ambiguous, threadCount);
        }
    }

    /** True if {@code tie} spans several topics and some topic's share of it is not a multiple of the threads. */
    static boolean ownersDependOnTopicOrder(List<TopicAndPartition> tie, int threadCount) {
        Map<String, Integer> perTopic = new TreeMap<>();
        tie.forEach(partition -> perTopic.merge(partition.topic(), 1, Integer::sum));
        return perTopic.size() > 1 && perTopic.values().stream().anyMatch(size -> size % threadCount != 0);
    }

    /** Maximal runs of two or more neighbours with equal sort keys. */
    private static List<List<TopicAndPartition>> ties(List<TopicAndPartition> sorted) {
        List<List<TopicAndPartition>> ties = new ArrayList<>();
        int start = 0;
        for (int end = 1; end <= sorted.size(); end++) {
            if (end == sorted.size() || sortKey(sorted.get(end)) != sortKey(sorted.get(start))) {
                if (end - start > 1) {
                    ties.add(sorted.subList(start, end));
                }
                start = end;
            }
        }
        return ties;
    }
}
