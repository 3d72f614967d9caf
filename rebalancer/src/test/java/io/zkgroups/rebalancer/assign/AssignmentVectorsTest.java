package io.zkgroups.rebalancer.assign;

import org.junit.jupiter.api.Test;

import static io.zkgroups.rebalancer.assign.Groups.group;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * docs/compatibility.md#assignment-vectors: assignments produced by the real 0.8.2.2 assignors, as the union over
 * all members.
 */
class AssignmentVectorsTest {

    private final PartitionAssignor range = PartitionAssignor.forStrategy("range");
    private final PartitionAssignor roundRobin = PartitionAssignor.forStrategy("roundrobin");

    @Test
    void v1RangeGivesEachTopicsLeadingThreadsOneExtraPartition() {
        Groups g = v1Members("g1range_");

        Assignment assignment = range.assign(g.snapshot());

        assertThat(assignment).isEqualTo(g.rows("""
                T1-0 c1-0   T1-1 c1-0   T1-2 c2-0   T1-3 c2-1   T1-4 c3-0
                T2-0 c1-0   T2-1 c1-0   T2-2 c2-0   T2-3 c2-0   T2-4 c2-1   T2-5 c2-1   T2-6 c3-0
                """));
        assertThat(assignment.forConsumer(g.thread("c1", 0).consumer()))
                .isEqualTo(g.rows("T1-0 c1-0  T1-1 c1-0  T2-0 c1-0  T2-1 c1-0"));
    }

    @Test
    void v1RoundRobinDealsPartitionsInHashOrderAcrossTopics() {
        Groups g = v1Members("g1roundrobin_");

        assertThat(roundRobin.assign(g.snapshot())).isEqualTo(g.rows("""
                T1-0 c1-0   T1-1 c2-0   T1-2 c2-1   T1-3 c3-0   T1-4 c1-0
                T2-0 c2-0   T2-1 c2-1   T2-2 c3-0   T2-3 c1-0   T2-4 c2-0   T2-5 c2-1   T2-6 c3-0
                """));
    }

    @Test
    void v2RangeLeavesTheLastThreadIdleWhenThereAreFewerPartitionsThanThreads() {
        Groups g = group("").member("c1", "A", 1).member("c2", "A", 1).member("c3", "A", 1).member("c4", "A", 1)
                .topic("A", 3);

        Assignment assignment = range.assign(g.snapshot());

        assertThat(assignment).isEqualTo(g.rows("A-0 c1-0  A-1 c2-0  A-2 c3-0"));
        assertThat(assignment.partitionsOf(g.thread("c4", 0))).isEmpty();
    }

    @Test
    void v3RangeOrdersAMembersThreadsByTheirTextSoThread10ComesBeforeThread2() {
        Groups g = group("").member("c", "X", 12).topic("X", 12);

        assertThat(range.assign(g.snapshot())).isEqualTo(g.rows("""
                X-0 c-0  X-1 c-1  X-2 c-10  X-3 c-11  X-4 c-2  X-5 c-3
                X-6 c-4  X-7 c-5  X-8 c-6   X-9 c-7   X-10 c-8 X-11 c-9
                """));
    }

    @Test
    void v4RangeOrdersMembersByTheirTextSoC10ComesBeforeC2() {
        Groups g = group("").member("c2", "A", 1).member("c9", "A", 1).member("c10", "A", 1).topic("A", 3);

        assertThat(range.assign(g.snapshot())).isEqualTo(g.rows("A-0 c10-0  A-1 c2-0  A-2 c9-0"));
    }

    @Test
    void v5RangeAssignsEachTopicAmongItsOwnSubscribersOnly() {
        Groups g = v5Members();

        assertThat(range.assign(g.snapshot())).isEqualTo(g.rows("""
                A-0 c1-0  A-1 c1-0  A-2 c2-0
                B-0 c1-0  B-1 c1-0  B-2 c1-0
                """));
    }

    @Test
    void v6RoundRobinRefusesMembersWithDifferentTopics() {
        GroupSnapshot snapshot = v5Members().snapshot();

        assertThatThrownBy(() -> roundRobin.assign(snapshot))
                .isInstanceOf(IncompatibleSubscriptionException.class)
                .hasMessageContaining("member c2 {A=1} does not subscribe to [B]")
                .hasMessageContaining("0.8.2.2 members in this group would fail every rebalance with \""
                        + "Round-robin assignment is allowed only if all consumers in the group subscribe to the same"
                        + " topics, AND if the stream counts across topics are identical for a given consumer"
                        + " instance.\"")
                .hasMessageContaining("partition.assignment.strategy=range");
    }

