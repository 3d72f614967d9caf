package io.zkgroups.tool.history;

import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.tool.audit.AuditEntry;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class HistoryTrackerTest {

    private static final Instant T0 = Instant.parse("2024-05-01T10:00:00Z");
    private static final TopicAndPartition P0 = new TopicAndPartition("t", 0);
    private static final TopicAndPartition P1 = new TopicAndPartition("t", 1);

    private static GroupSnapshot snapshot(long second, Map<String, Instant> members, Map<TopicAndPartition, GroupSnapshot.Owned> owners,
                                          Map<TopicAndPartition, Long> offsets, String phase) {
        return new GroupSnapshot("g", T0.plusSeconds(second), phase, members, owners, offsets, Map.of(), Map.of());
    }

    private static GroupSnapshot snapshot(long second, Map<String, Instant> members, Map<TopicAndPartition, GroupSnapshot.Owned> owners) {
        return snapshot(second, members, owners, Map.of(), "zookeeper-only");
    }

    private static List<String> types(List<HistoryEvent> events) {
        return events.stream().map(HistoryEvent::type).toList();
    }

    @Test
    void aJoinStartsARebalanceThatEndsAtTheLastClaimOfASettledAssignment() {
        HistoryTracker tracker = new HistoryTracker(Duration.ofMinutes(2));
        Map<String, Instant> a = Map.of("g_a", T0);
        Map<TopicAndPartition, GroupSnapshot.Owned> aOwnsAll = Map.of(P0, new GroupSnapshot.Owned("g_a-0", T0),
                P1, new GroupSnapshot.Owned("g_a-0", T0));
        assertThat(tracker.next(snapshot(0, a, aOwnsAll), List::of)).as("the baseline").isEmpty();

        Map<String, Instant> ab = Map.of("g_a", T0, "g_b", T0.plusSeconds(10));
        List<HistoryEvent> joining = tracker.next(snapshot(11, ab, Map.of(P0, new GroupSnapshot.Owned("g_a-0", T0))), List::of);
        assertThat(types(joining)).containsExactly("member-joined", "rebalance-started");
        assertThat(joining.get(1).at()).isEqualTo(T0.plusSeconds(10).toString());
        assertThat(joining.get(1).detail()).isEqualTo("member g_b joined");

        Map<TopicAndPartition, GroupSnapshot.Owned> split = Map.of(P0, new GroupSnapshot.Owned("g_a-0", T0),
                P1, new GroupSnapshot.Owned("g_b-0", T0.plusSeconds(12)));
        List<HistoryEvent> claimed = tracker.next(snapshot(13, ab, split), List::of);
        assertThat(types(claimed)).containsExactly("ownership-moved");
        assertThat(claimed.get(0).from()).isEqualTo("g_a-0");
        List<HistoryEvent> settled = tracker.next(snapshot(14, ab, split), List::of);
        assertThat(types(settled)).containsExactly("rebalance-ended");
        assertThat(settled.get(0).durationMs()).isEqualTo(2_000);
        assertThat(settled.get(0).at()).isEqualTo(T0.plusSeconds(12).toString());
    }

    @Test
    void aLeaveIsSeenGoneAndAGroupWithoutMembersSettlesWithoutOwners() {
        HistoryTracker tracker = new HistoryTracker(Duration.ofMinutes(2));
        tracker.next(snapshot(0, Map.of("g_a", T0), Map.of(P0, new GroupSnapshot.Owned("g_a-0", T0))), List::of);
        List<HistoryEvent> left = tracker.next(snapshot(5, Map.of(), Map.of()), List::of);
        assertThat(types(left)).containsExactly("member-left", "rebalance-started");
        assertThat(left.get(1).detail()).isEqualTo("member g_a left");
        assertThat(types(tracker.next(snapshot(6, Map.of(), Map.of()), List::of))).containsExactly("rebalance-ended");
    }

    @Test
    void anOffsetMovedBackIsAttributedToTheToolWhoseAuditEntryWroteItEvenWhenTheEntryCameOneLookLater() {
        HistoryTracker tracker = new HistoryTracker(Duration.ofMinutes(2));
        tracker.next(snapshot(0, Map.of(), Map.of(), Map.of(P0, 10L), "zookeeper-only"), List::of);
        assertThat(tracker.next(snapshot(1, Map.of(), Map.of(), Map.of(P0, 0L), "zookeeper-only"), List::of))
                .as("no entry yet: wait one look").isEmpty();
        AuditEntry reset = new AuditEntry("x", "g", "reset", "ops", "box", "zkgroups offsets reset", "1",
                List.of(new AuditEntry.Change("t", 0, "zookeeper", 10L, 0L)), 1, 1, null);
        List<HistoryEvent> rewound = tracker.next(snapshot(2, Map.of(), Map.of(), Map.of(P0, 0L), "zookeeper-only"),
                () -> List.of(reset));
        assertThat(types(rewound)).containsExactly("offset-rewound");
        assertThat(rewound.get(0).attribution()).isEqualTo("ops@box: zkgroups offsets reset");
        assertThat(rewound.get(0).before()).isEqualTo(10);
        assertThat(rewound.get(0).after()).isZero();
    }

    @Test
    void anOffsetMovedBackByNoToolAndNoOwnerIsUnattributed() {
        HistoryTracker tracker = new HistoryTracker(Duration.ofMinutes(2));
        tracker.next(snapshot(0, Map.of(), Map.of(), Map.of(P0, 10L), "zookeeper-only"), List::of);
        tracker.next(snapshot(1, Map.of(), Map.of(), Map.of(P0, 4L), "zookeeper-only"), List::of);
        List<HistoryEvent> rewound = tracker.next(snapshot(2, Map.of(), Map.of(), Map.of(P0, 4L), "zookeeper-only"), List::of);
        assertThat(rewound.get(0).attribution()).isEqualTo("unattributed");
    }

    @Test
    void aChangeOfWhereTheOffsetsAreWrittenIsACoordinatorChange() {
        HistoryTracker tracker = new HistoryTracker(Duration.ofMinutes(2));
        tracker.next(snapshot(0, Map.of(), Map.of(), Map.of(), "zookeeper-only"), List::of);
        List<HistoryEvent> changed = tracker.next(snapshot(1, Map.of(), Map.of(), Map.of(), "dual-commit"), List::of);
        assertThat(types(changed)).containsExactly("coordinator-changed");
        assertThat(changed.get(0).detail()).isEqualTo("zookeeper-only -> dual-commit");
    }

    @Test
    void anOwnedPartitionWithBacklogAndNoCommitForTheStallTimeIsAStallOnce() {
        HistoryTracker tracker = new HistoryTracker(Duration.ofSeconds(30));
        Map<TopicAndPartition, GroupSnapshot.Owned> owned = Map.of(P0, new GroupSnapshot.Owned("g_a-0", T0));
        Map<TopicAndPartition, GroupSnapshot.Committed> committed = Map.of(P0, new GroupSnapshot.Committed(5, T0));
        for (long s : new long[]{0, 20}) {
            assertThat(tracker.next(new GroupSnapshot("g", T0.plusSeconds(s), "zookeeper-only", Map.of("g_a", T0), owned,
                    Map.of(P0, 5L), committed, Map.of(P0, 9L)), List::of)).isEmpty();
        }
        List<HistoryEvent> stalled = tracker.next(new GroupSnapshot("g", T0.plusSeconds(40), "zookeeper-only",
                Map.of("g_a", T0), owned, Map.of(P0, 5L), committed, Map.of(P0, 9L)), List::of);
        assertThat(types(stalled)).containsExactly("commit-stalled");
        assertThat(tracker.next(new GroupSnapshot("g", T0.plusSeconds(50), "zookeeper-only", Map.of("g_a", T0), owned,
                Map.of(P0, 5L), committed, Map.of(P0, 9L)), List::of)).as("reported once").isEmpty();
    }
}
