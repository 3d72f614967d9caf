package io.zkgroups.tool.migrate;

import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.MemberRegistration;
import io.zkgroups.registry.model.Subscription;
import io.zkgroups.registry.store.Listing;
import io.zkgroups.registry.store.Member;
import io.zkgroups.registry.store.Unreadable;
import io.zkgroups.tool.group.MigrationPhase;
import io.zkgroups.tool.group.PhaseInference;
import io.zkgroups.tool.io.OffsetsTopicPartition;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** The guard rails of {@code zkgroups migrate coordination --to kafka} that read the ZooKeeper group (docs/cutover.md). */
class CoordinationCutoverTest {

    private static Member member(String name, Map<String, String> capabilities) {
        MemberRegistration registration = new MemberRegistration(Subscription.topics(Map.of("T", 1)), "1",
                capabilities);
        return new Member(new ConsumerId("g_" + name), registration, 1L, 1L);
    }

    private static final Map<String, String> CROSSES = Map.of("assignor", "range", "cutover", "1", "v", "1");

    @Test
    void membersThatAllAdvertiseTheCapabilityMayCross() {
        CoordinationCutover.Check check = CoordinationCutover.members(
                new Listing<>(List.of(member("a", CROSSES), member("b", CROSSES)), List.of()));
        assertThat(check.ok()).isTrue();
        assertThat(check.detail()).contains("2 registered");
    }

    @Test
    void aMemberWithoutCapabilitiesOrAnOlderZkgroupsIsNamedAndRefuses() {
        CoordinationCutover.Check check = CoordinationCutover.members(new Listing<>(List.of(member("a", CROSSES),
                member("legacy", Map.of()), member("old", Map.of("assignor", "range", "v", "1"))), List.of()));
        assertThat(check.ok()).isFalse();
        assertThat(check.detail()).contains("g_legacy (a 0.8.2.2 or kafka-node consumer")
                .contains("g_old (a zkgroups version that cannot cross)").doesNotContain("g_a ");
    }

    @Test
    void anUnreadableRegistrationRefuses() {
        CoordinationCutover.Check check = CoordinationCutover.members(new Listing<>(List.of(member("a", CROSSES)),
                List.of(new Unreadable("/consumers/g/ids/g_x", "not valid JSON"))));
        assertThat(check.ok()).isFalse();
        assertThat(check.detail()).contains("/consumers/g/ids/g_x (registration unreadable: not valid JSON)");
    }

    @Test
    void offsetsMustBeInKafkaOrNowhereYet() {
        for (MigrationPhase phase : MigrationPhase.values()) {
            CoordinationCutover.Check check = CoordinationCutover.offsets(new PhaseInference.Result(phase, "why"));
            boolean expected = phase == MigrationPhase.DUAL_COMMIT || phase == MigrationPhase.KAFKA_ONLY
                    || phase == MigrationPhase.NONE;
            assertThat(check.ok()).as(phase.label()).isEqualTo(expected);
            if (!expected) {
                assertThat(check.detail()).contains("move the offsets to Kafka first");
            }
        }
    }

    @Test
    void kafkaMustBeAbleToStoreTheGroupsCommitsNow() {
        CoordinationCutover.Check ok = CoordinationCutover.writable(Optional.of(
                new OffsetsTopicPartition(7, "b1:9092", 2, 3, 2)));
        assertThat(ok.ok()).isTrue();
        assertThat(ok.detail()).isEqualTo("__consumer_offsets-7 led by b1:9092, 2 of 3 replicas in sync (min.insync.replicas 2)");

        CoordinationCutover.Check tooFew = CoordinationCutover.writable(Optional.of(
                new OffsetsTopicPartition(7, "b1:9092", 1, 3, 2)));
        assertThat(tooFew.ok()).isFalse();
        assertThat(tooFew.detail()).contains("1 of 3 replicas in sync (min.insync.replicas 2)")
                .contains("cannot store the group's commits now");

        CoordinationCutover.Check noLeader = CoordinationCutover.writable(Optional.of(
                new OffsetsTopicPartition(7, null, 0, 3, 1)));
        assertThat(noLeader.ok()).isFalse();
        assertThat(noLeader.detail()).contains("__consumer_offsets-7 has no leader");

        assertThat(CoordinationCutover.writable(Optional.empty()).ok()).isFalse();
    }

    /** The same placement as the brokers' (a group's coordinator is the leader of this partition). */
    @Test
    void theGroupsPartitionIsTheBrokersChoice() {
        assertThat(OffsetsTopicPartition.partitionFor("my-group", 50)).isEqualTo(Math.abs("my-group".hashCode()) % 50);
        // Integer.MIN_VALUE's absolute value is itself: the brokers map it to 0
        String minHash = "polygenelubricants";
        assertThat(minHash.hashCode()).isEqualTo(Integer.MIN_VALUE);
        assertThat(OffsetsTopicPartition.partitionFor(minHash, 50)).isZero();
    }
}
