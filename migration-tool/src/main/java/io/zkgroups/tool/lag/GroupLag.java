package io.zkgroups.tool.lag;

import java.util.List;

/**
 * A group's lag and status as {@code zkgroups lag} and the exporter show it.
 *
 * @param status     the worst status of its partitions ({@link LagStatus#worst})
 * @param totalLag   the sum of the partitions' lag; null when Kafka did not answer
 * @param samples    how many samples the evaluation covered (the longest partition window)
 * @param unreadable znodes of the group that could not be read
 * @param maxLagSeconds the largest of the partitions' lag in seconds; null when none is known
 * @param alarmedMembers registered zkgroups members that publish partitions they cannot fetch or resume
 *                       (docs/kafka-outage.md)
 * @param coordinator {@code zookeeper} or {@code kafka}: which coordinator holds the group (docs/cutover.md); for a
 *                    group on Kafka, {@code members} counts Kafka's group's members
 */
public record GroupLag(String group, LagStatus status, String phase, String phaseEvidence, int members, Long totalLag,
                       int samples, List<PartitionLag> partitions, List<String> unreadable, Double maxLagSeconds,
                       List<String> alarmedMembers, String coordinator) {

    public GroupLag {
        partitions = List.copyOf(partitions);
        unreadable = List.copyOf(unreadable);
        alarmedMembers = List.copyOf(alarmedMembers);
    }

    /**
     * One partition; null values are unknown or absent.
     *
     * @param offset        the offset the group reads (ZooKeeper's, Kafka's, or the larger in dual commit)
     * @param lag           {@code logEnd - offset}
     * @param zookeeperLag  {@code logEnd -} ZooKeeper's offset
     * @param kafkaLag      {@code logEnd -} Kafka's offset
     * @param owner         the owner znode's thread id
     * @param ownerLive     whether the owner is a registered member's thread
     * @param status        the evaluation over the window; null when not evaluated (no offset, or no log offsets)
     * @param reason        why, in words
     * @param lagSeconds    the age of the record at {@code offset} (the next to consume) at the sample: 0 when there is
     *                      nothing to consume; null when unknown. It keeps growing while nobody commits.
     * @param lagSecondsSource how the record's time is known: {@code caught-up}, {@code timestamp} (the record's own),
     *                      {@code interpolated} (from log end samples) or {@code at-least} (older than every sample)
     * @param commitAgeSeconds time since {@code offset} was committed: a ZooKeeper offset's mtime, else the first sample
     *                      that saw a Kafka offset at this value
     */
    public record PartitionLag(String topic, int partition, Long zookeeperOffset, Long kafkaOffset, Long offset,
                               Long logStart, Long logEnd, Long lag, Long zookeeperLag, Long kafkaLag, String owner,
                               boolean ownerLive, LagStatus status, String reason, Double lagSeconds,
                               String lagSecondsSource, Double commitAgeSeconds) {
    }
}
