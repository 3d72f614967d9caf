package io.zkgroups.chaos.monitor;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Timed-out revocations and the windows of unclean ends, judged against the commit interval. */
class UncleanWindowsTest {

    /** m1 hands out 0..9 of partition 0 in two polls, confirms a commit of 6, and its tenure ends as {@code end} says. */
    private static Histories tenureEndingWith(java.util.function.UnaryOperator<Histories> end) {
        Histories h = new Histories()
                .acked(0, 0, 9, 100)
                .assigned("m1", 150, 0)
                .handedOut("m1", 0, 0, 5, 200)
                .handedOut("m1", 0, 6, 9, 240)
                .committed("m1", 0, 6, 250);
        return end.apply(h)
                .assigned("m2", 5_000, 0)
                .handedOut("m2", 0, 6, 9, 5_100)
                .closed("m2", 6_000);
    }

    @Test
    void aTimedOutRevocationIsAnUncleanEndThatExplainsItsRepeats() {
        Verdict v = tenureEndingWith(h -> h.revokeTimedOut("m1", 4_000, 0).closed("m1", 7_000)).check();

        assertThat(v.violations()).isEmpty();
        assertThat(v.duplicatesExplained()).isEqualTo(4);
        assertThat(v.uncleanEnds()).singleElement().satisfies(w -> {
            assertThat(w.endedBy()).isEqualTo("REVOKE-TIMEOUT");
            assertThat(w.ends()).isEqualTo(1);
            assertThat(w.repeats()).isEqualTo(4);
            assertThat(w.histogram()).containsExactly(java.util.Map.entry("1-5", 1));
        });
    }

    @Test
    void aRevocationThatOutlastedTheTimeoutAfterItBeganIsAnUncleanEndToo() {
        Verdict v = tenureEndingWith(h -> h.revokedPastTimeout("m1", 4_000, 0).closed("m1", 7_000)).check();

        assertThat(v.violations()).isEmpty();
        assertThat(v.uncleanEnds()).singleElement().satisfies(w -> {
            assertThat(w.endedBy()).isEqualTo("REVOKE-TIMEOUT");
            assertThat(w.repeats()).isEqualTo(4);
        });
    }

    @Test
    void theSameRepeatsAfterAGracefulRevocationAreViolations() {
        Verdict v = tenureEndingWith(h -> h.revoked("m1", 4_000, 0).closed("m1", 7_000)).check();

        assertThat(v.counts()).containsEntry("duplicate", 4);
        assertThat(v.uncleanEnds()).isEmpty();
    }

    @Test
    void aKillsRepeatsWithinTheCommitIntervalAndOnePollAreNoViolation() {
        // 4 repeats; bound = ceil(10/s * (250 ms + 0 ms commit)) + largest poll 6 = 9
        Verdict v = tenureEndingWith(h -> h.killed("m1", 300)).checkWindows(250, 10);

        assertThat(v.violations()).isEmpty();
        assertThat(v.uncleanEnds()).singleElement().satisfies(w -> {
            assertThat(w.endedBy()).isEqualTo("KILLED");
            assertThat(w.max()).isEqualTo(4);
            assertThat(w.maxBound()).isEqualTo(9);
            assertThat(w.overBound()).isZero();
        });
    }

    @Test
    void aKillWhoseWindowHeldMoreThanTheCommitIntervalAllowsIsCaught() {
        Verdict v = new Histories()
                .acked(0, 0, 39, 100)
                .fault(3, "kill-member", 50)
                .assigned("m1", 150, 0)
                .handedOut("m1", 0, 0, 9, 200)
                .committed("m1", 0, 10, 250)
                .handedOut("m1", 0, 10, 19, 300) // no commit for 2 s: a member that stopped committing
                .handedOut("m1", 0, 20, 29, 1_300)
                .handedOut("m1", 0, 30, 39, 2_300)
                .killed("m1", 2_400)
                .assigned("m2", 7_000, 0)
                .handedOut("m2", 0, 10, 39, 7_100)
                .closed("m2", 8_000)
                .checkWindows(250, 10);

        // 30 repeats, all explained as a window, but the bound is ceil(10 * 0.25) + 10 = 13
        assertThat(v.counts()).containsEntry("duplicate", 0).containsEntry("kill-window", 1);
        assertThat(v.violations()).singleElement().satisfies(x -> {
            assertThat(x.process()).isEqualTo("m1");
            assertThat(x.message()).contains("30 records").contains("#3 kill-member").contains("13");
        });
    }

    @Test
    void aSlowCommitWidensTheBound() {
        Histories h = new Histories()
                .acked(0, 0, 29, 100)
                .assigned("m1", 150, 0)
                .handedOut("m1", 0, 0, 9, 200)
                .event("m1", 300, "COMMIT", 0, 10L)
                .event("m1", 2_300, "COMMITTED", 0, null) // a commit that took 2 s
                .handedOut("m1", 0, 10, 19, 2_310)
                .handedOut("m1", 0, 20, 29, 2_320)
                .killed("m1", 2_400)
                .assigned("m2", 7_000, 0)
                .handedOut("m2", 0, 10, 29, 7_100)
                .closed("m2", 8_000);

        // 20 repeats; bound = ceil(10 * (0.25 + 2)) + 10 = 33 (without the commit's 2 s it would be 13)
        Verdict v = h.checkWindows(250, 10);
        assertThat(v.violations()).isEmpty();
        assertThat(v.uncleanEnds()).singleElement().satisfies(w -> assertThat(w.maxBound()).isEqualTo(33));
    }
}
