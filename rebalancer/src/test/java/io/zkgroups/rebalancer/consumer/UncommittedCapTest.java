package io.zkgroups.rebalancer.consumer;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class UncommittedCapTest {

    private final UncommittedCap cap = new UncommittedCap(100);

    @Test
    void aBatchIsCutWhereItWouldGoPastTheCapFromTheLastCommit() {
        assertThat(cap.allowed(500L, 560, 150)).as("committed 500: 560-599 may go out").isEqualTo(40);
        assertThat(cap.allowed(500L, 500, 80)).isEqualTo(80);
        assertThat(cap.allowed(500L, 600, 10)).as("at the cap").isZero();
        assertThat(cap.allowed(500L, 700, 10)).as("past it (a seek forward)").isZero();
    }

    @Test
    void recordsBeforeTheCommitCountAsTheyGoOutOnlyFromTheCommitOn() {
        assertThat(cap.allowed(500L, 450, 200)).as("a seek back: 450-599").isEqualTo(150);
    }

    @Test
    void aPartitionReachesTheCapWhenItsNextOffsetIsTheCapPastTheCommit() {
        assertThat(cap.reached(500L, 599L)).isFalse();
        assertThat(cap.reached(500L, 600L)).isTrue();
        assertThat(cap.reached(500L, null)).as("position unknown").isFalse();
        assertThat(cap.reached(null, 10_000L)).as("nothing known to count from").isFalse();
    }

    @Test
    void autoCommitCommitsAPartitionOnceItIsHalfWayToTheCap() {
        assertThat(cap.pastHalf(500L, 549L)).isFalse();
        assertThat(cap.pastHalf(500L, 550L)).isTrue();
        assertThat(new UncommittedCap(1).pastHalf(500L, 501L)).as("a cap of 1: at once").isTrue();
    }

    @Test
    void zeroTurnsItOff() {
        UncommittedCap off = new UncommittedCap(0);
        assertThat(off.enabled()).isFalse();
        assertThat(off.allowed(0L, 1_000_000, 500)).isEqualTo(500);
        assertThat(off.reached(0L, 1_000_000L)).isFalse();
        assertThat(off.pastHalf(0L, 1_000_000L)).isFalse();
    }

    @Test
    void aNegativeCapIsRefused() {
        assertThatThrownBy(() -> new UncommittedCap(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-1");
    }
}
