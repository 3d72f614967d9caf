package io.zkgroups.kafka08;

import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class HandOutLedgerTest {

    private static final TopicPartition P0 = new TopicPartition("t", 0);
    private static final TopicPartition P1 = new TopicPartition("t", 1);

    @Test
    void recordsAreHandedOutOnlyUnderTheCurrentTenureOfAnOwnedPartition() {
        HandOutLedger ledger = new HandOutLedger();
        assertThat(handOut(ledger, P0, 1, 5)).as("not owned").isFalse();
        long first = ledger.assign(P0);
        assertThat(handOut(ledger, P0, first, 5)).isTrue();
        ledger.revoke(List.of(P0));
        assertThat(isCurrent(ledger, P0, first)).isFalse();
        long second = ledger.assign(P0);
        assertThat(second).isNotEqualTo(first);
        assertThat(handOut(ledger, P0, first, 6)).as("a chunk fetched before the partition went and came back").isFalse();
        assertThat(handOut(ledger, P0, second, 6)).isTrue();
        assertThat(ledger.tenure(P1)).isZero();
    }

    @Test
    void aTenureResolvedBeforeItsRevocationHandsOutNothingAfterIt() {
        HandOutLedger ledger = new HandOutLedger();
        long first = ledger.assign(P0);
        HandOutLedger.Tenure handle = ledger.tenureOf(P0, first);
        assertThat(handle.handOut(3)).isTrue();
        assertThat(ledger.revoke(List.of(P0))).isEqualTo(Map.of(P0, 3L));
        assertThat(handle.isCurrent()).isFalse();
        assertThat(handle.handOut(4)).isFalse();
        long second = ledger.assign(P0);
        assertThat(ledger.tenureOf(P0, first)).as("the partition came back under a new tenure").isNull();
        assertThat(ledger.tenureOf(P0, second).isCurrent()).isTrue();
        assertThat(ledger.uncommitted()).as("the old tenure's hand-outs are not the new one's").isEmpty();
    }

    @Test
    void aRevocationReturnsThePositionsHandedOutSinceTheLastCommit() {
        HandOutLedger ledger = new HandOutLedger();
        long g0 = ledger.assign(P0);
        long g1 = ledger.assign(P1);
        ledger.assign(new TopicPartition("t", 2)); // nothing handed out: nothing to commit
        handOut(ledger, P0, g0, 11);
        handOut(ledger, P1, g1, 21);
        assertThat(ledger.uncommitted()).isEqualTo(Map.of(P0, 11L, P1, 21L));
        ledger.committed(Map.of(P0, 11L, P1, 21L));
        assertThat(ledger.uncommitted()).isEmpty();
        handOut(ledger, P1, g1, 22);
        assertThat(ledger.revoke(List.of(P0, P1))).isEqualTo(Map.of(P1, 22L));
        assertThat(ledger.partitions()).containsExactly(new TopicPartition("t", 2));
    }

    /**
     * A stream thread hands out records as fast as it can while the fetcher revokes the partition: whatever the
     * interleaving, the revocation's commit position is exactly one past the last record handed out, and nothing is
     * handed out after it.
     */
    @Test
    @Timeout(60)
    void aRevocationRacingAStreamThreadCoversExactlyWhatWasHandedOut() throws Exception {
        for (int round = 0; round < 300; round++) {
            HandOutLedger ledger = new HandOutLedger();
            long tenure = ledger.assign(P0);
            AtomicLong lastHandedOut = new AtomicLong(-1);
            CountDownLatch running = new CountDownLatch(1 + round % 40);
            HandOutLedger.Tenure handle = ledger.tenureOf(P0, tenure); // as a stream resolves it, once per chunk
            Thread stream = new Thread(() -> {
                for (long offset = 0; handle.handOut(offset + 1); offset++) {
                    lastHandedOut.set(offset);
                    running.countDown();
                }
            });
            stream.start();
            running.await();
            Map<TopicPartition, Long> toCommit = ledger.revoke(List.of(P0));
            stream.join();
            assertThat(toCommit.get(P0)).as("round %d", round).isEqualTo(lastHandedOut.get() + 1);
        }
    }

    /** A stream's hand-out: through the tenure the chunk was tagged with, if that is still the partition's. */
    private static boolean handOut(HandOutLedger ledger, TopicPartition partition, long tenure, long nextOffset) {
        HandOutLedger.Tenure current = ledger.tenureOf(partition, tenure);
        return current != null && current.handOut(nextOffset);
    }

    private static boolean isCurrent(HandOutLedger ledger, TopicPartition partition, long tenure) {
        HandOutLedger.Tenure current = ledger.tenureOf(partition, tenure);
        return current != null && current.isCurrent();
    }
}
