package io.zkgroups.tool.migrate;

import io.zkgroups.registry.model.TopicAndPartition;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * {@code migrate verify} for one group: each partition's source and target offset and whether they agree.
 * Pure. A partition diverges when its target is missing, or differs from the source by more than
 * {@code tolerance}. Partitions only the target has, partitions that no longer exist in the cluster and
 * negative source offsets are listed but do not diverge (nothing could be copied for them).
 */
public record VerifyReport(String group, Direction direction, long tolerance, List<Row> rows) {

    /** One partition. */
    public record Row(PartitionComparison comparison, boolean divergent) {
        public TopicAndPartition partition() {
            return comparison.partition();
        }

        /** A short word for tables and JSON: {@code ok}, {@code missing}, {@code behind}, {@code ahead}, ... */
        public String status() {
            return switch (comparison.relation()) {
                case EQUAL -> "ok";
                case TARGET_MISSING -> "missing";
                case TARGET_BEHIND -> divergent ? "behind" : "within-tolerance";
                case TARGET_AHEAD -> divergent ? "ahead" : "within-tolerance";
                case TARGET_ONLY -> "target-only";
                case SOURCE_INVALID -> "invalid-source";
                case NO_SUCH_PARTITION -> "no-such-partition";
            };
        }
    }

    public VerifyReport {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(direction, "direction");
        if (tolerance < 0) {
            throw new IllegalArgumentException("tolerance must be >= 0, got " + tolerance);
        }
        rows = List.copyOf(rows);
    }

    public static VerifyReport compute(String group, Direction direction, Map<TopicAndPartition, Long> source,
                                       Map<TopicAndPartition, Long> target, Collection<TopicAndPartition> existing,
                                       long tolerance) {
        List<Row> rows = PartitionComparison.compare(source, target, existing).stream()
                .map(c -> new Row(c, divergent(c, tolerance)))
                .toList();
        return new VerifyReport(group, direction, tolerance, rows);
    }

    private static boolean divergent(PartitionComparison c, long tolerance) {
        return switch (c.relation()) {
            case EQUAL, TARGET_ONLY, SOURCE_INVALID, NO_SUCH_PARTITION -> false;
            case TARGET_MISSING -> true;
            case TARGET_BEHIND, TARGET_AHEAD -> Math.abs(c.difference()) > tolerance;
        };
    }

    public long divergentCount() {
        return rows.stream().filter(Row::divergent).count();
    }

    public boolean isClean() {
        return divergentCount() == 0;
    }
}
