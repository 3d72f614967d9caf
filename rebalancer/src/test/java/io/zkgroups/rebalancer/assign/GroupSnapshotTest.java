package io.zkgroups.rebalancer.assign;

import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;
import org.junit.jupiter.api.Test;

import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.IntStream;

import static io.zkgroups.rebalancer.assign.Groups.group;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GroupSnapshotTest {

    private static final ConsumerId C1 = new ConsumerId("g_c1");

    @Test
    void threadsOfATopicAreSortedByTheirTextLikeSpec81() {
        GroupSnapshot snapshot = group("").member("c", "X", 12).snapshot();

        assertThat(snapshot.threadsOf("X")).extracting(ThreadId::toString).containsExactly(
                "c-0", "c-1", "c-10", "c-11", "c-2", "c-3", "c-4", "c-5", "c-6", "c-7", "c-8", "c-9");
    }

    @Test
    void threadsOfATopicIncludeOnlyItsSubscribers() {
        GroupSnapshot snapshot = group("g_").member("c2", "A", 1).member("c10", "A", 2).member("c1", "B", 1)
                .snapshot();

        assertThat(snapshot.threadsOf("A")).extracting(ThreadId::toString)
                .containsExactly("g_c10-0", "g_c10-1", "g_c2-0");
        assertThat(snapshot.threadsOf("nobody")).isEmpty();
    }

    @Test
    void anAbsentTopicHasNoPartitions() {
        GroupSnapshot snapshot = group("").member("c1", "NOSUCH", 1).topic("A", 3).snapshot();

        assertThat(snapshot.partitionCount("NOSUCH")).isZero();
        assertThat(snapshot.partitionsOf("NOSUCH")).isEmpty();
        assertThat(snapshot.partitionsOf("A")).containsExactly(
                TopicAndPartition.of("A", 0), TopicAndPartition.of("A", 1), TopicAndPartition.of("A", 2));
    }

    @Test
    void subscribedTopicsAreTheUnionOverMembersWhetherOrNotTheyExist() {
        GroupSnapshot snapshot = group("").member("c1", "B", 1, "A", 1).member("c2", "C", 2).member("idle")
                .topic("A", 1).topic("unsubscribed", 4).snapshot();

        assertThat(snapshot.subscribedTopics()).containsExactly("A", "B", "C");
        assertThat(snapshot.members()).extracting(ConsumerId::value).containsExactly("c1", "c2", "idle");
        assertThat(snapshot.subscriptionOf(new ConsumerId("idle"))).isEmpty();
        assertThat(snapshot.subscriptionOf(new ConsumerId("stranger"))).isEmpty();
    }

    @Test
    void copiesItsInputSoLaterChangesByTheCallerDoNotLeakIn() {
        Map<String, Integer> subscription = new HashMap<>(Map.of("A", 1));
        Map<ConsumerId, Map<String, Integer>> subscriptions = new HashMap<>(Map.of(C1, subscription));
        Map<String, Integer> partitions = new HashMap<>(Map.of("A", 3));
        GroupSnapshot snapshot = new GroupSnapshot(subscriptions, partitions);

        subscription.put("B", 1);
        subscriptions.put(new ConsumerId("g_c2"), Map.of("A", 1));
        partitions.put("A", 99);

        assertThat(snapshot.subscriptions()).isEqualTo(Map.of(C1, Map.of("A", 1)));
        assertThat(snapshot.partitionCounts()).isEqualTo(Map.of("A", 3));
    }

    @Test
    void isImmutable() {
        GroupSnapshot snapshot = new GroupSnapshot(Map.of(C1, Map.of("A", 1)), Map.of("A", 3));

        assertThatThrownBy(() -> snapshot.subscriptions().clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> snapshot.subscriptionOf(C1).put("B", 1))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> snapshot.partitionCounts().put("B", 1))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void equalContentMeansEqualSnapshotsWhateverTheMapTypes() {
        Map<String, Integer> counts = new HashMap<>();
        IntStream.range(0, 20).forEach(i -> counts.put("t" + i, i));
        GroupSnapshot fromHashMaps = new GroupSnapshot(new HashMap<>(Map.of(C1, Map.of("t1", 1))), counts);
        GroupSnapshot fromImmutableMaps = new GroupSnapshot(Map.of(C1, Map.of("t1", 1)), Map.copyOf(counts));

        assertThat(fromHashMaps).isEqualTo(fromImmutableMaps);
        assertThat(List.copyOf(fromHashMaps.partitionCounts().keySet())).isSorted();
    }

    @Test
    void rejectsAStreamCountBelowOneNamingTheMemberAndTopic() {
        assertThatThrownBy(() -> new GroupSnapshot(Map.of(C1, Map.of("A", 0)), Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("member g_c1: stream count of topic A must be >= 1, got 0");
    }

    @Test
    void rejectsANegativePartitionCountNamingTheTopic() {
        assertThatThrownBy(() -> new GroupSnapshot(Map.of(), Map.of("A", -1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("partition counts: partition count of topic A must be >= 0, got -1");
    }

    @Test
    void rejectsEmptyTopicsAndNulls() {
        Map<String, Integer> nullCount = new HashMap<>();
        nullCount.put("A", null);
        Map<ConsumerId, Map<String, Integer>> nullSubscription = new HashMap<>();
        nullSubscription.put(C1, null);

        assertThatThrownBy(() -> new GroupSnapshot(Map.of(C1, Map.of("", 1)), Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("member g_c1: topic cannot be empty");
        assertThatThrownBy(() -> new GroupSnapshot(Map.of(), nullCount))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("partition count of topic A");
        assertThatThrownBy(() -> new GroupSnapshot(nullSubscription, Map.of()))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("subscription of member g_c1");
        assertThatThrownBy(() -> new GroupSnapshot(null, Map.of())).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new GroupSnapshot(Map.of(), null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void withMemberAddsOrReplacesARegistration() {
        GroupSnapshot snapshot = new GroupSnapshot(Map.of(C1, Map.of("A", 1)), Map.of("A", 3));
        ConsumerId c2 = new ConsumerId("g_c2");

        GroupSnapshot joined = snapshot.withMember(c2, Map.of("A", 2)).withMember(C1, Map.of("B", 1));

        assertThat(joined.subscriptions()).isEqualTo(Map.of(C1, Map.of("B", 1), c2, Map.of("A", 2)));
        assertThat(joined.partitionCounts()).isEqualTo(snapshot.partitionCounts());
        assertThat(snapshot.subscriptions()).isEqualTo(Map.of(C1, Map.of("A", 1)));
    }

    @Test
    void copiesASharedSubscriptionOnceAndKeepsTheCopiesForOtherStickyMembers() {
        Map<String, Integer> shared = new TreeMap<>(Map.of("A", 1, "B", 2));
        TreeMap<ConsumerId, Map<String, Integer>> subscriptions = new TreeMap<>(
                Map.of(C1, shared, new ConsumerId("g_c2"), shared, new ConsumerId("g_c3"), new TreeMap<>()));

        GroupSnapshot snapshot = new GroupSnapshot(subscriptions, Map.of("A", 3));
        shared.put("C", 1);

        assertThat(snapshot.subscriptionOf(C1)).isEqualTo(Map.of("A", 1, "B", 2))
                .isSameAs(snapshot.subscriptionOf(new ConsumerId("g_c2")));
        assertThat(snapshot.withStickyMembers(Set.of(C1)).subscriptions()).isSameAs(snapshot.subscriptions());
        assertThat(snapshot.subscribedTopics()).containsExactly("A", "B").isSameAs(snapshot.subscribedTopics());
        assertThatThrownBy(() -> new GroupSnapshot(new TreeMap<>(Map.of(C1, new TreeMap<>(Map.of("A", 0)))), Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("member g_c1");
    }

    @Test
    void aSortedMapInAnotherOrderIsSortedAgain() {
        TreeMap<ConsumerId, Map<String, Integer>> reversed = new TreeMap<>(Comparator.reverseOrder());
        reversed.put(C1, Map.of("A", 1));
        reversed.put(new ConsumerId("g_c2"), Map.of("A", 1));

        assertThat(new GroupSnapshot(reversed, Map.of()).members()).extracting(ConsumerId::value)
                .containsExactly("g_c1", "g_c2");
    }

    @Test
    void membersSharingOneSubscriptionMapAreEachCounted() {
        Map<String, Integer> one = Map.of("A", 1);
        Map<String, Integer> two = Map.of("A", 2, "B", 1);
        SortedMap<ConsumerId, Map<String, Integer>> subscriptions = new TreeMap<>(Map.of(
                new ConsumerId("c1"), one, new ConsumerId("c2"), one, new ConsumerId("c3"), two,
                new ConsumerId("c4"), one));

        GroupSnapshot snapshot = new GroupSnapshot(subscriptions, Map.of("A", 6, "B", 1));

        assertThat(snapshot.threadsOf("A")).extracting(ThreadId::toString)
                .containsExactly("c1-0", "c2-0", "c3-0", "c3-1", "c4-0");
        assertThat(snapshot.threadsOf("B")).extracting(ThreadId::toString).containsExactly("c3-0");
        assertThat(snapshot.subscribedTopics()).containsExactly("A", "B");
    }
}
