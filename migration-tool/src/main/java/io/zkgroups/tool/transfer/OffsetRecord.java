package io.zkgroups.tool.transfer;

import io.zkgroups.registry.ZkNames;
import io.zkgroups.registry.model.TopicAndPartition;

import java.util.Objects;

/** One offset of one group: the next offset to consume of a partition. */
public record OffsetRecord(String group, TopicAndPartition partition, long offset) {

    public OffsetRecord {
        ZkNames.requireValid("group id", group);
        Objects.requireNonNull(partition, "partition");
    }
}
