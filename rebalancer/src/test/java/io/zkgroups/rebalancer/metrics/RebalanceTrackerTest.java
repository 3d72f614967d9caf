package io.zkgroups.rebalancer.metrics;

import io.zkgroups.rebalancer.group.MemberHealth;
import io.zkgroups.rebalancer.group.MemberState;
import org.junit.jupiter.api.Test;

import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

class RebalanceTrackerTest {

    private final RebalanceTracker tracker = new RebalanceTracker();

    private static MemberHealth health(MemberState state, long generation) {
        return new MemberHealth(state, generation, Collections.emptySortedSet(), List.of(), Optional.empty(), 0,
                Optional.empty(), List.of(), List.of(), Collections.emptySortedSet());
    }

    @Test
    void theFirstRebalanceRunsFromJoiningUntilTheFirstGeneration() {
        tracker.joining(1_000);
        assertThat(tracker.update(health(MemberState.REBALANCING, 0), 1_100)).isEqualTo(RebalanceTracker.Events.NONE);
        assertThat(tracker.update(health(MemberState.STABLE, 1), 1_500).rebalanceMillis()).isEqualTo(OptionalLong.of(500));
    }

    @Test
    void laterRebalancesRunFromLeavingTheStableState() {
        tracker.joining(0);
        tracker.update(health(MemberState.STABLE, 1), 100);
        tracker.update(health(MemberState.REBALANCING, 1), 2_000);
        assertThat(tracker.update(health(MemberState.STABLE, 2), 2_300).rebalanceMillis()).isEqualTo(OptionalLong.of(300));
        // a health change while stable (an alarm, say) is no rebalance
        assertThat(tracker.update(health(MemberState.STABLE, 2), 2_400)).isEqualTo(RebalanceTracker.Events.NONE);
    }

    @Test
    void aLostSessionIsCountedOnceAndItsRebalanceIncludesTheOutage() {
        tracker.joining(0);
        tracker.update(health(MemberState.STABLE, 1), 100);
        RebalanceTracker.Events lost = tracker.update(health(MemberState.SESSION_LOST, 1), 3_000);
        assertThat(lost.sessionLost()).isTrue();
        assertThat(tracker.update(health(MemberState.SESSION_LOST, 1), 3_050).sessionLost()).isFalse();
        tracker.update(health(MemberState.REBALANCING, 1), 3_100);
        RebalanceTracker.Events back = tracker.update(health(MemberState.STABLE, 2), 4_000);
        assertThat(back.rebalanceMillis()).isEqualTo(OptionalLong.of(1_000));
        assertThat(back.sessionLost()).isFalse();
    }

    @Test
    void aNewMemberStartsItsGenerationsAgain() {
        tracker.joining(0);
        tracker.update(health(MemberState.STABLE, 3), 10);
        tracker.update(health(MemberState.CLOSED, 3), 20);
        tracker.joining(1_000);
        assertThat(tracker.update(health(MemberState.STABLE, 1), 1_200).rebalanceMillis()).isEqualTo(OptionalLong.of(200));
    }
}
