package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.Time;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.Subscription;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PhaseMachineTest {

    private final List<String> moves = new ArrayList<>();
    private final PhaseMachine phases = new PhaseMachine(new MemberContext(GroupMemberConfig.of("g", ConsumerId.ofOverride("g", "m"),
            Subscription.topics(Map.of("t", 1))), Time.SYSTEM),
            (from, to) -> moves.add(from + "->" + to));

    private void walk(MemberPhase... path) {
        for (MemberPhase next : path) {
            assertThat(phases.moveTo(next)).as("move to %s", next).isTrue();
        }
    }

    @Test
    void aJoinWalksThePhasesAndShowsTheStatesUsersKnow() {
        assertThat(phases.shown()).isEqualTo(MemberState.LATENT);
        walk(MemberPhase.JOINING);
        assertThat(phases.shown()).as("a first join is a rebalance").isEqualTo(MemberState.REBALANCING);
        walk(MemberPhase.READING, MemberPhase.REVOKING, MemberPhase.CLAIMING);
        assertThat(phases.shown()).isEqualTo(MemberState.REBALANCING);
        walk(MemberPhase.STABLE);
        assertThat(phases.shown()).isEqualTo(MemberState.STABLE);
        assertThat(moves).containsExactly("LATENT->JOINING", "JOINING->READING", "READING->REVOKING",
                "REVOKING->CLAIMING", "CLAIMING->STABLE");
    }

    @Test
    void readingKeepsWhatWasShownUntilSomethingMustChange() {
        walk(MemberPhase.JOINING, MemberPhase.READING, MemberPhase.REVOKING, MemberPhase.CLAIMING,
                MemberPhase.STABLE, MemberPhase.READING);
        assertThat(phases.shown()).isEqualTo(MemberState.STABLE);
        walk(MemberPhase.SESSION_LOST, MemberPhase.JOINING, MemberPhase.READING);
        assertThat(phases.shown()).isEqualTo(MemberState.SESSION_LOST);
        walk(MemberPhase.REVOKING);
        assertThat(phases.shown()).isEqualTo(MemberState.REBALANCING);
    }

    @Test
    void aClaimWaitsForPreviousOwnersAndThenClaims() {
        walk(MemberPhase.JOINING, MemberPhase.READING, MemberPhase.REVOKING, MemberPhase.CLAIMING,
                MemberPhase.AWAITING_OWNERS, MemberPhase.CLAIMING, MemberPhase.AWAITING_OWNERS,
                MemberPhase.AWAITING_OWNERS, MemberPhase.CLAIMING, MemberPhase.STABLE);
        assertThat(moves).as("staying in a phase is no move").hasSize(9);
    }

    @Test
    void illegalMovesOfALiveMemberAreBugs() {
        assertThatThrownBy(() -> phases.moveTo(MemberPhase.STABLE)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("LATENT").hasMessageContaining("STABLE");
        walk(MemberPhase.JOINING);
        for (MemberPhase skipped : EnumSet.of(MemberPhase.REVOKING, MemberPhase.CLAIMING, MemberPhase.STABLE,
                MemberPhase.AWAITING_OWNERS, MemberPhase.LATENT, MemberPhase.CLOSED)) {
            assertThatThrownBy(() -> phases.moveTo(skipped)).as("JOINING -> %s", skipped)
                    .isInstanceOf(IllegalStateException.class);
        }
        walk(MemberPhase.READING);
        assertThatThrownBy(() -> phases.moveTo(MemberPhase.CLAIMING)).as("a claim is never sent before revoking")
                .isInstanceOf(IllegalStateException.class);
        assertThat(phases.phase()).isEqualTo(MemberPhase.READING);
        assertThat(moves).containsExactly("LATENT->JOINING", "JOINING->READING");
    }

    @Test
    void everyPhaseOfAStartedMemberCanLoseItsSessionBeRefusedOrEnd() {
        Set<MemberPhase> live = EnumSet.range(MemberPhase.JOINING, MemberPhase.SESSION_LOST);
        for (MemberPhase phase : live) {
            for (MemberPhase always : EnumSet.of(MemberPhase.SESSION_LOST, MemberPhase.REFUSED, MemberPhase.LEAVING,
                    MemberPhase.HANDING_OVER)) {
                assertThat(phase.canMoveTo(always) || phase == always).as("%s -> %s", phase, always).isTrue();
            }
        }
        for (MemberPhase phase : MemberPhase.values()) {
            assertThat(phase.canMoveTo(MemberPhase.LATENT)).as("%s -> LATENT", phase).isFalse();
        }
    }

    @Test
    void aMemberThatEndedIgnoresTheMovesOfAnAttemptStillRunning() {
        walk(MemberPhase.JOINING, MemberPhase.READING);
        assertThat(phases.move(p -> p.isEnding() ? null : MemberPhase.LEAVING)).isEqualTo(MemberPhase.READING);
        assertThat(phases.shown()).isEqualTo(MemberState.CLOSED);
        assertThat(phases.moveTo(MemberPhase.REVOKING)).isFalse();
        assertThat(phases.moveTo(MemberPhase.STABLE)).isFalse();
        assertThat(phases.move(p -> p.isEnding() ? null : MemberPhase.LEAVING)).as("closed twice").isNull();
        walk(MemberPhase.CLOSED);
        assertThat(phases.moveTo(MemberPhase.JOINING)).isFalse();
        assertThat(moves).containsExactly("LATENT->JOINING", "JOINING->READING", "READING->LEAVING", "LEAVING->CLOSED");
    }

    @Test
    void aRefusedMemberCanOnlyClose() {
        walk(MemberPhase.JOINING, MemberPhase.REFUSED);
        assertThat(phases.moveTo(MemberPhase.READING)).isFalse();
        assertThat(phases.shown()).isEqualTo(MemberState.REFUSED);
        walk(MemberPhase.LEAVING, MemberPhase.CLOSED);
    }

    @Test
    void aMemberNeverStartedClosesAtOnce() {
        walk(MemberPhase.CLOSED);
        assertThat(phases.shown()).isEqualTo(MemberState.CLOSED);
        assertThat(phases.moveTo(MemberPhase.JOINING)).isFalse();
    }
}