    @Test
    void v7RoundRobinRefusesMembersWithDifferentStreamCountsAcrossTopics() {
        GroupSnapshot snapshot = group("").member("c1", "A", 1, "B", 2).member("c2", "A", 1, "B", 2)
                .topic("A", 3).topic("B", 3).snapshot();

        assertThatThrownBy(() -> roundRobin.assign(snapshot))
                .isInstanceOfSatisfying(IncompatibleSubscriptionException.class, refused ->
                        assertThat(refused.problems()).containsExactly(
                                "member c1 {A=1, B=2} has different stream counts across its topics",
                                "member c2 {A=1, B=2} has different stream counts across its topics"))
                .hasMessageContaining(IncompatibleSubscriptionException.LEGACY_MESSAGE);
    }

    @Test
    void v8RoundRobinWithSeveralStreamsPerMember() {
        Groups g = group("").member("c1", "A", 2, "B", 2, "Y", 2).member("c2", "A", 2, "B", 2, "Y", 2)
                .topic("A", 3).topic("B", 3).topic("Y", 2);

        assertThat(roundRobin.assign(g.snapshot())).isEqualTo(g.rows("""
                A-0 c1-0  A-1 c1-1  A-2 c2-0  B-0 c2-1  B-1 c1-0  B-2 c1-1  Y-0 c2-0  Y-1 c2-1
                """));
    }

    @Test
    void v9RoundRobinGivesOnePartitionToEachOfThreeMembers() {
        Groups g = group("").member("c1", "A", 1).member("c2", "A", 1).member("c3", "A", 1).topic("A", 3);

        assertThat(roundRobin.assign(g.snapshot())).isEqualTo(g.rows("A-0 c1-0  A-1 c2-0  A-2 c3-0"));
    }

    @Test
    void v10RangeOverATopicThatDoesNotExistAssignsNothing() {
        GroupSnapshot snapshot = group("").member("c1", "NOSUCH", 1).snapshot();

        assertThat(range.assign(snapshot)).isEqualTo(Assignment.empty());
        assertThat(roundRobin.assign(snapshot)).isEqualTo(Assignment.empty());
    }

    @Test
    void v11RoundRobinInterleavesTopicsByHashCode() {
        Groups g = v11Members("g11_");

        assertThat(roundRobin.assign(g.snapshot())).isEqualTo(g.rows("""
                orders-0 a-0  orders-1 b-0  orders-2 c-0   orders-3 a-0   orders-4 b-0  orders-5 c-0
                orders-6 a-0  orders-7 b-0  orders-8 c-0   orders-9 a-0   orders-10 b-0 orders-11 c-0
                clicks-0 a-0  clicks-1 b-0  clicks-2 c-0   clicks-3 a-0
                """));
    }

    @Test
    void v12RangeOverTheV11Group() {
        Groups g = v11Members("g12_");

        assertThat(range.assign(g.snapshot())).isEqualTo(g.rows("""
                orders-0 a-0  orders-1 a-0  orders-2 a-0   orders-3 a-0
                orders-4 b-0  orders-5 b-0  orders-6 b-0   orders-7 b-0
                orders-8 c-0  orders-9 c-0  orders-10 c-0  orders-11 c-0
                clicks-0 a-0  clicks-1 a-0  clicks-2 b-0   clicks-3 c-0
                """));
    }

    private static Groups v1Members(String prefix) {
        return group(prefix).member("c1", "T1", 1, "T2", 1).member("c2", "T1", 2, "T2", 2)
                .member("c3", "T1", 1, "T2", 1).topic("T1", 5).topic("T2", 7);
    }

    private static Groups v5Members() {
        return group("").member("c1", "A", 1, "B", 1).member("c2", "A", 1).topic("A", 3).topic("B", 3);
    }

    private static Groups v11Members(String prefix) {
        return group(prefix).member("a", "orders", 1, "clicks", 1).member("b", "orders", 1, "clicks", 1)
                .member("c", "orders", 1, "clicks", 1).topic("orders", 12).topic("clicks", 4);
    }
}
