package io.zkgroups.chaos.offsets;

import io.zkgroups.embedded.EmbeddedKafka;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/** The reader against a real broker: what the group coordinator stored is what comes back, in commit order. */
class ConsumerOffsetsReaderTest {

    private static EmbeddedKafka kafka;

    @BeforeAll
    static void start() {
        kafka = EmbeddedKafka.startKRaftMode();
        kafka.createTopic("t", 2);
    }

    @AfterAll
    static void stop() {
        kafka.close();
    }

    private static void commit(String group, int partition, long offset) throws Exception {
        kafka.admin().alterConsumerGroupOffsets(group, Map.of(new TopicPartition("t", partition), new OffsetAndMetadata(offset)))
                .all().get(30, TimeUnit.SECONDS);
    }

    @Test
    void readsAGroupsCommitsInTheOrderTheCoordinatorAcceptedThem() throws Exception {
        long before = System.currentTimeMillis();
        commit("g", 0, 5);
        commit("other", 0, 100);
        commit("g", 0, 9);
        commit("g", 1, 2);
        commit("g", 0, 3); // backwards: the reader reports it as stored, judging is the monitor's job
        kafka.admin().deleteConsumerGroupOffsets("g", Set.of(new TopicPartition("t", 1))).all().get(30, TimeUnit.SECONDS);

        List<OffsetCommitRecord> commits = ConsumerOffsetsReader.read(kafka.bootstrapServers(), "g", Duration.ofSeconds(30));

        assertThat(commits).extracting(OffsetCommitRecord::group, OffsetCommitRecord::topic, OffsetCommitRecord::partition,
                OffsetCommitRecord::offset).containsExactly(
                tuple("g", "t", 0, 5L), tuple("g", "t", 0, 9L), tuple("g", "t", 1, 2L), tuple("g", "t", 0, 3L),
                tuple("g", "t", 1, -1L));
        assertThat(commits.get(4).deletion()).isTrue();
        assertThat(commits.subList(0, 4)).allSatisfy(c -> assertThat(c.commitTimestamp()).isBetween(before,
                System.currentTimeMillis()));
        assertThat(commits).extracting(OffsetCommitRecord::logOffset).isSorted();
    }

    @Test
    void aLineOfTheRunDirectoryReadsBackAsTheSameCommit() {
        OffsetCommitRecord c = new OffsetCommitRecord(7, 42, "chaos", "chaos-t", 3, 1043, 1_700_000_000_000L);

        assertThat(OffsetCommitRecord.parse(c.line())).contains(c);
        assertThat(OffsetCommitRecord.parse("KAFKA-OFFSET 7 x")).isEmpty();
    }

    @Test
    void aGroupThatNeverCommittedToKafkaHasNoCommits() {
        assertThat(ConsumerOffsetsReader.read(kafka.bootstrapServers(), "never", Duration.ofSeconds(30))).isEmpty();
    }
}
