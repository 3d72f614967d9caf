package io.zkgroups.chaos.bounce;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BounceTimelineTest {

    @Test
    void readsTheStepsAndSkipsOneTheRunDidNotFinish() {
        BounceTimeline t = BounceTimeline.parse(List.of(
                "HEALTHY 100 0 900",
                "DELIVERING 200",
                "FAULT 1000 1 bounce-m0-1",
                "BOUNCE-TERM 1000 0 m0-1",
                "BOUNCE-EXITED 1500 0 m0-1 143",
                "BOUNCE-STARTED 3000000000 0 m0-2",
                "BOUNCE-HEALTHY 4000001000 0 999",
                "BOUNCE-TERM 5000000000 1 m1-1",
                "BOUNCE-EXITED 5000000500 1 m1-1 143",
                "BOUNCE-STARTED 6000000000 1 m1-2",
                "BOUNCE-UNHEALTHY 9000000000 1 20 members",
                "BOUNCE-TERM 9500000000 2 m2-1"));

        assertThat(t.delivering()).isEqualTo(200);
        assertThat(t.steps()).hasSize(2);
        assertThat(t.steps().get(0)).isEqualTo(new BounceTimeline.Step(0, "m0-1", "m0-2", 1000, 1500, 3_000_000_000L,
                4_000_001_000L, true));
        assertThat(t.steps().get(0).millis()).isEqualTo(4000);
        assertThat(t.steps().get(1).healthy()).isFalse();
        assertThat(t.everyGatePassed()).isFalse();
        assertThat(t.start()).isEqualTo(1000);
        assertThat(t.end()).isEqualTo(9_000_000_000L);
    }

    @Test
    void aBounceWhoseSuccessorsStartAheadBeginsWithTheFirstLaunch() {
        BounceTimeline t = BounceTimeline.parse(List.of(
                "DELIVERING 200",
                "BOUNCE-PRESTARTED 400 0 m0-2",
                "BOUNCE-PRESTARTED 450 1 m1-2",
                "BOUNCE-AWAITING 900 0 m0-2",
                "BOUNCE-TERM 1000 0 m0-1",
                "BOUNCE-EXITED 1500 0 m0-1 143",
                "BOUNCE-STARTED 2000 0 m0-2",
                "BOUNCE-HEALTHY 3000 0 1"));

        assertThat(t.start()).isEqualTo(400);
        assertThat(t.steps()).hasSize(1);
        assertThat(t.steps().get(0).term()).isEqualTo(1000);
        assertThat(t.steps().get(0).started()).isEqualTo("m0-2");
    }

    @Test
    void aJournalWithoutAStepIsRefusedWithAReason() {
        assertThatThrownBy(() -> BounceTimeline.parse(List.of("HEALTHY 100 0 900")))
                .hasMessageContaining("no completed bounce step");
    }
}
