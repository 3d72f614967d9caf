package io.zkgroups.tool.history;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class HistoryEventTest {

    @Test
    void eventsAreOrderedByTheirInstantEvenWhereOneFallsOnAWholeSecond() {
        // a znode created at .000 ms: ISO-8601 writes its time without a fraction, which as text sorts after .005
        HistoryEvent joined = HistoryEvent.of("2026-12-08T00:32:18Z", HistoryEvent.Type.MEMBER_JOINED, "znode-stats");
        HistoryEvent claimed = HistoryEvent.of("2026-12-08T00:32:18.005Z", HistoryEvent.Type.PARTITION_CLAIMED,
                "znode-stats");
        HistoryEvent earlier = HistoryEvent.of("2026-12-08T00:32:17.999Z", HistoryEvent.Type.LAST_COMMIT, "znode-stats");
        List<HistoryEvent> events = new ArrayList<>(List.of(claimed, joined, earlier));

        events.sort(HistoryEvent.CHRONOLOGICAL);

        assertThat(events).containsExactly(earlier, joined, claimed);
    }

    @Test
    void eventsOfOneInstantKeepTheirOrder() {
        HistoryEvent joined = HistoryEvent.of("2026-12-08T00:32:18.004Z", HistoryEvent.Type.MEMBER_JOINED, "znode-stats");
        HistoryEvent claimed = HistoryEvent.of("2026-12-08T00:32:18.004Z", HistoryEvent.Type.PARTITION_CLAIMED,
                "znode-stats");
        List<HistoryEvent> events = new ArrayList<>(List.of(joined, claimed));

        events.sort(HistoryEvent.CHRONOLOGICAL);

        assertThat(events).containsExactly(joined, claimed);
    }
}
