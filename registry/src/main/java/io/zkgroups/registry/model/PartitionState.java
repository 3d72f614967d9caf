package io.zkgroups.registry.model;

import java.util.List;

/**
 * Leader and ISR of a partition ({@code /brokers/topics/T/partitions/P/state}), written by the controller.
 * {@code leader == -1} means no leader.
 */
public record PartitionState(int controllerEpoch, int leader, int leaderEpoch, List<Integer> isr) {

    public PartitionState {
        isr = List.copyOf(isr);
    }

    public boolean hasLeader() {
        return leader >= 0;
    }
}
