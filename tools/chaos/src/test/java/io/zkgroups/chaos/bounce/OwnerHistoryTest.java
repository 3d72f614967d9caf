package io.zkgroups.chaos.bounce;

import io.zkgroups.chaos.monitor.History.OwnerChange;
import io.zkgroups.chaos.monitor.History.OwnerChange.Cause;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class OwnerHistoryTest {

    private static final long MS = 1_000_000;
    private final List<OwnerChange> changes = new ArrayList<>();

    private void change(long ms, int partition, String owner) {
        changes.add(new OwnerChange(ms * MS, changes.size() + 1, partition, owner, 1, owner == null ? Cause.DELETE
                : Cause.CREATE));
    }

    @Test
    void aReleaseAndAClaimByTheSameConsumerIsNoMoveAnotherConsumerIs() {
        change(0, 0, "m0-1");
        change(0, 1, "m0-1");
        change(100, 0, null);
        change(120, 0, "m0-1");   // released and claimed again by the same consumer
        change(200, 1, null);
        change(300, 1, "m1-1");   // moved
        change(400, 1, null);
        change(450, 1, "m0-1");   // and back: another move

        OwnerHistory owners = new OwnerHistory(changes, 2);

        assertThat(owners.moves(50 * MS, 500 * MS)).isEqualTo(2);
        assertThat(owners.netMoves(50 * MS, 500 * MS)).as("the same owner at both ends").isZero();
        assertThat(owners.netMoves(50 * MS, 350 * MS)).isEqualTo(1);
        assertThat(owners.moves(350 * MS, 500 * MS)).as("the owner before the window counts as the previous one").isEqualTo(1);
    }

    @Test
    void unownedTimeIsSummedOverPartitionsWithinTheWindow() {
        change(0, 0, "m0-1");
        change(100, 0, null);
        change(300, 0, "m1-1");
        // partition 1 has no owner znode at all

        OwnerHistory owners = new OwnerHistory(changes, 2);

        assertThat(owners.unownedSeconds(50 * MS, 400 * MS)).isCloseTo(0.2 + 0.35, within(1e-9));
        assertThat(owners.unownedSeconds(150 * MS, 250 * MS)).isCloseTo(0.1 + 0.1, within(1e-9));
    }
}
