package io.zkgroups.tool.reset;

import io.zkgroups.registry.model.TopicAndPartition;

import java.util.Objects;

/**
 * What the reset planner knows about one partition; any value may be null when unknown or absent.
 *
 * @param zk          offset in ZooKeeper
 * @param kafka       offset in Kafka
 * @param earliest    log start offset
 * @param latest      log end offset
 * @param atTimestamp first offset at or after the reset's timestamp (only for {@code ToTimestamp}; null when
 *                    no message is that recent)
 */
public record PartitionFacts(TopicAndPartition partition, Long zk, Long kafka, Long earliest, Long latest,
                             Long atTimestamp) {

    public PartitionFacts {
        Objects.requireNonNull(partition, "partition");
    }
}
