package io.zkgroups.rebalancer.group;

import io.zkgroups.rebalancer.group.OwnershipFence.HandOut;
import io.zkgroups.rebalancer.offsets.CommitPermit;
import io.zkgroups.rebalancer.offsets.FencedException;
import io.zkgroups.registry.ManualTime;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The fence's rules, with a lease the test controls. */
class OwnershipFenceTest {

    private static final TopicAndPartition P0 = TopicAndPartition.of("t", 0);
    private static final TopicAndPartition P1 = TopicAndPartition.of("t", 1);
    private static final long SESSION = 0x100L;

    /** A lease that holds one session, for as long as the test says. */
    private static final class TestLease implements OwnershipFence.Lease {
        volatile long session = SESSION;
        volatile long remainingNanos = TimeUnit.SECONDS.toNanos(5);

        @Override
        public boolean holds(long s) {
            return s == session && remainingNanos > 0;
        }

        @Override
        public long remainingNanos() {
            return remainingNanos;
        }

        Runnable renewal = () -> { };

        @Override
        public void onRenewal(Runnable action) {
            renewal = action;
        }
    }

    private final TestLease lease = new TestLease();
    private final ManualTime time = new ManualTime();
    private final OwnershipFence fence = new OwnershipFence(lease, time);

    private static Map<TopicAndPartition, ThreadId> threads(TopicAndPartition... partitions) {
        Map<TopicAndPartition, ThreadId> threads = new java.util.TreeMap<>();
        for (TopicAndPartition tp : partitions) {
            threads.put(tp, ConsumerId.ofOverride("g", "m").thread(tp.partition()));
        }
        return threads;
    }

    private long epoch(TopicAndPartition tp) {
        return fence.grantsOf(List.of(tp)).get(tp).epoch();
    }

    @Test
    void aGrantLetsOutRecordsAndCommitsOnlyUnderItsOwnEpoch() {
        fence.grant(threads(P0, P1), SESSION);
        long e0 = epoch(P0);
        assertThat(fence.deliverable(Map.of(P0, e0, P1, epoch(P1)))).containsExactly(P0, P1);
        try (CommitPermit permit = fence.authorize(Map.of(P0, e0))) {
            assertThat(permit.session()).isEqualTo(SESSION);
            assertThat(permit.remainingMillis()).isPositive().isLessThanOrEqualTo(5_000);
        }

        fence.withdraw(List.of(P0));
        fence.grant(threads(P0), SESSION); // claimed back later: a new grant
        assertThat(epoch(P0)).isNotEqualTo(e0);
        assertThat(fence.deliverable(Map.of(P0, e0))).as("records fetched under the old grant").isEmpty();
        assertThatThrownBy(() -> fence.authorize(Map.of(P0, e0))).isInstanceOf(FencedException.class)
                .hasMessageContaining("t-0");
    }

    @Test
    void whileRevokingNothingIsHandedOutButTheRevokeCommitPasses() {
        fence.grant(threads(P0), SESSION);
        long e0 = epoch(P0);
        fence.beginRevoke(List.of(P0));
        assertThat(fence.deliverable(Map.of(P0, e0))).isEmpty();
        fence.authorize(Map.of(P0, e0)).close();
        fence.withdraw(List.of(P0));
        assertThatThrownBy(() -> fence.authorize(Map.of(P0, e0))).isInstanceOf(FencedException.class);
    }

    @Test
    void grantsOfASessionWhoseLeaseRanOutOrWasReplacedPassNothing() {
        fence.grant(threads(P0), SESSION);
        long e0 = epoch(P0);
        lease.remainingNanos = -1; // frozen past the lease
        assertThat(fence.deliverable(Map.of(P0, e0))).isEmpty();
        assertThatThrownBy(() -> fence.authorize(Map.of(P0, e0))).isInstanceOf(FencedException.class)
                .hasMessageContaining("may have expired");

        lease.remainingNanos = TimeUnit.SECONDS.toNanos(5);
        lease.session = 0x200L; // a new session's lease is valid: the old session's grants still are not
        assertThat(fence.deliverable(Map.of(P0, e0))).isEmpty();
        assertThatThrownBy(() -> fence.authorize(Map.of(P0, e0))).isInstanceOf(FencedException.class);
    }

