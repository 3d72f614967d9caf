package io.zkgroups.rebalancer.assign;

import io.zkgroups.registry.Immutable;
import io.zkgroups.registry.model.TopicAndPartition;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Round robin cannot tell which assignment 0.8.2.2 members would compute: partitions of different topics have
 * the same {@code String.hashCode} of their {@code "[T,P]"} text, 0.8.2.2 breaks such ties by the iteration
 * order of a Scala {@code HashMap} that we cannot reproduce, and that order changes who owns them.
 * See {@link RoundRobinAssignor} for when a collision is harmless.
 */
public final class AmbiguousAssignmentException extends AssignmentRefusedException {

    private final List<List<TopicAndPartition>> ambiguousTies;

    AmbiguousAssignmentException(List<List<TopicAndPartition>> ambiguousTies, int threadCount) {
        super(message(ambiguousTies, threadCount));
        this.ambiguousTies = ambiguousTies.stream().map(Immutable::list)
                .collect(Immutable.toList());
    }

    /** Each group of partitions whose texts share one hash code and whose owners depend on the unknown order. */
    public List<List<TopicAndPartition>> ambiguousTies() {
        return ambiguousTies;
    }

    private static String message(List<List<TopicAndPartition>> ties, int threadCount) {
        String described = ties.stream()
                .map(tie -> tie + " all hash to " + RoundRobinOrder.sortKey(tie.get(0)))
                .collect(Collectors.joining("; "));
        return "round-robin assignment is ambiguous for this group: " + described
                + ". 0.8.2.2 orders partitions by the String.hashCode of \"[topic,partition]\" and breaks ties by"
                + " the internal order of a Scala HashMap, which cannot be reproduced; with " + threadCount
                + " consumer threads that order decides who owns these partitions, so members could disagree."
                + " Refusing rather than guessing: rename one of the colliding topics, or use"
                + " partition.assignment.strategy=range.";
    }
}
