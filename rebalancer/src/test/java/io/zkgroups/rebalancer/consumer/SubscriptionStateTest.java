package io.zkgroups.rebalancer.consumer;

import io.zkgroups.registry.ManualTime;
import io.zkgroups.registry.Time;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.store.Unreadable;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.SortedSet;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

class SubscriptionStateTest {

    private static final TopicPartition A0 = new TopicPartition("a", 0);
    private static final TopicPartition A1 = new TopicPartition("a", 1);
    private static final TopicPartition B0 = new TopicPartition("b", 0);

    private final SubscriptionState state = new SubscriptionState("g_m", "g", Time.SYSTEM);

    @Test
    void aPartitionWhoseOffsetIsKnownIsFetchedFromItAndCountsItAsCommitted() {
        state.fetch(A0, 7, 0, 42L);

        assertThat(state.fetched()).containsExactly(A0);
        assertThat(state.positions()).containsExactly(entry(A0, 42L));
        assertThat(state.committed(A0)).isEqualTo(42L);
        assertThat(state.epoch(A0)).isEqualTo(7L);
        assertThat(state.fetchedEpoch(A0)).isEqualTo(7L);
        assertThat(state.unknownPositions()).isEmpty();
    }

    @Test
    void aPartitionWithoutACommittedOffsetHasNoPositionUntilTheFetcherFindsOne() {
        state.fetch(A0, 1, 0, null);

        assertThat(state.unknownPositions()).containsExactly(A0);
        assertThat(state.positions()).isEmpty();
        assertThat(state.committed(A0)).isNull();

        state.position(A0, 100);
        assertThat(state.unknownPositions()).isEmpty();
        assertThat(state.positions()).containsExactly(entry(A0, 100L));

        state.positionUnknown(Collections.singleton(A0)); // seekToEnd
        assertThat(state.positions()).isEmpty();
    }

    @Test
    void aHeldPartitionIsOwnedButNeitherFetchedNorPositionedAndRaisesAnAlarm() {
        state.fetch(A0, 1, 0, 5L);
        state.hold(A1, 2, 1, "unreadable offset znode: garbage");

        assertThat(state.assigned()).containsExactly(A0, A1);
        assertThat(state.fetched()).containsExactly(A0);
        assertThat(state.anyHeld()).isTrue();
        assertThat(state.epoch(A1)).as("a held partition may still be committed under its grant").isEqualTo(2L);
        assertThat(state.fetchedEpoch(A1)).isZero();
        assertThat(state.streams()).containsOnly(entry(A0, 0), entry(A1, 1));
        state.position(A1, 9); // a fetcher position of a held partition means nothing
        assertThat(state.positions()).containsOnlyKeys(A0);
        assertThat(state.unknownPositions()).isEmpty();
        List<Unreadable> alarms = state.alarms();
        assertThat(alarms).hasSize(1);
        assertThat(alarms.get(0).path()).isEqualTo("/consumers/g/offsets/a/1");
        assertThat(alarms.get(0).reason()).isEqualTo("unreadable offset znode: garbage");
        assertThat(state.dueForRetry()).as("the first retry is a second away").isEmpty();
    }

    @Test
    void aHeldPartitionIsRetriedAfterABackoffThatDoublesOnTheConsumersClock() {
        ManualTime time = new ManualTime();
        SubscriptionState timed = new SubscriptionState("g_m", "g", time);
        timed.hold(A0, 3, 0, "unreachable");
        time.advance(Duration.ofMillis(999));
        assertThat(timed.dueForRetry()).isEmpty();
        time.advance(Duration.ofMillis(1));
        assertThat(timed.dueForRetry()).containsExactly(A0);

        timed.stillUnreadable(A0, "still unreachable");
        time.advance(Duration.ofMillis(1999));
        assertThat(timed.dueForRetry()).as("the second wait is twice the first").isEmpty();
        time.advance(Duration.ofMillis(1));
        assertThat(timed.dueForRetry()).containsExactly(A0);
    }

    @Test
    void aHeldPartitionThatBecomesReadableIsFetchedFromTheOffsetFound() {
        state.hold(A0, 3, 0, "unreachable");
        state.stillUnreadable(A0, "still unreachable");
        assertThat(state.fetched()).isEmpty();

        state.readable(A0, 11L);

        assertThat(state.fetched()).containsExactly(A0);
        assertThat(state.positions()).containsExactly(entry(A0, 11L));
        assertThat(state.fetchedEpoch(A0)).isEqualTo(3L);
        assertThat(state.anyHeld()).isFalse();
        assertThat(state.alarms()).isEmpty();
    }

    @Test
    void aPartitionThatLeftIsForgottenEntirely() {
        state.fetch(A0, 1, 0, 5L);
        state.hold(A1, 2, 0, "unreachable");

        assertThat(state.forget(Collections.singleton(A0))).as("A0 was fetched, not held").isFalse();
        assertThat(state.forget(Arrays.asList(A1, B0))).as("A1 was held").isTrue();

        assertThat(state.assigned()).isEmpty();
        assertThat(state.epoch(A0)).isNull();
        assertThat(state.committed(A0)).isNull();
        state.committed(A0, 9); // a commit that finishes after the partition left remembers nothing
        assertThat(state.committed(A0)).isNull();
    }

