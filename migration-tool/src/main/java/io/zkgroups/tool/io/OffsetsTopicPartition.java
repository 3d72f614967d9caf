package io.zkgroups.tool.io;

import org.apache.kafka.common.utils.Utils;

/**
 * The partition of {@code __consumer_offsets} where Kafka keeps a group's commits, as the brokers describe it: a commit
 * is stored only while it has a leader and at least {@code min.insync.replicas} replicas in sync (the coordinator
 * writes commits with {@code acks=all}).
 *
 * @param leader    the leader's {@code host:port}, or null when it has none
 * @param minInSync the topic's {@code min.insync.replicas}
 */
public record OffsetsTopicPartition(int partition, String leader, int inSync, int replicas, int minInSync) {

    public static final String TOPIC = "__consumer_offsets";

    /** The partition of a topic of {@code partitions} that holds {@code group}'s commits, as the brokers place it. */
    public static int partitionFor(String group, int partitions) {
        return Utils.abs(group.hashCode()) % partitions;
    }

    /** Whether a commit of the group can be stored now. */
    public boolean writable() {
        return leader != null && inSync >= minInSync;
    }

    /** What was found, in words. */
    public String describe() {
        return TOPIC + "-" + partition + (leader == null ? " has no leader" : " led by " + leader) + ", " + inSync + " of "
                + replicas + " replicas in sync (min.insync.replicas " + minInSync + ")";
    }
}
