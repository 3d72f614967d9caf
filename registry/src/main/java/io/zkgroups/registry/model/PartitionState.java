package io.zkgroups.registry.model;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import io.zkgroups.registry.Immutable;

import java.util.List;
import java.util.Objects;

/**
 * Leader and ISR of a partition ({@code /brokers/topics/T/partitions/P/state}), written by the controller.
 * {@code leader == -1} means no leader.
 */
@JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY) // JSON output (CLI) shows the fields
public final class PartitionState {
    private final int controllerEpoch;
    private final int leader;
    private final int leaderEpoch;
    private final List<Integer> isr;

    public PartitionState(int controllerEpoch, int leader, int leaderEpoch, List<Integer> isr) {
        isr = Immutable.list(isr);
        this.controllerEpoch = controllerEpoch;
        this.leader = leader;
        this.leaderEpoch = leaderEpoch;
        this.isr = isr;
    }

    public boolean hasLeader() {
        return leader >= 0;
    }

    public int controllerEpoch() {
        return controllerEpoch;
    }

    public int leader() {
        return leader;
    }

    public int leaderEpoch() {
        return leaderEpoch;
    }

    public List<Integer> isr() {
        return isr;
    }

    @Override
    public boolean equals(Object o) {
        if (o == this) {
            return true;
        }
        if (!(o instanceof PartitionState)) {
            return false;
        }
        PartitionState that = (PartitionState) o;
        return controllerEpoch == that.controllerEpoch
                && leader == that.leader
                && leaderEpoch == that.leaderEpoch
                && Objects.equals(isr, that.isr);
    }

    @Override
    public int hashCode() {
        int h = 0;
        h = 31 * h + Integer.hashCode(controllerEpoch);
        h = 31 * h + Integer.hashCode(leader);
        h = 31 * h + Integer.hashCode(leaderEpoch);
        h = 31 * h + Objects.hashCode(isr);
        return h;
    }

    @Override
    public String toString() {
        return "PartitionState[controllerEpoch=" + controllerEpoch + ", leader=" + leader + ", leaderEpoch=" + leaderEpoch + ", isr=" + isr + "]";
    }
}
