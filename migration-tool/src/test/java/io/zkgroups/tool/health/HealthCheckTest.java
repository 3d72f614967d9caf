package io.zkgroups.tool.health;

import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.store.PartitionOwner;
import io.zkgroups.registry.store.Unreadable;
import io.zkgroups.rebalancer.assign.PartitionAssignor;
import io.zkgroups.tool.ExitCode;
import io.zkgroups.tool.group.MigrationPhase;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class HealthCheckTest {

    private static final ConsumerId C1 = new ConsumerId("g_c1");
    private static final ConsumerId C2 = new ConsumerId("g_c2");
    private static final Map<ConsumerId, Map<String, Integer>> TWO_MEMBERS = Map.of(C1, Map.of("A", 1), C2, Map.of("A", 1));
    private static final Map<String, Integer> A3 = Map.of("A", 3);

    private static PartitionOwner owner(int p, String thread) {
        return new PartitionOwner(new TopicAndPartition("A", p), thread, 1L);
    }

    /** Range over c1, c2 for A with 3 partitions: to c1-0; A-2 to c2-0. */
    private static List<PartitionOwner> rangeOwners() {
        return List.of(owner(0, "g_c1-0"), owner(1, "g_c1-0"), owner(2, "g_c2-0"));
    }

    private static HealthInput input(List<PartitionOwner> owners, Integer expect, HealthInput.StoreCheck stores) {
        return new HealthInput("g", TWO_MEMBERS, List.of(), A3, owners, List.of(), List.of(), List.of(),
                PartitionAssignor.forStrategy("range"), expect, stores);
    }

    @Test
    void aCompleteAssignmentMatchingTheAssignorIsHealthy() {
        HealthReport report = HealthCheck.evaluate(input(rangeOwners(), 2, null));
        assertThat(report.healthy()).isTrue();
        assertThat(report.exitCode()).isEqualTo(ExitCode.OK);
        assertThat(report.partitions()).isEqualTo(3);
    }

    @Test
    void aMissingOwnerIsUnowned() {
        HealthReport report = HealthCheck.evaluate(input(rangeOwners().subList(0, 2), null, null));
        assertThat(report.exitCode()).isEqualTo(ExitCode.HEALTH_UNOWNED);
        assertThat(report.findings().get(0).message()).contains("A:2");
    }

    @Test
    void anOwnerThatIsNoMemberIsForeign() {
        List<PartitionOwner> owners = new ArrayList<>(rangeOwners());
        owners.set(2, owner(2, "g_gone-0"));
        HealthReport report = HealthCheck.evaluate(input(owners, null, null));
        assertThat(report.exitCode()).isEqualTo(ExitCode.HEALTH_FOREIGN_OWNER);
        assertThat(report.findings().get(0).message()).contains("g_gone-0");
    }

    @Test
    void ownersThatDifferFromTheAssignorMeanARebalanceIsPending() {
        List<PartitionOwner> owners = List.of(owner(0, "g_c1-0"), owner(1, "g_c2-0"), owner(2, "g_c2-0"));
        HealthReport report = HealthCheck.evaluate(input(owners, null, null));
        assertThat(report.exitCode()).isEqualTo(ExitCode.HEALTH_ASSIGNMENT);
        assertThat(report.findings().get(0).message()).contains("A:1 owned by g_c2-0, the range assignor gives it to g_c1-0");
    }

    @Test
    void theMemberCountIsChecked() {
        assertThat(HealthCheck.evaluate(input(rangeOwners(), 3, null)).exitCode()).isEqualTo(ExitCode.HEALTH_MEMBERS);
        HealthInput noMembers = new HealthInput("g", Map.of(), List.of(), A3, List.of(), List.of(), List.of(), List.of(),
                PartitionAssignor.forStrategy("range"), null, null);
        assertThat(HealthCheck.evaluate(noMembers).exitCode()).isEqualTo(ExitCode.HEALTH_MEMBERS);
    }

    @Test
    void everyUnreadableZnodeIsNamedWithItsReasonAndComesFirst() {
        Unreadable registration = new Unreadable("/consumers/g/ids/x", "bad json");
        Unreadable owner = new Unreadable("/consumers/g/owners/A/7x", "'7x' is not a partition number");
        Unreadable offset = new Unreadable("/consumers/g/offsets/A/2", "offset: not a number: 'garbage'");
        Unreadable topic = new Unreadable("/brokers/topics/B", "topic registration: not valid JSON");
        HealthInput in = new HealthInput("g", TWO_MEMBERS, List.of(registration), A3, rangeOwners().subList(0, 2),
                List.of(owner), List.of(offset), List.of(topic), PartitionAssignor.forStrategy("range"), 3, null);

        HealthReport report = HealthCheck.evaluate(in);

        assertThat(report.exitCode()).isEqualTo(ExitCode.HEALTH_UNREADABLE);
        assertThat(report.unreadable()).containsExactly(registration, owner, offset, topic);
        assertThat(report.findings().get(0).message()).contains("4 znodes cannot be read")
                .contains("/consumers/g/ids/x (bad json)").contains("/consumers/g/owners/A/7x ('7x' is not a partition number)")
                .contains("/consumers/g/offsets/A/2 (offset: not a number: 'garbage')")
                .contains("/brokers/topics/B (topic registration: not valid JSON)");
        assertThat(report.has(HealthCondition.MEMBERS)).as("3 members, 3 expected").isFalse();
        assertThat(report.has(HealthCondition.UNOWNED)).isTrue();
        assertThat(report.has(HealthCondition.FOREIGN_OWNER)).as("an unreadable owner is not a foreign one").isFalse();
    }

    @Test
    void aGroupThatLooksStableButHasAnUnreadableOffsetIsUnhealthy() {
        Unreadable offset = new Unreadable("/consumers/g/offsets/A/2", "offset: not a number: 'garbage'");
        HealthInput in = new HealthInput("g", TWO_MEMBERS, List.of(), A3, rangeOwners(), List.of(), List.of(offset),
                List.of(), PartitionAssignor.forStrategy("range"), 2, null);

        HealthReport report = HealthCheck.evaluate(in);

        assertThat(report.findings()).singleElement().satisfies(f -> {
            assertThat(f.condition()).isEqualTo(HealthCondition.UNREADABLE);
            assertThat(f.message()).contains("/consumers/g/offsets/A/2");
        });
    }

    @Test
    void roundRobinRefusesUnequalSubscriptions() {
        HealthInput in = new HealthInput("g", Map.of(C1, Map.of("A", 1, "B", 1), C2, Map.of("A", 1)), List.of(),
                Map.of("A", 3, "B", 3), List.of(), List.of(), List.of(), List.of(), PartitionAssignor.forStrategy("roundrobin"),
                null, null);
        assertThat(HealthCheck.evaluate(in).exitCode()).isEqualTo(ExitCode.HEALTH_ASSIGNOR_REFUSED);
    }

    @Test
    void inTheDualCommitPhaseTheStoresMustAgreeWithinTheTolerance() {
        TopicAndPartition a0 = new TopicAndPartition("A", 0);
        TopicAndPartition a1 = new TopicAndPartition("A", 1);
        HealthInput.StoreCheck differ = new HealthInput.StoreCheck(MigrationPhase.DUAL_COMMIT, Map.of(a0, 10L, a1, 5L),
                Map.of(a0, 12L), 2);
        HealthReport report = HealthCheck.evaluate(input(rangeOwners(), 2, differ));
        assertThat(report.exitCode()).isEqualTo(ExitCode.HEALTH_STORES);
        assertThat(report.findings().get(0).message()).contains("A:1 zookeeper=5 kafka=none").doesNotContain("A:0");

        HealthInput.StoreCheck zkOnly = new HealthInput.StoreCheck(MigrationPhase.ZOOKEEPER_ONLY, Map.of(a0, 10L), Map.of(), 0);
        HealthReport notApplicable = HealthCheck.evaluate(input(rangeOwners(), 2, zkOnly));
        assertThat(notApplicable.healthy()).isTrue();
        assertThat(notApplicable.storeStatus()).contains("not applicable");
    }

    @Test
    void membersThatCannotFetchMakeAHealthyLookingGroupUnhealthyAndAreNamed() {
        HealthReport healthy = HealthCheck.evaluate(input(rangeOwners(), 2, null));
        assertThat(HealthCheck.withMemberAlarms(healthy, Map.of())).isEqualTo(healthy);

        String cause = "cannot be fetched: no connection to any broker since 2026-12-06T02:00:00Z (is Kafka reachable?)";
        HealthReport report = HealthCheck.withMemberAlarms(healthy, new java.util.TreeMap<>(Map.of(
                C1, List.of(new io.zkgroups.registry.store.Unreadable("kafka:A-0", cause),
                        new io.zkgroups.registry.store.Unreadable("kafka:A-1", cause)))));
        assertThat(report.healthy()).isFalse();
        assertThat(report.exitCode()).isEqualTo(io.zkgroups.tool.ExitCode.HEALTH_MEMBER_ALARMS);
        assertThat(report.findings()).singleElement().satisfies(f -> assertThat(f.message())
                .isEqualTo("1 members report 2 partitions they cannot fetch or resume: g_c1: kafka:A-0, kafka:A-1 ("
                        + cause + ")"));
    }

    /** A rewind the member already wrote back is a notice: the offset is whole, so a bounce gated on health goes on. */
    @Test
    void aRewindWrittenBackIsANoticeNotAFinding() {
        HealthReport healthy = HealthCheck.evaluate(input(rangeOwners(), 2, null));
        io.zkgroups.registry.store.Unreadable rewind = new io.zkgroups.registry.store.Unreadable("/consumers/g/offsets/A/0",
                io.zkgroups.registry.codec.MemberAlarmsCodec.RESTORED_REWIND + "100 at 2026-12-06T02:00:00Z by another "
                        + "writer (unknown writer) while g_c1 owned it at 200; restored to 200");
        io.zkgroups.registry.store.Unreadable cannotFetch = new io.zkgroups.registry.store.Unreadable("kafka:A-1",
                "cannot be fetched: no connection to any broker");
        Map<ConsumerId, List<io.zkgroups.registry.store.Unreadable>> onlyRewind = Map.of(C1, List.of(rewind));

        assertThat(HealthCheck.withMemberAlarms(healthy, onlyRewind)).isEqualTo(healthy);
        assertThat(HealthCheck.restoredRewinds(onlyRewind)).containsExactly("g_c1: /consumers/g/offsets/A/0 "
                + rewind.reason());

        Map<ConsumerId, List<io.zkgroups.registry.store.Unreadable>> both = new java.util.TreeMap<>(Map.of(
                C1, List.of(rewind), C2, List.of(cannotFetch)));
        HealthReport report = HealthCheck.withMemberAlarms(healthy, both);
        assertThat(report.exitCode()).isEqualTo(ExitCode.HEALTH_MEMBER_ALARMS);
        assertThat(report.findings()).singleElement().satisfies(f -> assertThat(f.message())
                .startsWith("1 members report 1 partitions they cannot fetch or resume: g_c2: kafka:A-1")
                .doesNotContain("g_c1"));
        assertThat(HealthCheck.restoredRewinds(both)).hasSize(1);
    }
}
