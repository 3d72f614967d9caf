package io.zkgroups.tool.reset;

import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.tool.group.MigrationPhase;
import io.zkgroups.tool.group.Store;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What {@code offsets reset} will write: per partition the current offsets, the target, and which stores
 * get it; plus the rule that chose the stores, in words (printed with the plan).
 */
public record ResetPlan(String group, String strategy, MigrationPhase phase, String storeRule, List<ResetRow> rows) {

    public ResetPlan {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(strategy, "strategy");
        Objects.requireNonNull(phase, "phase");
        Objects.requireNonNull(storeRule, "storeRule");
        rows = List.copyOf(rows);
    }

    /** The offsets to write to {@code store}. */
    public Map<TopicAndPartition, Long> writes(Store store) {
        Map<TopicAndPartition, Long> writes = new TreeMap<>();
        for (ResetRow row : rows) {
            if (store == Store.ZOOKEEPER ? row.writeZk() : row.writeKafka()) {
                writes.put(row.partition(), row.target());
            }
        }
        return writes;
    }

    public boolean isNoop() {
        return rows.stream().noneMatch(ResetRow::writes);
    }
}
