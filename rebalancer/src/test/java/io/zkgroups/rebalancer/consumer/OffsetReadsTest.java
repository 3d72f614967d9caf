package io.zkgroups.rebalancer.consumer;

import io.zkgroups.rebalancer.offsets.CommitPermit;
import io.zkgroups.rebalancer.offsets.OffsetStore;
import io.zkgroups.rebalancer.offsets.OffsetStoreException;
import io.zkgroups.registry.Time;
import io.zkgroups.registry.model.TopicAndPartition;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OffsetReadsTest {

    private static final TopicAndPartition P0 = new TopicAndPartition("t", 0);

    /** A store whose reads do what the test says. */
    private abstract static class ReadOnlyStore implements OffsetStore {
        @Override
        public Set<TopicAndPartition> commit(String group, Map<TopicAndPartition, Long> offsets) {
            throw new AssertionError("read only");
        }

        @Override
        public Set<TopicAndPartition> commit(String group, Map<TopicAndPartition, Long> offsets, CommitPermit permit) {
            throw new AssertionError("read only");
        }

        @Override
        public String name() {
            return "test";
        }
    }

    @Test
    void aReadThatAnswersInTimeReturnsWhatTheStoreRead() {
        OffsetReads reads = new OffsetReads(new ReadOnlyStore() {
            @Override
            public Map<TopicAndPartition, Long> read(String group, Collection<TopicAndPartition> partitions) {
                return Collections.singletonMap(P0, 17L);
            }
        }, "g", "c");
        try {
            assertThat(reads.read(Collections.singleton(P0), Deadline.after(Duration.ofMinutes(1), Time.SYSTEM)))
                    .containsExactly(org.assertj.core.api.Assertions.entry(P0, 17L));
        } finally {
            reads.close();
        }
    }

    @Test
    void aReadThatDoesNotAnswerByTheDeadlineIsATimeoutAndIsInterrupted() throws Exception {
        CountDownLatch interrupted = new CountDownLatch(1);
        OffsetReads reads = new OffsetReads(new ReadOnlyStore() {
            @Override
            public Map<TopicAndPartition, Long> read(String group, Collection<TopicAndPartition> partitions) {
                try {
                    new CountDownLatch(1).await(); // an unreachable store: never answers by itself
                } catch (InterruptedException e) {
                    interrupted.countDown();
                }
                return Collections.emptyMap();
            }
        }, "g", "c");
        try {
            assertThatThrownBy(() -> reads.read(Collections.singleton(P0), Deadline.after(Duration.ofMillis(200), Time.SYSTEM)))
                    .isInstanceOf(TimeoutException.class)
                    .hasMessageContaining("t-0").hasMessageContaining("group g");
            assertThat(interrupted.await(30, TimeUnit.SECONDS)).as("the read given up on was interrupted").isTrue();
        } finally {
            reads.close();
        }
    }

    @Test
    void aStoreFailureIsAKafkaException() {
        OffsetReads reads = new OffsetReads(new ReadOnlyStore() {
            @Override
            public Map<TopicAndPartition, Long> read(String group, Collection<TopicAndPartition> partitions) {
                throw new OffsetStoreException("unreadable offsets in ZooKeeper for group g: t-0 holds 'garbage'", null);
            }
        }, "g", "c");
        try {
            assertThatThrownBy(() -> reads.read(Collections.singleton(P0), Deadline.after(Duration.ofMinutes(1), Time.SYSTEM)))
                    .isInstanceOf(KafkaException.class)
                    .isNotInstanceOf(TimeoutException.class)
                    .hasMessageContaining("garbage");
        } finally {
            reads.close();
        }
    }
}
