package io.zkgroups.chaos.monitor;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class InvariantMonitorTest {

    /** m1 hands partition 0 over to m2 gracefully: what a correct group records. */
    private static Histories gracefulMove() {
        return new Histories()
                .acked(0, 0, 19, 100)
                .assigned("m1", 150, 0).owner(0, "m1", 149)
                .handedOut("m1", 0, 0, 9, 200)
                .committed("m1", 0, 10, 300).offsetWritten(0, 10L, false, 299)
                .revoked("m1", 400, 0).owner(0, null, 401)
                .assigned("m2", 500, 0).owner(0, "m2", 499)
                .handedOut("m2", 0, 10, 19, 600)
                .committed("m2", 0, 20, 700).offsetWritten(0, 20L, false, 699)
                .closed("m1", 800).closed("m2", 900);
    }

    @Test
    void aGracefulMoveBreaksNoPromise() {
        Verdict v = gracefulMove().check();

        assertThat(v.violations()).isEmpty();
        assertThat(v.passed()).isTrue();
        assertThat(v.acked()).isEqualTo(20);
        assertThat(v.distinctHandedOut()).isEqualTo(20);
        assertThat(v.counts()).containsOnlyKeys(InvariantMonitor.INVARIANTS).allSatisfy((k, n) -> assertThat(n).isZero());
    }

    @Test
    void anAcknowledgedRecordNoMemberHandedOutIsLost() {
        Verdict v = gracefulMove().acked(0, 20, 21, 750).check();

        assertThat(v.counts()).containsEntry("lost", 2);
        assertThat(v.violations()).filteredOn(x -> x.invariant().equals("lost"))
                .extracting(Violation::offset).containsExactly(20L, 21L);
    }

    @Test
    void repeatsWithinAKilledMembersUncommittedWindowAreExplained() {
        Verdict v = new Histories()
                .acked(0, 0, 9, 100)
                .assigned("m1", 150, 0)
                .handedOut("m1", 0, 0, 9, 200)
                .committed("m1", 0, 6, 250)
                .killed("m1", 300)
                .assigned("m2", 5_000, 0)
                .handedOut("m2", 0, 6, 9, 5_100)
                .closed("m2", 6_000)
                .check();

        assertThat(v.violations()).isEmpty();
        assertThat(v.duplicatesExplained()).isEqualTo(4);
    }

    @Test
    void repeatsBelowTheKilledMembersLastCommitAreNotExplained() {
        Verdict v = new Histories()
                .acked(0, 0, 9, 100)
                .assigned("m1", 150, 0)
                .handedOut("m1", 0, 0, 9, 200)
                .committed("m1", 0, 8, 250)
                .killed("m1", 300)
                .assigned("m2", 5_000, 0)
                .handedOut("m2", 0, 5, 9, 5_100) // started below the commit: 5, 6, 7 were committed
                .closed("m2", 6_000)
                .check();

        assertThat(v.counts()).containsEntry("duplicate", 3);
        assertThat(v.violations()).extracting(Violation::offset).containsExactlyInAnyOrder(5L, 6L, 7L);
        assertThat(v.duplicatesExplained()).isEqualTo(2);
    }

    @Test
    void aCommitThatReturnsOnlyAfterAnotherMemberTookOverDoesNotNarrowTheWindow() {
        // m1's ZooKeeper link stalls: its session expires, m2 starts from the commit of 5, then m1's commit of 10
        // returns and m1 only then learns that it lost the partition
        Verdict v = new Histories()
                .acked(0, 0, 9, 100)
                .assigned("m1", 150, 0)
                .handedOut("m1", 0, 0, 9, 200)
                .committed("m1", 0, 5, 250)
                .assigned("m2", 5_000, 0)
                .handedOut("m2", 0, 5, 9, 5_010)
                .committed("m1", 0, 10, 5_050)
                .lost("m1", 5_100, 0)
                .closed("m1", 7_000).closed("m2", 7_000)
                .check();

        assertThat(v.violations()).isEmpty();
        assertThat(v.duplicatesExplained()).isEqualTo(5);
    }

    @Test
    void aRepeatAfterAGracefulRevocationIsAViolation() {
        Verdict v = gracefulMove().handedOut("m2", 0, 9, 9, 650).check();

        assertThat(v.counts()).containsEntry("duplicate", 1);
        assertThat(v.violations().get(0).message()).contains("REVOKED");
    }

    @Test
    void repeatsAfterALostSessionAreExplained() {
        Verdict v = new Histories()
                .acked(0, 0, 9, 100)
                .assigned("m1", 150, 0)
                .handedOut("m1", 0, 0, 9, 200)
                .lost("m1", 6_000, 0)
                .assigned("m2", 5_000, 0)
                .handedOut("m2", 0, 0, 9, 5_100)
                .closed("m1", 7_000).closed("m2", 7_000)
                .check();

        assertThat(v.violations()).isEmpty();
        assertThat(v.duplicatesExplained()).isEqualTo(10);
    }

    @Test
    void aMemberThatHandsOutAfterAnotherTookOverBreaksExclusivity() {
        Verdict v = new Histories()
                .acked(0, 0, 29, 100)
                .assigned("m1", 150, 0)
                .handedOut("m1", 0, 0, 9, 200)
                .assigned("m2", 300, 0)
                .handedOut("m2", 0, 10, 19, 400)
                .handedOut("m1", 0, 20, 24, 500) // m1 never heard of the move
                .handedOut("m2", 0, 25, 29, 600)
                .closed("m1", 700).closed("m2", 700)
                .check();

        assertThat(v.counts()).containsEntry("exclusivity", 2);
        assertThat(v.violations()).filteredOn(x -> x.invariant().equals("exclusivity"))
                .extracting(Violation::process).containsExactly("m1", "m2");
    }

    @Test
    void anAssignmentLetGoOfAgainDoesNotExcuseHandingOutAfterAnotherTookOver() {
        Verdict v = new Histories()
                .acked(0, 0, 24, 100)
                .assigned("m1", 150, 0)
                .handedOut("m1", 0, 0, 9, 200)
                .revoked("m1", 250, 0)
                .assigned("m2", 300, 0)
                .handedOut("m2", 0, 10, 19, 400)
                .assigned("m1", 450, 0) // m1 is given the partition back for a moment, and lets go of it again
                .revoked("m1", 460, 0)
                .handedOut("m1", 0, 20, 24, 500) // while m2 holds it
                .closed("m1", 700).closed("m2", 700)
                .check();

        assertThat(v.counts()).containsEntry("exclusivity", 1);
        assertThat(v.violations()).filteredOn(x -> x.invariant().equals("exclusivity")).singleElement()
                .satisfies(x -> assertThat(x.process()).isEqualTo("m1"));
    }

    @Test
    void aPartitionAssignedBackAfterAMoveIsNotAnOverlap() {
        Verdict v = gracefulMove()
                .revoked("m2", 720, 0)
                .assigned("m1", 730, 0).owner(0, "m1", 729)
                .acked(0, 20, 24, 710)
                .handedOut("m1", 0, 20, 24, 740)
                .check();

        assertThat(v.counts()).containsEntry("exclusivity", 0);
        assertThat(v.violations()).isEmpty();
    }

    @Test
    void handingOutWithoutAnAssignmentBreaksOwnership() {
        Verdict v = gracefulMove().acked(0, 20, 20, 710).handedOut("m1", 0, 20, 20, 750).check();

        assertThat(v.counts()).containsEntry("ownership", 1);
        assertThat(v.violations()).filteredOn(x -> x.invariant().equals("ownership")).singleElement()
                .satisfies(x -> assertThat(x.message()).contains("not assigned by its own rebalance listener"));
    }

    @Test
    void handingOutWhileZooKeeperNamesAnotherOwnerBreaksOwnership() {
        // m1 believes it owns partition 0 (no REVOKED), but ZooKeeper gave it to m2 at 400 ms
        Verdict v = new Histories()
                .acked(0, 0, 9, 100)
                .assigned("m1", 150, 0).owner(0, "m1", 149)
                .handedOut("m1", 0, 0, 4, 200)
                .owner(0, null, 390).owner(0, "m2", 400)
                .handedOut("m1", 0, 5, 9, 410)
                .closed("m1", 900)
                .check();

        assertThat(v.counts()).containsEntry("ownership", 1);
        assertThat(v.violations()).filteredOn(x -> x.invariant().equals("ownership")).singleElement()
                .satisfies(x -> assertThat(x.message()).contains("named m2"));
    }

    @Test
    void processesThatShareAConsumerIdByHandOverOwnWhatItsOwnerZnodeNames() {
        // a restart by session hand-over: m0-1 and m0-2 are consumer m0, and the owner znode never changes
        Histories handOver = new Histories()
                .acked(0, 0, 9, 100)
                .owner(0, "m0", 149)
                .assigned("m0-1", 150, 0).handedOut("m0-1", 0, 0, 4, 200).revoked("m0-1", 300, 0).closed("m0-1", 310)
                .assigned("m0-2", 400, 0).handedOut("m0-2", 0, 5, 9, 450).closed("m0-2", 900);
        assertThat(handOver.check().counts()).as("without the consumer ids").containsEntry("ownership", 2);

        handOver.consumerId("m0-1", "m0").consumerId("m0-2", "m0");
        assertThat(handOver.check().violations()).isEmpty();
    }

    @Test
    void zooKeeperTimesAreTrustedOnlyToTheirTolerance() {
        Histories justAfterRelease = new Histories()
                .acked(0, 0, 1, 100)
                .assigned("m1", 150, 0).owner(0, "m1", 149)
                .handedOut("m1", 0, 0, 0, 200)
                .owner(0, null, 300)
                .handedOut("m1", 0, 1, 1, 303) // 3 ms after the release's transaction time: within 5 ms
                .revoked("m1", 304, 0).closed("m1", 900);
        assertThat(justAfterRelease.check().violations()).isEmpty();

        Histories wellAfterRelease = new Histories()
                .acked(0, 0, 1, 100)
                .assigned("m1", 150, 0).owner(0, "m1", 149)
                .handedOut("m1", 0, 0, 0, 200)
                .owner(0, null, 300)
                .handedOut("m1", 0, 1, 1, 320)
                .revoked("m1", 321, 0).closed("m1", 900);
        assertThat(wellAfterRelease.check().counts()).containsEntry("ownership", 1);
    }

    @Test
    void aCommittedOffsetThatMovesBackwardsIsReported() {
        Verdict v = new Histories()
                .offsetWritten(0, 10L, false, 100)
                .offsetWritten(0, null, true, 150) // the run's garbage: not a commit
                .offsetWritten(0, 0L, true, 160) // the run restoring bytes: not a commit
                .offsetWritten(0, 20L, false, 200)
                .offsetWritten(0, 15L, false, 300)
                .offsetWritten(1, 5L, false, 310)
                .check();

        assertThat(v.counts()).containsEntry("offset-backwards", 1);
        assertThat(v.violations().get(0).message()).contains("committed 15").contains("after 20");
    }

    /**
     * A rewind another session writes and the owner writes back (the rewind guard) before its owner znode changes
     * harms nobody: counted in a note, no violation. Put back only after the partition changed hands, or not fully,
     * or written by the owner itself (a stale commit, even one its next commit corrects), it is one.
     */
    @Test
    void aForeignRewindTheOwnerPutsBackBeforeAnyHandOverIsNoViolation() {
        long owner = 0x1;
        long zombie = 0x2;
        Verdict restored = new Histories()
                .owner(0, "m1", 50)
                .offsetWrittenBy(0, 20, owner, 100)
                .offsetWrittenBy(0, 15, zombie, 200) // a woken 0.8.2.2 consumer's late commit
                .offsetWrittenBy(0, 20, owner, 230) // the owner writes its own back
                .offsetWrittenBy(0, 25, owner, 300)
                .check();
        assertThat(restored.counts()).containsEntry("offset-backwards", 0);
        assertThat(restored.notes()).anySatisfy(n -> assertThat(n).startsWith("1 offsets written backwards and put back")
                .contains("30 ms"));

        Verdict afterAHandOver = new Histories()
                .owner(0, "m1", 50)
                .offsetWrittenBy(0, 20, owner, 100)
                .offsetWrittenBy(0, 15, zombie, 200)
                .owner(0, null, 210).owner(0, "m2", 220) // the next owner may have read 15
                .offsetWrittenBy(0, 20, owner, 230)
                .check();
        assertThat(afterAHandOver.counts()).containsEntry("offset-backwards", 1);

        Verdict notFully = new Histories()
                .owner(0, "m1", 50)
                .offsetWrittenBy(0, 20, owner, 100)
                .offsetWrittenBy(0, 15, zombie, 200)
                .offsetWrittenBy(0, 18, owner, 230)
                .check();
        assertThat(notFully.counts()).containsEntry("offset-backwards", 2);

        Verdict byTheOwner = new Histories()
                .owner(0, "m1", 50)
                .offsetWrittenBy(0, 20, owner, 100)
                .offsetWrittenBy(0, 0, owner, 200) // a stale commit of its own
                .offsetWrittenBy(0, 25, owner, 230)
                .check();
        assertThat(byTheOwner.counts()).containsEntry("offset-backwards", 1);
    }

    @Test
    void aCommitInConsumerOffsetsThatMovesBackwardsIsReportedWithItsWriter() {
        Verdict v = new Histories()
                .event("m1", 90, "COMMIT", 0, 20L)
                .kafkaCommitted(0, 20, 100)
                .event("m2", 190, "COMMIT", 0, 15L)
                .kafkaCommitted(0, 15, 200) // backwards
                .kafkaCommitted(1, 30, 210)
                .kafkaCommitted(1, -1, 220) // the commit deleted: the partition starts afresh
                .kafkaCommitted(1, 5, 230)
                .check();

        assertThat(v.counts()).containsEntry("offset-backwards", 1);
        assertThat(v.violations()).singleElement().satisfies(x -> {
            assertThat(x.process()).isEqualTo("m2");
            assertThat(x.message()).contains("committed 15 in __consumer_offsets").contains("after 20").contains("by m1");
        });
        assertThat(v.notes()).anySatisfy(n -> assertThat(n).contains("from __consumer_offsets: 5 offset commits"));
    }

    @Test
    void aZombieInterleavingWithTheOwnerIsTheOneAtFault() {
        Verdict v = new Histories()
                .acked(0, 0, 5, 100)
                .assigned("m2", 400, 0)
                .handedOut("m2", 0, 0, 1, 500)
                .handedOut("z1", 0, 0, 0, 510) // z1 holds no tenure: a zombie
                .handedOut("m2", 0, 2, 3, 600)
                .handedOut("z1", 0, 1, 1, 610)
                .handedOut("m2", 0, 4, 5, 700)
                .closed("m2", 900)
                .check();

        assertThat(v.violations()).filteredOn(x -> x.invariant().equals("exclusivity") || x.invariant().equals("duplicate"))
                .isNotEmpty().allSatisfy(x -> assertThat(x.process()).as(x.toString()).isEqualTo("z1"));
    }

    @Test
    void aStallSaysWhichFaultItCameWith() {
        Verdict v = new Histories()
                .fault(1, "kill-member", 500)
                .fault(2, "pause-member", 900)
                .acked(0, 0, 4, 1_000)
                .assigned("m1", 10, 0)
                .handedOut("m1", 0, 0, 4, 9_100)
                .closed("m1", 30_000)
                .check(5_000);

        assertThat(v.violations()).singleElement().extracting(Violation::message).asString().contains("from #2 pause-member");
    }

    @Test
    void timeWhileTheBrokerWasDownOnPurposeIsNoStallOfTheGroup() {
        Histories h = new Histories()
                .acked(0, 0, 4, 1_000)
                .acked(1, 0, 0, 1_000)
                .assigned("m1", 10, 0, 1)
                .brokerDown(2_000, 6_000)
                .handedOut("m1", 1, 0, 0, 6_500) // the first hand-out after the restart ends the outage
                .handedOut("m1", 0, 0, 4, 8_000) // 7 s with a backlog, 4.5 s of them the broker's
                .closed("m1", 30_000);

        assertThat(h.check(3_000).violations()).isEmpty();
        Verdict strict = h.check(2_000);
        assertThat(strict.violations()).singleElement().extracting(Violation::message).asString()
                .contains("2500 ms").contains("4500 ms more excused");
    }

    @Test
    void aStallThatOverlapsABrokerOutageLongerThanTheBoundIsJudgedFromTheBrokersReturn() {
        // broker-stopped-rebalance: the killed broker is back only once its registration expired, 18 s later
        java.util.function.LongFunction<Histories> caughtUpAt = at -> new Histories()
                .acked(0, 0, 4, 2_000) // as the broker goes down
                .acked(1, 0, 0, 2_000)
                .assigned("m1", 10, 0, 1)
                .brokerDown(2_000, 20_000)
                .handedOut("m1", 1, 0, 0, 20_500) // the first hand-out after the return ends the outage
                .handedOut("m1", 0, 0, 4, at)
                .closed("m1", 60_000);

        assertThat(caughtUpAt.apply(31_000).check(12_000).violations()).as("19 s of backlog, 10.5 s after the return")
                .isEmpty();
        assertThat(caughtUpAt.apply(33_000).check(12_000).violations()).as("12.5 s after the return")
                .singleElement().extracting(Violation::message).asString().contains("12500 ms (bound 12000 ms");
    }

    @Test
    void theMembersStartingOneAfterAnotherIsNoStall() {
        java.util.function.Supplier<Histories> slowStart = () -> new Histories()
                .acked(0, 0, 4, 1_000) // the producer runs while the members start
                .assigned("m1", 8_500, 0)
                .handedOut("m1", 0, 0, 4, 9_200)
                .closed("m1", 30_000);

        assertThat(slowStart.get().groupFormed(9_000).check(5_000).violations()).isEmpty();
        assertThat(slowStart.get().check(5_000).counts()).as("without the journal's first HEALTHY").containsEntry("stall", 1);
    }

    @Test
    void aBacklogWithoutHandOutsLongerThanTheBoundIsAStall() {
        Histories h = new Histories()
                .acked(0, 0, 4, 1_000)
                .assigned("m1", 10, 0)
                .handedOut("m1", 0, 0, 1, 1_100)
                .handedOut("m1", 0, 2, 4, 9_100) // 8 s without a hand-out, backlog waiting
                .acked(1, 0, 0, 1_000) // partition 1: idle for long, but nothing waits: no stall
                .handedOut("m1", 1, 0, 0, 1_050)
                .assigned("m1", 10, 1)
                .closed("m1", 30_000);

        Verdict strict = h.check(5_000);
        assertThat(strict.counts()).containsEntry("stall", 1);
        assertThat(strict.violations().get(0).partition()).isZero();
        assertThat(strict.violations().get(0).process()).as("the one that held the partition").isEqualTo("m1");
        assertThat(strict.longestStallMs()).containsEntry(0, 8_000L);

        assertThat(h.check(10_000).violations()).isEmpty();
    }

    @Test
    void aBacklogNeverHandedOutStallsUntilTheEndOfTheHistory() {
        Verdict v = new Histories()
                .acked(0, 0, 0, 1_000)
                .assigned("m1", 10, 0)
                .closed("m1", 20_000)
                .check(5_000);

        assertThat(v.counts()).containsEntry("stall", 1).containsEntry("lost", 1);
    }

    @Test
    void aGroupThatStaysUnhealthyAfterAFaultIsReported() {
        Verdict v = gracefulMove().unhealthyAfter(3, 90_000).check();

        assertThat(v.counts()).containsEntry("unhealthy", 1);
        assertThat(v.violations().get(0).message()).contains("fault #3");
    }

    @Test
    void aCheckThatCouldNotRunFailsTheRun() {
        Verdict v = gracefulMove().unchecked("no journal.log").check();

        assertThat(v.passed()).isFalse();
        assertThat(v.counts()).containsEntry("unchecked", 1);
        assertThat(v.violations()).singleElement().satisfies(x -> assertThat(x.message()).isEqualTo("no journal.log"));
    }

    @Test
    void aGroupThatDidNotResumeConsumingAfterAFaultFailsTheRun() {
        Verdict v = gracefulMove().notResumedAfter(4, 30_000).check();

        assertThat(v.counts()).containsEntry("not-resumed", 1);
        assertThat(v.violations()).singleElement().satisfies(x -> assertThat(x.message()).contains("fault #4"));
    }
}
