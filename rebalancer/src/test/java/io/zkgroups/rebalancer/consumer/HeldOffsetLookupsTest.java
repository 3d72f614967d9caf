package io.zkgroups.rebalancer.consumer;

import io.zkgroups.rebalancer.offsets.OffsetStore;
import io.zkgroups.registry.model.TopicAndPartition;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** Lookups of held partitions run off the caller's thread: it starts one, goes on, and picks the result up later. */
class HeldOffsetLookupsTest {

    private static final TopicPartition T0 = new TopicPartition("t", 0);
    private static final TopicPartition T1 = new TopicPartition("t", 1);

    /** A store whose reads wait until released (a Kafka that does not answer yet), then answer {@code t-0=42}. */
    private static final class SlowStore implements OffsetStore {
        final CountDownLatch answer = new CountDownLatch(1);
        volatile Thread readBy;

        @Override
        public Map<TopicAndPartition, Long> read(String group, Collection<TopicAndPartition> partitions) {
            readBy = Thread.currentThread();
            try {
                answer.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted");
            }
            Map<TopicAndPartition, Long> offsets = new TreeMap<>();
            offsets.put(new TopicAndPartition("t", 0), 42L);
            return offsets;
        }

        @Override
        public java.util.Set<TopicAndPartition> commit(String group, Map<TopicAndPartition, Long> offsets) {
            throw new UnsupportedOperationException();
        }

        @Override
        public java.util.Set<TopicAndPartition> commit(String group, Map<TopicAndPartition, Long> offsets,
                                                       io.zkgroups.rebalancer.offsets.CommitPermit permit) {
            throw new UnsupportedOperationException();
        }

        @Override
        public String name() {
            return "slow";
        }
    }

    @Test
    void aLookupRunsOffTheCallersThreadAndIsPickedUpOnceWithTheEpochsItWasStartedWith() {
        SlowStore store = new SlowStore();
        try (HeldOffsetLookups lookups = new HeldOffsetLookups(store, "g", Duration.ofSeconds(2), "lookup-test")) {
            Map<TopicPartition, Long> held = new java.util.HashMap<>();
            held.put(T0, 7L);
            held.put(T1, 8L);
            lookups.start(held); // returns at once although the store has not answered

            assertThat(lookups.busy()).isTrue();
            assertThat(lookups.finished()).isEmpty();
            assertThatThrownBy(() -> lookups.start(held)).isInstanceOf(IllegalStateException.class);
            await().atMost(Duration.ofSeconds(10)).until(() -> store.readBy != null);
            assertThat(store.readBy).isNotSameAs(Thread.currentThread());
            assertThat(store.readBy.getName()).isEqualTo("lookup-test");

            store.answer.countDown();
            await().atMost(Duration.ofSeconds(10)).until(() -> !lookups.finished().isEmpty() || !lookups.busy());
            assertThat(lookups.busy()).isFalse();
        }
    }

    @Test
    void theResultNamesEachPartitionWithItsEpochAndWhatWasRead() {
        SlowStore store = new SlowStore();
        store.answer.countDown();
        try (HeldOffsetLookups lookups = new HeldOffsetLookups(store, "g", Duration.ofSeconds(2), "lookup-test")) {
            lookups.start(Map.of(T0, 7L));
            HeldOffsetLookups.Done done = await().atMost(Duration.ofSeconds(10))
                    .until(lookups::finished, java.util.Optional::isPresent).orElseThrow();
            assertThat(done.epochs()).containsExactly(Map.entry(T0, 7L));
            assertThat(done.lookup().offsets()).containsExactly(Map.entry(new TopicAndPartition("t", 0), 42L));
            assertThat(lookups.finished()).as("picked up once").isEmpty();
            assertThat(lookups.busy()).isFalse();
        }
    }
}
