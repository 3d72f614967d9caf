package io.zkgroups.chaos.monitor;

import org.junit.jupiter.api.Test;

import java.util.Set;

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
        // m1 handed 6..9 over without committing past them: its fault, not m2's, which started where m1 had committed
        assertThat(v.violations()).extracting(Violation::process).containsOnly("m1");
    }

    @Test
    void aKillsRepeatsWithinTheConfiguredBoundAreNoViolation() {
        // 4 repeats; bound = ceil(10/s * (250 ms + 1000 ms session)) + max.poll.records 5 = 18
        Verdict v = tenureEndingWith(h -> h.killed("m1", 300)).checkWindows(250, 10, 1_000, 5);

        assertThat(v.violations()).isEmpty();
        assertThat(v.uncleanEnds()).singleElement().satisfies(w -> {
            assertThat(w.endedBy()).isEqualTo("KILLED");
            assertThat(w.max()).isEqualTo(4);
            assertThat(w.maxBound()).isEqualTo(18);
            assertThat(w.overBound()).isZero();
        });
    }

    /** m1 hands out 0..39 of partition 0 but commits only 10; its tenure ends as {@code end} says; m2 repeats 10..39. */
    private static Histories thirtyUncommitted(java.util.function.UnaryOperator<Histories> end) {
        Histories h = new Histories()
                .acked(0, 0, 39, 100)
                .fault(3, "some-fault", 50)
                .assigned("m1", 150, 0)
                .handedOut("m1", 0, 0, 9, 200)
                .committed("m1", 0, 10, 250)
                .handedOut("m1", 0, 10, 19, 300) // no commit for 2 s: a member that stopped committing
                .handedOut("m1", 0, 20, 29, 1_300)
                .handedOut("m1", 0, 30, 39, 2_300);
        return end.apply(h)
                .assigned("m2", 7_000, 0)
                .handedOut("m2", 0, 10, 39, 7_100)
                .closed("m2", 8_000);
    }

    @Test
    void aKillWhoseWindowHeldMoreThanTheConfigurationAllowsIsCaught() {
        Verdict v = thirtyUncommitted(h -> h.killed("m1", 2_400)).checkWindows(250, 10, 1_000, 5);

        // 30 repeats, all explained as a window, but the bound is ceil(10 * 1.25) + 5 = 18
        assertThat(v.counts()).containsEntry("duplicate", 0).containsEntry("unclean-window", 1);
        assertThat(v.violations()).singleElement().satisfies(x -> {
            assertThat(x.process()).isEqualTo("m1");
            assertThat(x.message()).contains("30 records").contains("KILLED").contains("#3 some-fault").contains("18");
        });
    }

    @Test
    void aLostSessionsWindowIsJudgedAsAKillsIs() {
        Verdict v = thirtyUncommitted(h -> h.lost("m1", 2_400, 0).closed("m1", 9_000)).checkWindows(250, 10, 1_000, 5);

        assertThat(v.counts()).containsEntry("duplicate", 0).containsEntry("unclean-window", 1);
        assertThat(v.violations()).singleElement().satisfies(x -> assertThat(x.message()).contains("LOST"));
    }

    @Test
    void aTimedOutRevocationsWindowIsJudgedAsAKillsIs() {
        Verdict v = thirtyUncommitted(h -> h.revokeTimedOut("m1", 2_400, 0).closed("m1", 9_000))
                .checkWindows(250, 10, 1_000, 5);

        assertThat(v.counts()).containsEntry("duplicate", 0).containsEntry("unclean-window", 1);
        assertThat(v.violations()).singleElement().satisfies(x -> assertThat(x.message()).contains("REVOKE-TIMEOUT"));
    }

    @Test
    void aVanishedProcesssWindowIsJudgedAsAKillsIs() {
        Verdict v = thirtyUncommitted(h -> h.vanished("m1", 2_400)).checkWindows(250, 10, 1_000, 5);

        assertThat(v.counts()).containsEntry("unclean-window", 1);
        assertThat(v.violations()).singleElement().satisfies(x -> assertThat(x.message()).contains("VANISHED"));
    }

    @Test
    void theBoundComesFromConfigurationNotFromTheMembersOwnPollsOrCommits() {
        Histories h = new Histories()
                .acked(0, 0, 99, 100)
                .assigned("m1", 150, 0)
                .handedOut("m1", 0, 0, 9, 200)
                .event("m1", 300, "COMMIT", 0, 10L)
                .event("m1", 5_300, "COMMITTED", 0, null) // a commit that took 5 s
                .handedOut("m1", 0, 10, 99, 5_310) // one poll of 90 records
                .killed("m1", 5_400)
                .assigned("m2", 9_000, 0)
                .handedOut("m2", 0, 10, 99, 9_100)
                .closed("m2", 10_000);

        // 90 repeats; bound = ceil(10 * (0.25 + 1)) + 5 = 18, however large the member's poll or slow its commit
        Verdict v = h.checkWindows(250, 10, 1_000, 5);
        assertThat(v.counts()).containsEntry("unclean-window", 1);
        assertThat(v.uncleanEnds()).singleElement().satisfies(w -> {
            assertThat(w.maxBound()).isEqualTo(18);
            assertThat(w.overBound()).isEqualTo(1);
        });
    }

    @Test
    void aZkgroupsMembersWindowIsJudgedByItsCapAloneHoweverFastTheTopic() {
        // 30 repeats; at 1000 records/s the rate bound would be ceil(1000 * 1.25) + 5 = 1255
        Verdict v = thirtyUncommitted(h -> h.killed("m1", 2_400)).checkCapped(20, 250, 1_000, 1_000, 5, Set.of());

        assertThat(v.counts()).containsEntry("unclean-window", 1);
        assertThat(v.violations()).singleElement().satisfies(x -> assertThat(x.message()).contains("30 records")
                .contains("allows: 20"));
    }

    @Test
    void aZkgroupsMemberWithinItsCapPassesWhereTheRateBoundWouldNot() {
        // 30 repeats; the rate bound of these settings is 18, the cap 40
        Verdict v = thirtyUncommitted(h -> h.lost("m1", 2_400, 0).closed("m1", 9_000))
                .checkCapped(40, 250, 10, 1_000, 5, Set.of());

        assertThat(v.violations()).isEmpty();
        assertThat(v.uncleanEnds()).singleElement().satisfies(w -> assertThat(w.maxBound()).isEqualTo(40));
    }

    @Test
    void a082ConsumerHasNoCapAndIsJudgedByTheRate() {
        Verdict v = thirtyUncommitted(h -> h.killed("m1", 2_400)).checkCapped(40, 250, 10, 1_000, 5, Set.of("m1"));

        assertThat(v.uncleanEnds()).singleElement().satisfies(w -> assertThat(w.maxBound()).isEqualTo(18));
    }
}
