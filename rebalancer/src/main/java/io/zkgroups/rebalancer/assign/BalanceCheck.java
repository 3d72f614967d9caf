package io.zkgroups.rebalancer.assign;

import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Judges owners by what the sticky strategy promises instead of by one exact answer: per subscribed topic, every
 * owner is a thread of a member subscribed to it, and the topic's threads own counts that differ by at most one.
 * Pure. (Whether every partition has an owner is the caller's business: it knows the owner znodes.)
 */
public final class BalanceCheck {

    private BalanceCheck() {
    }

    /** One line per problem, topics in String order; empty if the owners are valid and balanced. */
    public static List<String> problems(GroupSnapshot group, Map<TopicAndPartition, ThreadId> owners) {
        Objects.requireNonNull(group, "group snapshot cannot be null");
        Objects.requireNonNull(owners, "owners cannot be null");
        List<String> problems = new ArrayList<>();
        for (String topic : group.subscribedTopics()) {
            List<ThreadId> threads = group.threadsOf(topic);
            Map<ThreadId, Integer> counts = new TreeMap<>();
            threads.forEach(thread -> counts.put(thread, 0));
            owners.forEach((partition, thread) -> {
                if (!partition.topic().equals(topic)) {
                    return;
                }
                if (counts.containsKey(thread)) {
                    counts.merge(thread, 1, Integer::sum);
                } else {
                    problems.add(partition + " is owned by " + thread + ", which does not consume " + topic);
                }
            });
            ThreadId most = null;
            ThreadId fewest = null;
            for (Map.Entry<ThreadId, Integer> row : counts.entrySet()) {
                most = most == null || row.getValue() > counts.get(most) ? row.getKey() : most;
                fewest = fewest == null || row.getValue() < counts.get(fewest) ? row.getKey() : fewest;
            }
            if (most != null && counts.get(most) - counts.get(fewest) > 1) {
                problems.add(topic + " is unbalanced: " + most + " owns " + counts.get(most) + " partitions and "
                        + fewest + " owns " + counts.get(fewest) + " (at most one apart among its "
                        + threads.size() + " threads)");
            }
        }
        return problems;
    }
}
