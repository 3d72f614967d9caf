package io.zkgroups.kafka08;

import org.apache.kafka.common.TopicPartition;

/** Which stream a partition's records go to, given the consumer thread {@code CID-k} the group assigned it to. */
@FunctionalInterface
public interface StreamRouting {

    /**
     * @throws IllegalStateException if this connector has no such stream (the group's assignment disagrees with the
     *                               registration: a bug)
     */
    StreamChannel channelFor(TopicPartition partition, int thread);
}
