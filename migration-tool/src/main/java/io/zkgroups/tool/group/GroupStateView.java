package io.zkgroups.tool.group;

/**
 * {@code groups describe --state}, as Kafka's {@code --describe --state}. A ZooKeeper group has no coordinator
 * broker: its members coordinate through the ZooKeeper ensemble, under the group's znode, so those are shown in its
 * place; a group moved to Kafka's coordinator (docs/cutover.md) shows its coordinator broker. Pure.
 *
 * @param ownedPartitions partitions with an owner znode, of {@code partitions} (subscribed, or with an offset/owner)
 */
public record GroupStateView(String group, String state, int members, String strategy, String strategyReason,
                             String phase, String phaseEvidence, int ownedPartitions, int partitions,
                             Coordinator coordinator) {

    /**
     * Where the group is coordinated: {@code type} {@code zookeeper} or {@code kafka}; the ZooKeeper connect string
     * (with chroot) and the group's znode in it (for a group on Kafka, where its fence owner znodes are); for a group
     * on Kafka its coordinator broker.
     */
    public record Coordinator(String type, String zookeeper, String znode, String broker) {
        @Override
        public String toString() {
            return type.equals("kafka") ? "kafka " + (broker == null ? "(no coordinator broker)" : broker)
                    + " (fences: " + znode + "/owners)" : zookeeper + " " + znode;
        }
    }

    public static GroupStateView of(GroupDescription d, String zookeeper) {
        int owned = (int) d.partitions().stream().filter(p -> p.owner() != null).count();
        return new GroupStateView(d.group(), d.state(), d.members().size(), d.strategy(), d.strategyReason(), d.phase(),
                d.phaseEvidence(), owned, d.partitions().size(), new Coordinator(d.coordinator(), zookeeper,
                "/consumers/" + d.group(), d.coordinatorBroker()));
    }
}
