package io.zkgroups.tool.health;

import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.store.PartitionOwner;
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
        HealthReport r = KafkaGroupHealth.evaluate(group("stable", zkgroups("a", T0), zkgroups("b", T1)),
                List.of(fence(T0, "a-0"), fence(T1, "b-0")), Map.of("t", 2), 2);

        assertThat(r.findings()).isEmpty();
        assertThat(r.members()).isEqualTo(2);
        assertThat(r.owned()).isEqualTo(2);
        assertThat(r.strategy()).isEqualTo("kafka:range");
    }

    @Test
    void aPartitionWaitingForItsFenceOrHeldByAMemberThatHasNotCrossedIsNotHealthy() {
        KafkaCoordination k = group("stable", zkgroups("a", T0, T1));

        HealthReport waiting = KafkaGroupHealth.evaluate(k, List.of(fence(T0, "a-0")), Map.of("t", 2), null);
        assertThat(waiting.exitCode()).isEqualTo(ExitCode.HEALTH_ASSIGNMENT);
        assertThat(waiting.findings().get(0).message()).contains("[t,1] (a-zkgroups)").contains("fence");

        KafkaCoordination plain = group("stable", zkgroups("a", T0),
                new KafkaMember("m-p", "plain", "10.0.0.2", Set.of(T1), false));
        HealthReport held = KafkaGroupHealth.evaluate(plain, List.of(fence(T0, "a-0"), fence(T1, "old-0")),
                Map.of("t", 2), null);
        assertThat(held.exitCode()).isEqualTo(ExitCode.HEALTH_FOREIGN_OWNER);
        assertThat(held.findings().get(0).message()).contains("[t,1] by old-0 (Kafka assigns it to plain)");
    }

    @Test
    void membersCountedInKafkasGroupAndItsStateAndUnassignedPartitionsAreJudged() {
        HealthReport empty = KafkaGroupHealth.evaluate(group("empty"), List.of(), Map.of("t", 2), null);
        assertThat(empty.exitCode()).isEqualTo(ExitCode.HEALTH_MEMBERS);
        assertThat(empty.findings().get(0).message()).contains("Kafka's group has no member");

        HealthReport fewer = KafkaGroupHealth.evaluate(group("preparing-rebalance", zkgroups("a", T0)),
                List.of(fence(T0, "a-0")), Map.of("t", 2), 2);
        assertThat(fewer.findings()).extracting(HealthReport.Finding::condition).containsExactly(
                HealthCondition.MEMBERS, HealthCondition.UNOWNED, HealthCondition.ASSIGNMENT);
        assertThat(fewer.findings().get(1).message()).contains("[t,1]");
        assertThat(fewer.findings().get(2).message()).contains("preparing-rebalance");
    }
}