    @Test
    void theFetchedViewFollowsEveryChangeOfWhatIsFetchedAndCannotBeChangedByItsReader() {
        state.fetch(A0, 1, 0, 5L);
        SortedSet<TopicPartition> first = state.fetchedView();
        assertThat(first).containsExactly(A0);
        assertThat(state.fetchedView()).as("unchanged: the same view").isSameAs(first);
        assertThatThrownBy(() -> first.add(B0)).isInstanceOf(UnsupportedOperationException.class);

        state.hold(A1, 2, 0, "unreachable");
        assertThat(state.fetchedView()).containsExactly(A0);
        state.readable(A1, 3L);
        assertThat(state.fetchedView()).containsExactly(A0, A1);
        state.fetch(B0, 3, 0, null);
        assertThat(state.fetchedView()).containsExactly(A0, A1, B0);
        state.forget(Collections.singleton(A0));
        assertThat(state.fetchedView()).containsExactly(A1, B0);

        SortedSet<TopicPartition> copy = state.fetched();
        copy.clear();
        assertThat(state.fetchedView()).as("fetched() is the caller's copy").containsExactly(A1, B0);
    }

    @Test
    void anUnknownPositionIsNoticedOnlyOfAFetchedPartition() {
        state.fetch(A0, 1, 0, 5L);
        state.hold(A1, 2, 0, "unreachable");
        assertThat(state.anyUnknownPosition()).as("a held partition has no position to know").isFalse();

        state.positionUnknown(Collections.singleton(A0));
        assertThat(state.anyUnknownPosition()).isTrue();
        state.position(A0, 8);
        assertThat(state.anyUnknownPosition()).isFalse();
    }

    @Test
    void fetchedPartitionsAreTestedFromWhereTheirUncommittedRecordsBeginToTheirPosition() {
        state.fetch(A0, 1, 0, 100L);   // committed 100
        state.fetch(A1, 1, 0, null);   // nothing committed: from the first offset handed out
        state.fetch(B0, 1, 0, 7L);
        state.hold(new TopicPartition("b", 1), 1, 0, "unreachable");
        state.position(A0, 160);
        state.handingOut(A1, 40);
        state.position(A1, 90);

        assertThat(state.fetchedWhere((from, position) -> position - from >= 50)).containsExactly(A0, A1);
        assertThat(state.fetchedWhere((from, position) -> from == null)).as("each has a committed offset or a first hand-out")
                .isEmpty();
        state.positionUnknown(Collections.singleton(B0));
        assertThat(state.fetchedWhere((from, position) -> true)).as("only known positions").containsExactly(A0, A1);
    }

    @Test
    void theFenceIsShownTheEpochsOfFetchedPartitionsOnlyInTheRegistrysTerms() {
        state.fetch(A0, 4, 0, 1L);
        state.hold(A1, 5, 0, "unreachable");

        assertThat(state.fetchedEpochs(Arrays.asList(A0, A1, B0)))
                .containsExactly(entry(new TopicAndPartition("a", 0), 4L));
    }

    @Test
    void aPatternSubscriptionNamesTheTopicsItWasAssigned() {
        state.subscribe(null, Collections.<String>emptySet(), Pattern.compile("a|b"), NoOpListener.INSTANCE, null);
        assertThat(state.subscription()).isEmpty();

        state.fetch(A0, 1, 0, 0L);
        state.fetch(B0, 2, 0, 0L);
        assertThat(state.subscription()).containsExactlyInAnyOrder("a", "b");

        state.unsubscribe();
        assertThat(state.fence()).isNull();
        assertThat(state.registered()).isNull();
    }

    @Test
    void uncommittedRecordsCountFromTheLastCommitElseFromTheFirstOffsetHandedOut() {
        state.fetch(A0, 1, 0, 42L);
        state.fetch(A1, 2, 0, null);

        assertThat(state.uncommittedFrom(A0)).isEqualTo(42L);
        assertThat(state.uncommittedFrom(A1)).as("nothing committed, nothing handed out").isNull();

        state.handingOut(A1, 300);
        state.handingOut(A1, 400);
        assertThat(state.uncommittedFrom(A1)).as("the tenure's first hand-out").isEqualTo(300L);

        state.committed(A1, 350);
        state.committed(A0, 50);
        assertThat(state.uncommittedFrom(A1)).isEqualTo(350L);
        assertThat(state.uncommittedFrom(A0)).isEqualTo(50L);

        state.forget(Collections.singleton(A1));
        state.fetch(A1, 3, 0, null);
        assertThat(state.uncommittedFrom(A1)).as("a new tenure starts over").isNull();
    }
}
