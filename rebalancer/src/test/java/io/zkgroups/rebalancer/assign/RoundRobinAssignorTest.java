package io.zkgroups.rebalancer.assign;

import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.TopicAndPartition;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.zkgroups.rebalancer.assign.Groups.group;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RoundRobinAssignorTest {

    private final RoundRobinAssignor roundRobin = new RoundRobinAssignor();
    private final ConsumerId c1 = new ConsumerId("g_c1");
    private final ConsumerId c2 = new ConsumerId("g_c2");

    @Test
    void aMemberThatSubscribesToNothingIsIgnoredLike082AndGetsNothing() {
        Groups g = group("").member("c1", "A", 1).member("idle").member("c2", "A", 1).topic("A", 3);

        assertThat(roundRobin.assign(g.snapshot())).isEqualTo(g.rows("A-0 c1-0  A-1 c2-0  A-2 c1-0"));
    }

    @Test
    void anEmptyGroupGetsAnEmptyAssignment() {
        assertThat(roundRobin.assign(GroupSnapshot.empty())).isEqualTo(Assignment.empty());
    }

    @Test
    void validateAcceptsUniformSubscriptions() {
        assertThatNoException().isThrownBy(() -> RoundRobinAssignor.validate(
                Map.of(c1, Map.of("A", 2, "B", 2), c2, Map.of("A", 1, "B", 1))));
    }

    @Test
    void validateNamesEveryMemberThatBreaksTheRule() {
        assertThatThrownBy(() -> RoundRobinAssignor.validate(Map.of(
                c1, Map.of("A", 1, "B", 2),
                c2, Map.of("C", 1))))
                .isInstanceOfSatisfying(IncompatibleSubscriptionException.class, refused ->
                        assertThat(refused.problems()).containsExactly(
                                "member g_c1 {A=1, B=2} does not subscribe to [C], which other members subscribe to",
                                "member g_c1 {A=1, B=2} has different stream counts across its topics",
                                "member g_c2 {C=1} does not subscribe to [A, B], which other members subscribe to"));
    }

    @Test
    void validateJoinRefusesACandidateWhoseTopicsDifferFromTheGroups() {
        Map<ConsumerId, Map<String, Integer>> members = Map.of(c1, Map.of("A", 1, "B", 1));

        assertThatThrownBy(() -> RoundRobinAssignor.validateJoin(c2, Map.of("A", 1), members))
                .isInstanceOf(IncompatibleSubscriptionException.class)
                .hasMessageStartingWith("round-robin assignment is impossible for this group: member g_c2 {A=1}"
                        + " does not subscribe to [B], which other members subscribe to. 0.8.2.2 members")
                .hasMessageContaining(IncompatibleSubscriptionException.LEGACY_MESSAGE);
    }

    @Test
    void validateJoinReplacesTheCandidatesOwnStaleRegistration() {
        Map<ConsumerId, Map<String, Integer>> members = Map.of(c1, Map.of("A", 1), c2, Map.of("OLD", 3));

        assertThatNoException().isThrownBy(() -> RoundRobinAssignor.validateJoin(c2, Map.of("A", 4), members));
    }

    @Test
    void longListsOfProblemsAreCutShortInTheMessageButKeptInFull() {
        Groups g = group("");
        for (int i = 0; i < 15; i++) {
            g.member("m" + i, "own" + i, 1);
        }

        assertThatThrownBy(() -> roundRobin.assign(g.snapshot()))
                .isInstanceOfSatisfying(IncompatibleSubscriptionException.class,
                        refused -> assertThat(refused.problems()).hasSize(15))
                .hasMessageContaining("; and 5 more.");
    }

    @Test
    void refusesTopicsWhosePartitionTextsCollideWhenTheOwnersWouldDependOnAnUnknowableOrder() {
        GroupSnapshot snapshot = group("").member("c1", "Aa", 1, "BB", 1).member("c2", "Aa", 1, "BB", 1)
                .topic("Aa", 1).topic("BB", 1).snapshot();

        assertThatThrownBy(() -> roundRobin.assign(snapshot))
                .isInstanceOfSatisfying(AmbiguousAssignmentException.class, refused ->
                        assertThat(refused.ambiguousTies())
                                .containsExactly(List.of(TopicAndPartition.of("Aa", 0), TopicAndPartition.of("BB", 0))))
                .hasMessageStartingWith("round-robin assignment is ambiguous for this group: [[Aa,0], [BB,0]] all"
                        + " hash to -1626752098.")
                .hasMessageContaining("with 2 consumer threads")
                .hasMessageContaining("partition.assignment.strategy=range");
    }

    @Test
    void assignsCollidingTopicsWhenOneThreadOwnsEverythingAnyway() {
        Groups g = group("").member("c1", "Aa", 1, "BB", 1).topic("Aa", 2).topic("BB", 2);

        assertThat(roundRobin.assign(g.snapshot())).isEqualTo(g.rows("Aa-0 c1-0  Aa-1 c1-0  BB-0 c1-0  BB-1 c1-0"));
    }

    @Test
    void assignsATopicWhoseOwnPartitionsCollideInAscendingOrder() {
        // "[nuhibt,0]" and "[nuhibt,13]" share a hash code; 0.8.2.2 keeps them in ascending order.
        Groups g = group("").member("c1", "nuhibt", 1).member("c2", "nuhibt", 1).topic("nuhibt", 14);

        Assignment assignment = roundRobin.assign(g.snapshot());

        assertThat(assignment.owner(TopicAndPartition.of("nuhibt", 0))).isNotEqualTo(
                assignment.owner(TopicAndPartition.of("nuhibt", 13)));
        assertThat(assignment.size()).isEqualTo(14);
    }
}
