package io.zkgroups.chaos.bounce;

import io.zkgroups.chaos.monitor.History.Ack;
import io.zkgroups.chaos.monitor.History.Delivery;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class BacklogSlicesTest {

    private static final long MS = 1_000_000;

    private static Ack ack(int p, long offset, long ms) {
        return new Ack(p, offset, ms * MS);
    }

    private static Delivery delivery(int p, long offset, long ms) {
        return new Delivery("m0-1", p, offset, ms * MS);
    }

    @Test
    void aPartitionDeliveringInEverySliceCountsNothing() {
        BacklogSlices slices = new BacklogSlices(
                List.of(ack(0, 0, 0), ack(0, 1, 100), ack(0, 2, 200), ack(0, 3, 300)),
                List.of(delivery(0, 0, 50), delivery(0, 1, 150), delivery(0, 2, 250), delivery(0, 3, 350)));

        assertThat(slices.partitionSeconds(0, 400 * MS, 100 * MS)).isZero();
    }

    @Test
    void slicesWithABacklogAndNoDeliveryCountUntilTheNextDelivery() {
        // record 1 is acknowledged at 100 ms and delivered at 650 ms: the slices starting at 200, 300, 400 and 500 ms
        // had it pending and saw no delivery; the one at 600 ms saw the delivery
        BacklogSlices slices = new BacklogSlices(List.of(ack(0, 0, 0), ack(0, 1, 100)),
                List.of(delivery(0, 0, 50), delivery(0, 1, 650)));

        assertThat(slices.partitionSeconds(0, 1_000 * MS, 100 * MS)).isCloseTo(0.4, within(1e-9));
    }

    @Test
    void anIdlePartitionWithoutBacklogCountsNothingAndEachPartitionCountsOnItsOwn() {
        BacklogSlices slices = new BacklogSlices(List.of(ack(0, 0, 0), ack(1, 0, 0)),
                List.of(delivery(0, 0, 10)));

        // partition 0 is idle after its delivery; partition 1's record is never delivered: every slice counts
        assertThat(slices.partitionSeconds(0, 500 * MS, 100 * MS)).isCloseTo(0.4, within(1e-9));
    }

    @Test
    void aRedeliveryCountsAsDeliveryButDoesNotClearANewerBacklog() {
        // record 1 pending from 100 ms; a repeat of record 0 at 250 ms is a delivery in the slice [200, 300)
        BacklogSlices slices = new BacklogSlices(List.of(ack(0, 0, 0), ack(0, 1, 100)),
                List.of(delivery(0, 0, 50), delivery(0, 0, 250), delivery(0, 1, 450)));

        // only [300, 400): [400, 500) sees record 1 delivered
        assertThat(slices.partitionSeconds(0, 500 * MS, 100 * MS)).isCloseTo(0.1, within(1e-9));
    }

    @Test
    void theLastSliceIsCutAtTheWindowsEnd() {
        BacklogSlices slices = new BacklogSlices(List.of(ack(0, 0, 0)), List.of());

        assertThat(slices.partitionSeconds(10 * MS, 260 * MS, 100 * MS)).isCloseTo(0.25, within(1e-9));
    }
}
