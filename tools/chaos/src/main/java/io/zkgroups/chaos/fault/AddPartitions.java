package io.zkgroups.chaos.fault;

import io.zkgroups.chaos.cluster.ChaosCluster;

import java.util.Random;

/** One more partition for the topic (up to twice the initial count): the members must rebalance onto it. */
final class AddPartitions implements Fault {

    @Override
    public String name() {
        return "add-partitions";
    }

    @Override
    public String description() {
        return "grow the topic by one partition (up to twice its initial count): members see /brokers/topics change "
                + "and rebalance; the producer writes to it at once";
    }

    @Override
    public String inject(ChaosCluster cluster, Random random) {
        if (cluster.partitions() >= 2 * cluster.settings().partitions()) {
            return "topic already has " + cluster.partitions() + " partitions: nothing added";
        }
        cluster.addPartitions(1);
        return "grew the topic to " + cluster.partitions() + " partitions";
    }
}
