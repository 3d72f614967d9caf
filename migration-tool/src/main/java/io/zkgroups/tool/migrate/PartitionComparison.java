package io.zkgroups.tool.migrate;

import io.zkgroups.registry.model.TopicAndPartition;

import java.util.Collection;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.ArrayList;
import java.util.List;

/**
 * One partition's offsets in the source and target store and how they relate. Pure.
 *
 * @param source offset in the source store, null if none
 * @param target offset in the target store, null if none
 */
public record PartitionComparison(TopicAndPartition partition, Long source, Long target, Relation relation) {

    public PartitionComparison {
        Objects.requireNonNull(partition, "partition");
        Objects.requireNonNull(relation, "relation");
    }

    /** target − source, or null when one side is missing. */
    public Long difference() {
        return source == null || target == null ? null : target - source;
    }

    /**
     * Compares every partition present in either store, ordered by topic then partition.
     *
     * @param existing the partitions that exist in the cluster, or null when unknown (then every partition
     *                 is assumed to exist)
     */
    public static List<PartitionComparison> compare(Map<TopicAndPartition, Long> source,
                                                    Map<TopicAndPartition, Long> target,
                                                    Collection<TopicAndPartition> existing) {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(target, "target");
        Set<TopicAndPartition> all = new TreeSet<>(source.keySet());
        all.addAll(target.keySet());
        Set<TopicAndPartition> exists = existing == null ? null : Set.copyOf(existing);
        List<PartitionComparison> result = new ArrayList<>(all.size());
        for (TopicAndPartition tp : all) {
            Long s = source.get(tp);
            Long t = target.get(tp);
            result.add(new PartitionComparison(tp, s, t, relate(tp, s, t, exists)));
        }
        return result;
    }

    private static Relation relate(TopicAndPartition tp, Long s, Long t, Set<TopicAndPartition> exists) {
        if (s == null) {
            return Relation.TARGET_ONLY;
        }
        if (exists != null && !exists.contains(tp)) {
            return Relation.NO_SUCH_PARTITION;
        }
        if (s < 0) {
            return Relation.SOURCE_INVALID;
        }
        if (t == null) {
            return Relation.TARGET_MISSING;
        }
        if (t.equals(s)) {
            return Relation.EQUAL;
        }
        return t < s ? Relation.TARGET_BEHIND : Relation.TARGET_AHEAD;
    }

    static Map<TopicAndPartition, Long> sorted(Map<TopicAndPartition, Long> m) {
        return new TreeMap<>(m);
    }
}
