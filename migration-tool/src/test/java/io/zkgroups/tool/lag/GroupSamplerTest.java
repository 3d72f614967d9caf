package io.zkgroups.tool.lag;

import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.tool.group.KafkaCoordination;
import io.zkgroups.tool.group.MigrationPhase;
import io.zkgroups.tool.group.PhaseInference;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class GroupSamplerTest {

    private static final TopicAndPartition T0 = new TopicAndPartition("t", 0);
    private static final TopicAndPartition T1 = new TopicAndPartition("t", 1);
    private static final TopicAndPartition T2 = new TopicAndPartition("t", 2);

    @Test
    void aGroupOnKafkasCoordinatorCountsKafkasMembersAndCallsLiveWhatKafkaAssigns() {
        // read from ZooKeeper: no registered member; fences on t-0 (a zkgroups member on Kafka) and t-2 (left behind)
        GroupSample zk = new GroupSample("g", Instant.EPOCH, 0, new PhaseInference.Result(MigrationPhase.DUAL_COMMIT, "x"),
                List.of(new GroupSample.PartitionRead(T0, 5L, null, 5L, 0L, 9L, "a-0", false),
                        new GroupSample.PartitionRead(T2, 1L, null, 1L, 0L, 9L, "gone-0", false)),
                List.of(), true, List.of());
        KafkaCoordination kafka = new KafkaCoordination("g", "stable", "range", "h:1", List.of(
                new KafkaCoordination.KafkaMember("m1", "a-zkgroups", "h", Set.of(T0), true),
                new KafkaCoordination.KafkaMember("m2", "plain", "h", Set.of(T1), false)));

        GroupSample onKafka = GroupSampler.onKafka(zk, kafka);

        assertThat(onKafka.coordinator()).isEqualTo("kafka");
        assertThat(onKafka.members()).isEqualTo(2);
        assertThat(onKafka.memberIds()).containsExactly("m1", "m2");
        assertThat(onKafka.partitions()).extracting(GroupSample.PartitionRead::partition).containsExactly(T0, T1, T2);
        assertThat(onKafka.partitions()).extracting(GroupSample.PartitionRead::owner)
                .containsExactly("a-0", "plain", "gone-0");
        assertThat(onKafka.partitions()).extracting(GroupSample.PartitionRead::ownerLive).containsExactly(true, true, false);
        assertThat(onKafka.partitions().get(0).zookeeperOffset()).isEqualTo(5L);
    }
}
