package io.zkgroups.registry.model;

import java.util.Objects;

/**
 * The decision {@code zkgroups migrate coordination} records for a group: which coordinator its members follow, and
 * when that was decided (milliseconds since the epoch, as the tool's clock read it). A value.
 */
public final class CoordinationDecision {

    private final Coordinator coordinator;
    private final long decidedAtMillis;

    public CoordinationDecision(Coordinator coordinator, long decidedAtMillis) {
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator cannot be null");
        this.decidedAtMillis = decidedAtMillis;
    }

    public Coordinator coordinator() {
        return coordinator;
    }

    public long decidedAtMillis() {
        return decidedAtMillis;
    }

    @Override
    public boolean equals(Object o) {
        if (o == this) {
            return true;
        }
        if (!(o instanceof CoordinationDecision)) {
            return false;
        }
        CoordinationDecision that = (CoordinationDecision) o;
        return coordinator == that.coordinator && decidedAtMillis == that.decidedAtMillis;
    }

    @Override
    public int hashCode() {
        return 31 * coordinator.hashCode() + Long.hashCode(decidedAtMillis);
    }

    @Override
    public String toString() {
        return "CoordinationDecision[coordinator=" + coordinator.label() + ", decidedAt=" + decidedAtMillis + "]";
    }
}
