package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.Immutable;
import io.zkgroups.registry.Time;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.store.Unreadable;

import java.time.Instant;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.SortedSet;

/**
 * What a {@link ZkGroupMember}'s rebalance attempts add up to: the generation, the failures in a row, the last error,
 * why the member rebalanced, and the malformed registrations its last read found. The attempt writes it on the event
 * loop; {@link #health} is the one place its fields become a {@link MemberHealth}.
 */
final class RebalanceRecord {

    private final Time time;
    private long generation;
    private int failures;
    private Instant stableSince;
    private List<RebalanceCause> lastCauses = Collections.emptyList();
    /** Causes seen since the last successful attempt: a success reports all of them. */
    private final LinkedHashSet<RebalanceCause> causesSinceSuccess = new LinkedHashSet<>();
    private String lastError;
    private List<Unreadable> malformed = Collections.emptyList();

    /** @param time what {@code stableSince} is read from */
    RebalanceRecord(Time time) {
        this.time = time;
    }

    /** {@code causes} are among the reasons of the rebalance in progress. */
    void saw(Collection<RebalanceCause> causes) {
        causesSinceSuccess.addAll(causes);
    }

    /** Nothing that matters changed: the causes seen so far made no rebalance. */
    void unchanged() {
        causesSinceSuccess.clear();
    }

    /** An attempt succeeded: returns the new generation. */
    long succeeded() {
        lastCauses = Immutable.list(causesSinceSuccess);
        causesSinceSuccess.clear();
        generation++;
        failures = 0;
        lastError = null;
        stableSince = time.instant();
        return generation;
    }

    /** An attempt failed with {@code error}: returns how many failed in a row. */
    int failed(String error) {
        failures++;
        lastError = error;
        return failures;
    }

    /** Shows {@code error} without counting a failure (a wait, a refusal). */
    void error(String error) {
        lastError = error;
    }

    int failures() {
        return failures;
    }

    List<Unreadable> malformed() {
        return malformed;
    }

    void malformed(List<Unreadable> unreadableRegistrations) {
        malformed = unreadableRegistrations;
    }

    /** The member's health: this record with what the member knows besides, read in the order the fields appear. */
    MemberHealth health(MemberState state, SortedSet<TopicAndPartition> owned, List<Unreadable> alarms,
                        PreviousOwnerWait previousOwners) {
        return new MemberHealth(state, generation, owned, lastCauses, Optional.ofNullable(lastError), failures,
                Optional.ofNullable(stableSince), malformed, alarms, previousOwners.awaitingRelease());
    }
}
