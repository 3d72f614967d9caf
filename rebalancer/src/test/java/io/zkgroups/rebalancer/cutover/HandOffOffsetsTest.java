package io.zkgroups.rebalancer.cutover;

import io.zkgroups.rebalancer.offsets.CommitPermit;
import io.zkgroups.rebalancer.offsets.OffsetStore;
import io.zkgroups.registry.model.TopicAndPartition;
import org.junit.jupiter.api.Test;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Where a member's commits and reads go before, during and after a crossing (docs/cutover.md). */
class HandOffOffsetsTest {

    private static final TopicAndPartition P0 = new TopicAndPartition("T", 0);

    private final MemoryStore configured = new MemoryStore("kafka+zookeeper");
    private final MemoryStore zookeeper = new MemoryStore("zookeeper");
    private final HandOffOffsets offsets = new HandOffOffsets(configured, zookeeper);

    @Test
    void beforeTheDecisionEverythingIsTheConfiguredStores() {
        configured.stored.put(P0, 5L);
        offsets.commit("G", Map.of(P0, 7L));
        assertThat(configured.stored).containsEntry(P0, 7L);
        assertThat(zookeeper.stored).isEmpty();
        assertThat(offsets.read("G", List.of(P0))).containsEntry(P0, 7L);
        assertThat(offsets.name()).isEqualTo("kafka+zookeeper");
    }

    @Test
    void onceHandingOffCommitsGoToZooKeeperAloneAndReadsStayConfigured() {
        configured.stored.put(P0, 5L);
        offsets.handOff();
        offsets.commit("G", Map.of(P0, 9L), CommitPermit.unfenced(Set.of(P0)));
        assertThat(zookeeper.stored).containsEntry(P0, 9L);
        assertThat(configured.stored).containsEntry(P0, 5L);
        assertThat(offsets.read("G", List.of(P0))).containsEntry(P0, 5L);
    }

    @Test
    void backOnZooKeeperReadsAndWritesZooKeeperAlone() {
        configured.stored.put(P0, 5L);
        zookeeper.stored.put(P0, 11L);
        offsets.backOnZooKeeper();
        assertThat(offsets.read("G", List.of(P0))).containsEntry(P0, 11L);
        offsets.commit("G", Map.of(P0, 12L));
        assertThat(zookeeper.stored).containsEntry(P0, 12L);
        assertThat(configured.stored).containsEntry(P0, 5L);
    }

    private static final class MemoryStore implements OffsetStore {
        final Map<TopicAndPartition, Long> stored = new HashMap<>();
        private final String name;

        MemoryStore(String name) {
            this.name = name;
        }

        @Override
        public Map<TopicAndPartition, Long> read(String group, Collection<TopicAndPartition> partitions) {
            Map<TopicAndPartition, Long> found = new HashMap<>(stored);
            found.keySet().retainAll(partitions);
            return found;
        }

        @Override
        public Set<TopicAndPartition> commit(String group, Map<TopicAndPartition, Long> offsets) {
            stored.putAll(offsets);
            return offsets.keySet();
        }

        @Override
        public Set<TopicAndPartition> commit(String group, Map<TopicAndPartition, Long> offsets, CommitPermit permit) {
            return commit(group, offsets);
        }

        @Override
        public String name() {
            return name;
        }
    }
}