    @Test
    void aRepeatedHandOutCheckGivesHandOutsVerdictAfterEveryChange() {
        fence.grant(threads(P0, P1), SESSION);
        long e0 = epoch(P0);
        OwnershipFence.HandOutCheck check = fence.handOutCheck(P0, e0);
        assertThat(check.verdict()).isEqualTo(HandOut.ALLOWED);

        lease.remainingNanos = -1;
        assertThat(check.verdict()).as("the lease is asked every time").isEqualTo(HandOut.WAIT);
        lease.remainingNanos = TimeUnit.SECONDS.toNanos(5);
        lease.session = 0x200L;
        assertThat(check.verdict()).as("a new session's lease").isEqualTo(HandOut.WAIT);
        lease.session = SESSION;
        assertThat(check.verdict()).isEqualTo(HandOut.ALLOWED);

        fence.beginRevoke(List.of(P1));
        assertThat(check.verdict()).as("another partition's revocation").isEqualTo(HandOut.ALLOWED);
        fence.beginRevoke(List.of(P0));
        assertThat(check.verdict()).as("its own revocation").isEqualTo(HandOut.NEVER);
        fence.withdraw(List.of(P0));
        fence.grant(threads(P0), SESSION);
        assertThat(check.verdict()).as("claimed back: a new epoch").isEqualTo(HandOut.NEVER);
        OwnershipFence.HandOutCheck again = fence.handOutCheck(P0, epoch(P0));
        assertThat(again.verdict()).isEqualTo(HandOut.ALLOWED);
        fence.withdrawAll();
        assertThat(again.verdict()).as("every grant withdrawn").isEqualTo(HandOut.NEVER);
    }

    @Test
    void aLateHandOutWaitsWhileTheLeaseLapsesAndIsRefusedForGoodOnceTheGrantEnds() throws Exception {
        fence.grant(threads(P0, P1), SESSION);
        long e0 = epoch(P0);
        assertThat(fence.handOut(P0, e0)).isEqualTo(OwnershipFence.HandOut.ALLOWED);
        assertThat(fence.handOut(P0, e0 + 100)).as("another grant's records").isEqualTo(OwnershipFence.HandOut.NEVER);

        lease.remainingNanos = -1;
        assertThat(fence.handOut(P0, e0)).isEqualTo(OwnershipFence.HandOut.WAIT);
        java.util.concurrent.CompletableFuture<Void> waiting = java.util.concurrent.CompletableFuture.runAsync(() -> {
            try {
                fence.awaitChange(TimeUnit.MINUTES.toNanos(1));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        lease.remainingNanos = TimeUnit.SECONDS.toNanos(5);
        org.awaitility.Awaitility.await().untilAsserted(() -> {
            lease.renewal.run(); // a renewal wakes whoever waits
            assertThat(waiting).isDone();
        });
        assertThat(fence.handOut(P0, e0)).isEqualTo(OwnershipFence.HandOut.ALLOWED);

        fence.beginRevoke(List.of(P1));
        assertThat(fence.handOut(P1, epoch(P1))).isEqualTo(OwnershipFence.HandOut.NEVER);
        fence.withdrawAll();
        assertThat(fence.handOut(P0, e0)).isEqualTo(OwnershipFence.HandOut.NEVER);
    }

    @Test
    void oneRefusedPartitionRefusesTheWholeCommitNamingEachReason() {
        fence.grant(threads(P0), SESSION);
        FencedException refused = (FencedException) org.assertj.core.api.Assertions.catchThrowable(
                () -> fence.authorize(Map.of(P0, epoch(P0), P1, 7L)));
        assertThat(refused.refused()).containsOnlyKeys(P1);
        assertThat(refused).hasMessageContaining("t-1");
    }

    @Test
    void aReleaseWaitsForCommitsInFlightUntilTheyEnd() throws Exception {
        fence.grant(threads(P0, P1), SESSION);
        CommitPermit permit = fence.authorize(Map.of(P0, epoch(P0)));
        CompletableFuture<Void> released = CompletableFuture.runAsync(() -> {
            try {
                fence.awaitCommits(Set.of(P0));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        fence.awaitCommits(Set.of(P1)); // other partitions are not held up
        assertThat(released).isNotDone();
        permit.close();
        released.get(5, TimeUnit.SECONDS);
    }

    @Test
    void aReleaseStopsWaitingAtTheDeadlineOfTheCommitsInFlight() throws Exception {
        fence.grant(threads(P0), SESSION);
        lease.remainingNanos = TimeUnit.HOURS.toNanos(1);
        CommitPermit neverClosed = fence.authorize(Map.of(P0, epoch(P0)));
        assertThat(neverClosed.deadlineNanos()).isEqualTo(time.nanoseconds() + TimeUnit.HOURS.toNanos(1));
        assertThat(neverClosed.remainingMillis()).isEqualTo(TimeUnit.HOURS.toMillis(1));
        CompletableFuture<Void> released = CompletableFuture.runAsync(() -> {
            try {
                fence.awaitCommits(Set.of(P0));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        time.advance(Duration.ofMinutes(59));
        lease.renewal.run(); // wakes the waiter: its permit still has a minute
        assertThat(neverClosed.remainingMillis()).isEqualTo(TimeUnit.MINUTES.toMillis(1));
        assertThat(released).isNotDone();

        time.advance(Duration.ofMinutes(1));
        org.awaitility.Awaitility.await().untilAsserted(() -> {
            lease.renewal.run(); // returns once woken past the permit's deadline
            assertThat(released).isDone();
        });
        assertThat(neverClosed.remainingMillis()).isZero();
        released.get(); // no exception
    }
}
