package io.zkgroups.tool.health;

import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.MemberRegistration;
import io.zkgroups.registry.model.Subscription;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.store.Listing;
import io.zkgroups.registry.store.Member;
import io.zkgroups.registry.store.PartitionOwner;
import io.zkgroups.registry.store.Unreadable;
import io.zkgroups.tool.ExitCode;
import io.zkgroups.tool.group.KafkaCoordination;
import io.zkgroups.tool.group.KafkaCoordination.KafkaMember;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class KafkaGroupHealthTest {

    private static final TopicAndPartition T0 = new TopicAndPartition("t", 0);
    private static final TopicAndPartition T1 = new TopicAndPartition("t", 1);
    private static final Listing<Member> NONE = Listing.empty();

    private static KafkaMember zkgroups(String client, TopicAndPartition... assigned) {
        return new KafkaMember("m-" + client, client + "-zkgroups", "10.0.0.1", Set.of(assigned), true);
    }

    private static KafkaCoordination group(String state, KafkaMember... members) {
        return new KafkaCoordination("g", state, "range", "127.0.0.1:9092", List.of(members));
    }

    private static PartitionOwner fence(TopicAndPartition tp, String thread) {
        return new PartitionOwner(tp, thread, 1L);
    }

    @Test
    void aStableKafkaGroupWhoseZkgroupsMembersHoldTheirFencesIsHealthyWithoutAnyRegistration() {
        HealthReport r = KafkaGroupHealth.evaluate(group("stable", zkgroups("a", T0), zkgroups("b", T1)), NONE,
                List.of(fence(T0, "a-0"), fence(T1, "b-0")), Map.of("t", 2), 2);

        assertThat(r.findings()).isEmpty();
        assertThat(r.members()).isEqualTo(2);
        assertThat(r.owned()).isEqualTo(2);
        assertThat(r.strategy()).isEqualTo("kafka:range");
    }

    @Test
    void aPartitionWaitingForItsFenceOrHeldByAMemberThatHasNotCrossedIsNotHealthy() {
        KafkaCoordination k = group("stable", zkgroups("a", T0, T1));

        HealthReport waiting = KafkaGroupHealth.evaluate(k, NONE, List.of(fence(T0, "a-0")), Map.of("t", 2), null);
        assertThat(waiting.exitCode()).isEqualTo(ExitCode.HEALTH_ASSIGNMENT);
        assertThat(waiting.findings().get(0).message()).contains("[t,1] (a-zkgroups)").contains("fence");

        KafkaCoordination plain = group("stable", zkgroups("a", T0),
                new KafkaMember("m-p", "plain", "10.0.0.2", Set.of(T1), false));
        HealthReport held = KafkaGroupHealth.evaluate(plain, NONE, List.of(fence(T0, "a-0"), fence(T1, "old-0")),
                Map.of("t", 2), null);
        assertThat(held.exitCode()).isEqualTo(ExitCode.HEALTH_FOREIGN_OWNER);
        assertThat(held.findings().get(0).message()).contains("[t,1] by old-0 (Kafka assigns it to plain)");
    }

    @Test
    void membersCountedInKafkasGroupAndItsStateAndUnassignedPartitionsAreJudged() {
        HealthReport empty = KafkaGroupHealth.evaluate(group("empty"), NONE, List.of(), Map.of("t", 2), null);
        assertThat(empty.exitCode()).isEqualTo(ExitCode.HEALTH_MEMBERS);
        assertThat(empty.findings().get(0).message()).contains("Kafka's group has no member");

        HealthReport fewer = KafkaGroupHealth.evaluate(group("preparing-rebalance", zkgroups("a", T0)), NONE,
                List.of(fence(T0, "a-0")), Map.of("t", 2), 2);
        assertThat(fewer.findings()).extracting(HealthReport.Finding::condition).containsExactly(
                HealthCondition.MEMBERS, HealthCondition.UNOWNED, HealthCondition.ASSIGNMENT);
        assertThat(fewer.findings().get(1).message()).contains("[t,1]");
        assertThat(fewer.findings().get(2).message()).contains("preparing-rebalance");
    }

    @Test
    void everyRegistrationInTheZooKeeperGroupOfAGroupOnKafkaIsNamedAndUnhealthy() {
        // a 0.8.2.2 consumer started after the switch registers, is assigned everything by its own assignor and claims
        // nothing: the zkgroups members keep their owner znodes, so Kafka's side alone looks healthy
        Listing<Member> registered = new Listing<>(List.of(registration("g_legacy", Map.of()),
                registration("g_late", Map.of("assignor", "range", "cutover", "1", "v", "1"))),
                List.of(new Unreadable("/consumers/g/ids/g_x", "not valid JSON")));
        HealthReport r = KafkaGroupHealth.evaluate(group("stable", zkgroups("a", T0), zkgroups("b", T1)), registered,
                List.of(fence(T0, "a-0"), fence(T1, "b-0")), Map.of("t", 2), 2);

        assertThat(r.exitCode()).isEqualTo(ExitCode.HEALTH_MEMBERS);
        assertThat(r.findings()).extracting(HealthReport.Finding::condition).containsExactly(HealthCondition.MEMBERS);
        assertThat(r.findings().get(0).message()).contains("3 consumers are registered in ZooKeeper (/consumers/g/ids)")
                .contains("g_legacy (a 0.8.2.2 or kafka-node consumer").contains("it claims nothing")
                .contains("g_late (a zkgroups member that has not crossed yet)")
                .contains("/consumers/g/ids/g_x (registration unreadable: not valid JSON)");
        assertThat(r.members()).as("Kafka's members are still the ones counted").isEqualTo(2);
    }

    private static Member registration(String id, Map<String, String> capabilities) {
        return new Member(new ConsumerId(id), new MemberRegistration(Subscription.topics(Map.of("t", 1)), "1",
                capabilities), 1L, 1L);
    }
}
