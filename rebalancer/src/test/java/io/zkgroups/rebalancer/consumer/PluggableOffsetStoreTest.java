package io.zkgroups.rebalancer.consumer;

import io.zkgroups.rebalancer.metrics.ConsumerMetrics;
import io.zkgroups.rebalancer.offsets.CommitPermit;
import io.zkgroups.rebalancer.offsets.OffsetStore;
import io.zkgroups.rebalancer.offsets.OffsetStoreType;
import io.zkgroups.rebalancer.offsets.OffsetStores;
import io.zkgroups.registry.model.TopicAndPartition;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A new offset store is its class plus one registration: registered here (in a test only), the config accepts its
 * name, the consumer opens it, and its commits are counted under its name.
 */
@ResourceLock("io.zkgroups.rebalancer.offsets.OffsetStores")
class PluggableOffsetStoreTest {

    /** Offsets in a map. */
    static final class MemoryOffsets implements OffsetStore {
        final Map<TopicAndPartition, Long> offsets = new ConcurrentHashMap<>();

        @Override
        public Map<TopicAndPartition, Long> read(String group, Collection<TopicAndPartition> partitions) {
            Map<TopicAndPartition, Long> found = new java.util.TreeMap<>(offsets);
            found.keySet().retainAll(partitions);
            return found;
        }

        @Override
        public Set<TopicAndPartition> commit(String group, Map<TopicAndPartition, Long> given) {
            offsets.putAll(given);
            return given.keySet();
        }

        @Override
        public Set<TopicAndPartition> commit(String group, Map<TopicAndPartition, Long> given, CommitPermit permit) {
            return commit(group, given);
        }

        @Override
        public String name() {
            return "test-memory";
        }
    }

    private static ZkConsumerConfig config(String storage) {
        Properties props = new Properties();
        props.setProperty("group.id", "g");
        props.setProperty("zookeeper.connect", "127.0.0.1:1");
        props.setProperty("offsets.storage", storage);
        return ZkConsumerConfig.from(props);
    }

    @Test
    void aRegisteredStoreIsConfiguredOpenedAndCounted() {
        MemoryOffsets memory = new MemoryOffsets();
        TopicAndPartition t0 = new TopicAndPartition("t", 0);
        try (OffsetStores.Registration ignored = OffsetStores.register(
                OffsetStoreType.of("test-memory", (registry, admin) -> memory));
             ConsumerMetrics metrics = new ConsumerMetrics("c", "g", false, Map::of, broker -> Optional.empty())) {
            ZkConsumerConfig config = config("test-memory");
            assertThat(config.offsetsStorage().name()).isEqualTo("test-memory");
            assertThat(config.dualCommit()).isFalse();
            assertThat(ConfiguredOffsetStores.needsKafka(config)).isFalse();

            OffsetStore store = ConfiguredOffsetStores.forConfig(config, null, null, metrics);
            assertThat(store.commit("g", Map.of(t0, 42L))).containsExactly(t0);

            assertThat(memory.offsets).containsEntry(t0, 42L);
            assertThat(store.read("g", Set.of(t0))).containsEntry(t0, 42L);
            assertThat(metrics.metrics().entrySet()).anySatisfy(e -> {
                assertThat(e.getKey().name()).isEqualTo("test-memory-commit-total");
                assertThat(((Metric) e.getValue()).metricValue()).isEqualTo(1.0);
            });
        }
        assertThatThrownBy(() -> config("test-memory"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("offsets.storage").hasMessageContaining("must be zookeeper or kafka");
    }
}
