package io.zkgroups.tool.lag;

import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.store.Unreadable;
import io.zkgroups.tool.group.MigrationPhase;
import io.zkgroups.tool.group.PhaseInference;
import io.zkgroups.tool.reset.PartitionFacts;
import io.zkgroups.tool.reset.ResetPlanner;

import java.time.Instant;
import java.util.List;

/**
 * One group at one moment, as {@link GroupSampler} read it.
 *
 * @param at            ZooKeeper's time of the read
 * @param members       registered members
 * @param phase         where the group's offsets are written (decides which offset it reads)
 * @param partitions    every partition with an offset in either store or an owner
 * @param unreadable    znodes of the group that could not be read
 * @param kafkaQueried  whether Kafka answered (offsets and log offsets are known)
 * @param memberIds     the registered members' consumer ids
 * @param alarmed       the registered zkgroups members that publish alarms (partitions they cannot fetch or resume)
 * @param coordinator   {@code zookeeper} or {@code kafka}: which coordinator holds the group (its decision znode); for
 *                      a group on Kafka, {@code members} and {@code memberIds} are Kafka's group's (their member ids)
 */
public record GroupSample(String group, Instant at, int members, PhaseInference.Result phase,
                          List<PartitionRead> partitions, List<Unreadable> unreadable, boolean kafkaQueried,
                          List<String> memberIds, List<String> alarmed, String coordinator) {

    public GroupSample {
        partitions = List.copyOf(partitions);
        unreadable = List.copyOf(unreadable);
        memberIds = List.copyOf(memberIds);
        alarmed = List.copyOf(alarmed);
    }

    /** A sample of a group on ZooKeeper's coordination. */
    public GroupSample(String group, Instant at, int members, PhaseInference.Result phase, List<PartitionRead> partitions,
                       List<Unreadable> unreadable, boolean kafkaQueried, List<String> memberIds, List<String> alarmed) {
        this(group, at, members, phase, partitions, unreadable, kafkaQueried, memberIds, alarmed, "zookeeper");
    }

    /** A sample in which no member publishes alarms. */
    public GroupSample(String group, Instant at, int members, PhaseInference.Result phase, List<PartitionRead> partitions,
                       List<Unreadable> unreadable, boolean kafkaQueried, List<String> memberIds) {
        this(group, at, members, phase, partitions, unreadable, kafkaQueried, memberIds, List.of());
    }

    /** A sample whose members' ids are not known. */
    public GroupSample(String group, Instant at, int members, PhaseInference.Result phase, List<PartitionRead> partitions,
                       List<Unreadable> unreadable, boolean kafkaQueried) {
        this(group, at, members, phase, partitions, unreadable, kafkaQueried, List.of());
    }

    /** This sample with {@code partitions} instead of its own. */
    public GroupSample withPartitions(List<PartitionRead> partitions) {
        return new GroupSample(group, at, members, phase, partitions, unreadable, kafkaQueried, memberIds, alarmed,
                coordinator);
    }

    /** Whether the group exists at all: a member, an owner or an offset in either store. */
    public boolean isKnown() {
        return members > 0 || !partitions.isEmpty();
    }

    /**
     * One partition as read; null values are absent or unknown.
     *
     * @param owner     the owner znode's thread id
     * @param ownerLive whether that thread is a registered member's; for a group on Kafka, whether Kafka's group assigns
     *                  the partition to a member
     * @param written   when the record at the offset the group reads was written ({@link RecordTimes}); null when
     *                  unknown or when there is nothing to consume
     */
    public record PartitionRead(TopicAndPartition partition, Long zookeeperOffset, Instant zookeeperMtime, Long kafkaOffset,
                                Long logStart, Long logEnd, String owner, boolean ownerLive, RecordTimes.Written written) {

        /** A read with no record time known. */
        public PartitionRead(TopicAndPartition partition, Long zookeeperOffset, Instant zookeeperMtime, Long kafkaOffset,
                             Long logStart, Long logEnd, String owner, boolean ownerLive) {
            this(partition, zookeeperOffset, zookeeperMtime, kafkaOffset, logStart, logEnd, owner, ownerLive, null);
        }

        /** This read with {@code written} as the record time. */
        public PartitionRead withWritten(RecordTimes.Written written) {
            return new PartitionRead(partition, zookeeperOffset, zookeeperMtime, kafkaOffset, logStart, logEnd, owner,
                    ownerLive, written);
        }

        /** The offset the group resumes from in {@code phase}: ZooKeeper's, Kafka's, or the larger in dual commit. */
        public Long offset(MigrationPhase phase) {
            return ResetPlanner.currentOffset(new PartitionFacts(partition, zookeeperOffset, kafkaOffset, null, null, null), phase);
        }

        /** This read as a sample for {@link LagEvaluator}; null when the log offsets are unknown. */
        public PartitionSample sample(Instant at, MigrationPhase phase) {
            if (logStart == null || logEnd == null) {
                return null;
            }
            Long offset = offset(phase);
            Instant committedAt = offset != null && offset.equals(zookeeperOffset) ? zookeeperMtime : null;
            return new PartitionSample(at, offset, committedAt, logStart, logEnd, ownerLive);
        }

        /** {@code logEnd - offset}, never negative; null when either is unknown. */
        public static Long lag(Long offset, Long logEnd) {
            return offset == null || logEnd == null ? null : Math.max(0, logEnd - offset);
        }
    }
}
