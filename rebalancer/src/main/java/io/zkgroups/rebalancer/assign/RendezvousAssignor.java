package io.zkgroups.rebalancer.assign;

import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Rendezvous (highest-random-weight) hashing with bounded loads, per topic: a pure function of the group's
 * members and partitions that keeps a partition where it is unless its thread leaves or must give up load.
 * <p>
 * Every pair (partition, thread) of a topic gets a fixed pseudo-random {@link #weight}. The topic's {@code P}
 * partitions go to its {@code N} threads (those of the members subscribed to it) in one pass over the pairs,
 * heaviest first: a pair is taken if its partition is still free and its thread holds fewer than
 * {@code floor(P/N)}, or exactly that many while some of the {@code P mod N} places for one more are left. Every
 * partition is assigned (the capacities add up to {@code P}) and per topic thread counts differ by at most one.
 * <p>
 * Example: members {@code g_a} and {@code g_b}, one stream each, topic {@code T} with 6 partitions; then
 * {@code g_c} joins (the weights decide, so the rows are what this build computes):
 * <pre>
 *   a, b:     g_a-0: [T,1] [T,2] [T,4]   g_b-0: [T,0] [T,3] [T,5]
 *   a, b, c:  g_a-0: [T,1] [T,2]         g_b-0: [T,0] [T,3]         g_c-0: [T,4] [T,5]
 * </pre>
 * Only the two partitions {@code g_c} takes move; range moves three ({@code [T,2]} from a to b as well). Over
 * random groups a join or a leave moves 1.1–2 times the changed member's share on average (a thread that must
 * give up load can push a partition on to another thread); range moves most of each topic.
 * <p>
 * Because the result depends only on who is subscribed and how many partitions exist, every member computes the
 * same target from the same member list, and a stable group recomputes to itself: no history, no owner reads.
 * The weights are part of the protocol between members: changing {@link #weight} needs a new
 * {@link StickyCapability#VERSION}. Cost: {@code O(P·N·log(P·N))} per topic.
 */
public final class RendezvousAssignor implements PartitionAssignor {

    @Override
    public String name() {
        return STICKY;
    }

    @Override
    public Assignment assign(GroupSnapshot group) {
        return PartitionAssignor.topicByTopic(group, RendezvousAssignor::assignTopic);
    }

    private static void assignTopic(List<ThreadId> threads, List<TopicAndPartition> partitions,
                                    Map<TopicAndPartition, ThreadId> owners) {
        int n = threads.size();
        int p = partitions.size();
        if (n == 0 || p == 0) {
            return;
        }
        long[] threadHashes = threads.stream().mapToLong(t -> fnv1a(t.toString())).toArray();
        Pair[] pairs = new Pair[p * n];
        for (int i = 0; i < p; i++) {
            long partitionHash = fnv1a(partitions.get(i).toString());
            for (int k = 0; k < n; k++) {
                pairs[i * n + k] = new Pair(weight(partitionHash, threadHashes[k]), i, k);
            }
        }
        Arrays.sort(pairs);
        int base = p / n;
        int extrasLeft = p % n;
        int[] load = new int[n];
        boolean[] assigned = new boolean[p];
        int left = p;
        for (int j = 0; j < pairs.length && left > 0; j++) {
            Pair pair = pairs[j];
            if (assigned[pair.partition]) {
                continue;
            }
            if (load[pair.thread] < base || load[pair.thread] == base && extrasLeft > 0) {
                if (load[pair.thread] == base) {
                    extrasLeft--;
                }
                load[pair.thread]++;
                assigned[pair.partition] = true;
                owners.put(partitions.get(pair.partition), threads.get(pair.thread));
                left--;
            }
        }
    }

    /**
     * The weight of a pair, from the hashes of the partition's text {@code [T,P]} and the thread's text
     * {@code CID-n}: the splitmix64 finalizer of their combination. Fixed forever for {@link StickyCapability#VERSION} 1.
     */
    static long weight(long partitionHash, long threadHash) {
        long z = partitionHash * 0x9E3779B97F4A7C15L + threadHash;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** 64-bit FNV-1a of the UTF-8 bytes: stable across JVMs, unlike {@code String.hashCode} it is 64 bits wide. */
    static long fnv1a(String text) {
        long hash = 0xCBF29CE484222325L;
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            hash ^= b & 0xFF;
            hash *= 0x100000001B3L;
        }
        return hash;
    }

    /**
     * Heaviest first; equal weights (practically never) by partition, then by thread position, for determinism.
     * Only ever sorted, never compared for equality or hashed.
     */
    private static final class Pair implements Comparable<Pair> {
        private final long weight;
        private final int partition;
        private final int thread;

        Pair(long weight, int partition, int thread) {
            this.weight = weight;
            this.partition = partition;
            this.thread = thread;
        }

        @Override
        public int compareTo(Pair other) {
            int byWeight = Long.compareUnsigned(other.weight, weight);
            if (byWeight != 0) {
                return byWeight;
            }
            int byPartition = Integer.compare(partition, other.partition);
            return byPartition != 0 ? byPartition : Integer.compare(thread, other.thread);
        }
    }
}
