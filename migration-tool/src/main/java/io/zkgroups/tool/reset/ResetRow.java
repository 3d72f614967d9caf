package io.zkgroups.tool.reset;

import io.zkgroups.registry.model.TopicAndPartition;

/**
 * One partition of a reset plan.
 *
 * @param current    the offset a member would start from now (see {@link ResetPlanner})
 * @param target     the new offset, null when the partition is skipped
 * @param writeZk    ZooKeeper gets {@code target}
 * @param writeKafka Kafka gets {@code target}
 * @param note       why the target differs from the request (clamped, skipped, unchanged), or empty
 */
public record ResetRow(TopicAndPartition partition, Long zk, Long kafka, Long earliest, Long latest, Long current,
                       Long target, boolean writeZk, boolean writeKafka, String note) {

    public boolean writes() {
        return writeZk || writeKafka;
    }
}
