package io.zkgroups.rebalancer.assign;

import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * 0.8.2.2's default {@code range} strategy (docs/compatibility.md#range), topic by topic.
 * <p>
 * For each topic, the threads of all members subscribed to it are sorted by the <em>text</em> of their thread
 * id ({@code String.compareTo}) and the partitions ascending. With {@code C} threads and {@code P} partitions,
 * {@code n = P / C} and {@code r = P mod C}: thread {@code k} gets the {@code n + (k < r ? 1 : 0)} partitions
 * starting at {@code n*k + min(k, r)}. So the first {@code r} threads get one extra partition, and when
 * {@code P < C} the last threads get none.
 * <p>
 * Example (vector V1 of docs/compatibility.md#assignment-vectors): members {@code c1} {T1:1, T2:1}, {@code c2}
 * {T1:2, T2:2} and {@code c3} {T1:1, T2:1}; T1 has 5 partitions and T2 has 7. Both topics have the threads
 * c1-0, c2-0, c2-1, c3-0.
 * <pre>
 *   T1: n = 1, r = 1   c1-0: [T1,0] [T1,1]   c2-0: [T1,2]         c2-1: [T1,3]         c3-0: [T1,4]
 *   T2: n = 1, r = 3   c1-0: [T2,0] [T2,1]   c2-0: [T2,2] [T2,3]  c2-1: [T2,4] [T2,5]  c3-0: [T2,6]
 * </pre>
 * Because the order is textual, a member {@code c10} sorts before {@code c2} (V4) and a member's thread
 * {@code c-10} before its thread {@code c-2} (V3): with one member {@code c} of 12 streams on a 12-partition
 * topic, partition 2 goes to {@code c-10} and partition 4 to {@code c-2}.
 * <p>
 * Topics are independent, so members with different subscriptions are fine (V5). A topic that does not exist
 * yields nothing (V10).
 */
public final class RangeAssignor implements PartitionAssignor {

    @Override
    public String name() {
        return RANGE;
    }

    @Override
    public Assignment assign(GroupSnapshot group) {
        return PartitionAssignor.topicByTopic(group, RangeAssignor::assignTopic);
    }

    /**
     * Only {@code member}'s slices: per topic it subscribes to, the threads in order and the partition count are all
     * a slice needs, so no other thread's partitions are built. Topics are independent under range.
     */
    @Override
    public Map<TopicAndPartition, ThreadId> assignTo(GroupSnapshot group, ConsumerId member) {
        Objects.requireNonNull(group, "group snapshot cannot be null");
        Objects.requireNonNull(member, "member cannot be null");
        SortedMap<TopicAndPartition, ThreadId> mine = new TreeMap<>();
        for (String topic : group.subscriptionOf(member).keySet()) {
            List<ThreadId> threads = group.threadsOf(topic);
            int partitions = group.partitionCount(topic);
            for (int k = 0; k < threads.size(); k++) {
                if (threads.get(k).consumer().equals(member)) {
                    int start = start(k, partitions, threads.size());
                    int end = start(k + 1, partitions, threads.size());
                    for (int p = start; p < end; p++) {
                        mine.put(new TopicAndPartition(topic, p), threads.get(k));
                    }
                }
            }
        }
        return Collections.unmodifiableSortedMap(mine);
    }

    /**
     * Where thread {@code k}'s slice starts, in 0.8.2.2's form ({@code nPartsPerConsumer * k + min(k,
     * nConsumersWithExtraPart)}, docs/compatibility.md#range); thread {@code k + 1}'s start is its end, which gives
     * 0.8.2.2's length {@code nPartsPerConsumer + (k + 1 > nConsumersWithExtraPart ? 0 : 1)}.
     */
    private static int start(int k, int partitions, int threads) {
        int perThread = partitions / threads;
        int withExtra = partitions % threads;
        return perThread * k + Math.min(k, withExtra);
    }

    private static void assignTopic(List<ThreadId> threads, List<TopicAndPartition> partitions,
                                    Map<TopicAndPartition, ThreadId> owners) {
        for (int k = 0; k < threads.size(); k++) {
            int start = start(k, partitions.size(), threads.size());
            int end = start(k + 1, partitions.size(), threads.size());
            for (TopicAndPartition partition : partitions.subList(start, end)) {
                owners.put(partition, threads.get(k));
            }
        }
    }
}
