package io.zkgroups.rebalancer.assign;

import org.junit.jupiter.api.Test;

import static io.zkgroups.rebalancer.assign.Groups.group;
import static org.assertj.core.api.Assertions.assertThat;

class RangeAssignorTest {

    private final RangeAssignor range = new RangeAssignor();

    @Test
    void anEmptyGroupGetsAnEmptyAssignment() {
        assertThat(range.assign(GroupSnapshot.empty())).isEqualTo(Assignment.empty());
    }

    @Test
    void aTopicWithZeroPartitionsAndAnIdleMemberContributeNothing() {
        Groups g = group("").member("c1", "A", 2, "EMPTY", 1).member("idle").topic("A", 3).topic("EMPTY", 0);

        assertThat(range.assign(g.snapshot())).isEqualTo(g.rows("A-0 c1-0  A-1 c1-0  A-2 c1-1"));
    }

    @Test
    void unsubscribedTopicsAreNotAssigned() {
        Groups g = group("").member("c1", "A", 1).topic("A", 1).topic("other", 5);

        assertThat(range.assign(g.snapshot())).isEqualTo(g.rows("A-0 c1-0"));
    }

    @Test
    void membersMayUseDifferentStreamCountsOnDifferentTopics() {
        Groups g = group("").member("c1", "A", 1, "B", 3).member("c2", "B", 1).topic("A", 2).topic("B", 5);

        // B threads: c1-0, c1-1, c1-2, c2-0; n = 1, r = 1.
        assertThat(range.assign(g.snapshot())).isEqualTo(g.rows("""
                A-0 c1-0  A-1 c1-0
                B-0 c1-0  B-1 c1-0  B-2 c1-1  B-3 c1-2  B-4 c2-0
                """));
    }
}
