package io.zkgroups.registry;

import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.TopicAndPartition;

import java.util.Objects;

/**
 * The one place that knows the Kafka 0.8 znode layout (docs/compatibility.md#znode-layout). Every name that
 * becomes a path segment is validated ({@link ZkNames}), so no caller can build a path that escapes its group.
 * <p>
 * A chroot given here is prepended to every path; leave it empty when the chroot is already part of the
 * ZooKeeper connect string (the usual case: {@code zk1:2181/kafka}).
 */
public final class ZkLayout {

    private static final ZkLayout ROOT = new ZkLayout("");

    private final String chroot;

    private ZkLayout(String chroot) {
        this.chroot = chroot;
    }

    /** The layout at the root of the ZooKeeper namespace the client sees. */
    public static ZkLayout root() {
        return ROOT;
    }

    /** The layout below {@code chroot} (e.g. {@code /kafka}); {@code ""} or {@code "/"} mean the root. */
    public static ZkLayout withChroot(String chroot) {
        Objects.requireNonNull(chroot, "chroot cannot be null");
        if (chroot.isEmpty() || chroot.equals("/")) {
            return ROOT;
        }
        if (!chroot.startsWith("/") || chroot.endsWith("/") || chroot.contains("//")) {
            throw new IllegalArgumentException("invalid chroot '" + chroot
                    + "': it must start with '/', not end with '/' and have no empty segments");
        }
        for (String segment : chroot.substring(1).split("/")) {
            ZkNames.requireValid("chroot segment", segment);
        }
        return new ZkLayout(chroot);
    }

    public String chroot() {
        return chroot;
    }

    // --- brokers -------------------------------------------------------------------------------------

    public String brokers() {
        return chroot + "/brokers";
    }

    public String brokerIds() {
        return chroot + "/brokers/ids";
    }

    public String broker(int brokerId) {
        if (brokerId < 0) {
            throw new IllegalArgumentException("broker id must be >= 0, got " + brokerId);
        }
        return brokerIds() + "/" + brokerId;
    }

    public String topics() {
        return chroot + "/brokers/topics";
    }

    public String topic(String topic) {
        return topics() + "/" + ZkNames.requireValid("topic", topic);
    }

    public String topicPartitions(String topic) {
        return topic(topic) + "/partitions";
    }

    public String partitionState(String topic, int partition) {
        return topicPartitions(topic) + "/" + requirePartition(partition) + "/state";
    }

    // --- consumer groups -----------------------------------------------------------------------------

    public String consumers() {
        return chroot + "/consumers";
    }

    public String group(String group) {
        return consumers() + "/" + ZkNames.requireValid("group id", group);
    }

    public String memberIds(String group) {
        return group(group) + "/ids";
    }

    public String member(String group, ConsumerId consumerId) {
        return memberIds(group) + "/" + consumerId.value();
    }

    public String owners(String group) {
        return group(group) + "/owners";
    }

    public String owners(String group, String topic) {
        return owners(group) + "/" + ZkNames.requireValid("topic", topic);
    }

    public String owner(String group, TopicAndPartition tp) {
        return owners(group, tp.topic()) + "/" + requirePartition(tp.partition());
    }

    public String offsets(String group) {
        return group(group) + "/offsets";
    }

    public String offsets(String group, String topic) {
        return offsets(group) + "/" + ZkNames.requireValid("topic", topic);
    }

    public String offset(String group, TopicAndPartition tp) {
        return offsets(group, tp.topic()) + "/" + requirePartition(tp.partition());
    }

    // --- zkgroups' own znodes (0.8.2.2 never reads them) ---------------------------------------------------

    /** Where zkgroups members publish what they cannot do now, one ephemeral znode per member with alarms. */
    public String memberAlarms(String group) {
        return group(group) + "/zkgroups-alarms";
    }

    public String memberAlarm(String group, ConsumerId consumerId) {
        return memberAlarms(group) + "/" + consumerId.value();
    }

    /**
     * Which coordinator the group runs on ({@code zkgroups migrate coordination}): a zkgroups-only znode beside
     * {@code ids}, {@code owners} and {@code offsets}, which 0.8.2.2 consumers never read.
     */
    public String coordination(String group) {
        return group(group) + "/zkgroups-coordination";
    }

    // --- tools -------------------------------------------------------------------------------------------

    /**
     * The audit journal of {@code group}'s offset changes made by tools: persistent-sequential entries under
     * {@code /zkgroups/audit/G}, outside {@code /consumers} (0.8.2.2 never looks there, and deleting a group keeps its
     * audit).
     */
    public String audit(String group) {
        return chroot + "/zkgroups/audit/" + ZkNames.requireValid("group id", group);
    }

    /**
     * Name prefix of the ephemeral-sequential znode a tool creates and deletes at once to read ZooKeeper's clock
     * (the znode's ctime): mtimes are compared with ZooKeeper's time, never with the local clock.
     */
    public String clockProbe() {
        return chroot + "/zkgroups-clock-";
    }

    /**
     * The history journal of {@code group} (joins, leaves, rebalances, ownership moves, ... as a watcher saw them):
     * persistent-sequential entries under {@code /zkgroups/history/G}, beside the {@link #audit audit journal}.
     */
    public String history(String group) {
        return chroot + "/zkgroups/history/" + ZkNames.requireValid("group id", group);
    }

    /** Parses a partition znode name ({@code "0"}, {@code "12"}); empty for anything else. */
    public static java.util.OptionalInt parsePartition(String name) {
        if (name == null || name.isEmpty() || name.length() > 10) {
            return java.util.OptionalInt.empty();
        }
        for (int i = 0; i < name.length(); i++) { // a loop, not a stream: a topic's registration has thousands
            if (name.charAt(i) < '0' || name.charAt(i) > '9') {
                return java.util.OptionalInt.empty();
            }
        }
        long value = Long.parseLong(name);
        if (value > Integer.MAX_VALUE || (name.length() > 1 && name.charAt(0) == '0')) {
            return java.util.OptionalInt.empty();
        }
        return java.util.OptionalInt.of((int) value);
    }

    private static int requirePartition(int partition) {
        if (partition < 0) {
            throw new IllegalArgumentException("partition must be >= 0, got " + partition);
        }
        return partition;
    }

    @Override
    public String toString() {
        return "ZkLayout[" + (chroot.isEmpty() ? "/" : chroot) + "]";
    }
}
