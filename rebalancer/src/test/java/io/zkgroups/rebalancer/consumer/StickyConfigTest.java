package io.zkgroups.rebalancer.consumer;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StickyConfigTest {

    private static Map<String, Object> properties(String strategy) {
        Map<String, Object> p = new HashMap<>();
        p.put("group.id", "g");
        p.put("zookeeper.connect", "127.0.0.1:2181");
        p.put("partition.assignment.strategy", strategy);
        return p;
    }

    @Test
    void theStickyStrategyAdvertisesItsCapabilities() {
        ZkConsumerConfig config = ZkConsumerConfig.from(properties("sticky"));

        assertThat(config.assignmentStrategy()).isEqualTo("sticky");
        assertThat(config.advertiseCapabilities()).isTrue();
        assertThat(ZkConsumerConfig.from(properties("range")).advertiseCapabilities()).isFalse();
    }

    @Test
    void stickyWithAdvertisingTurnedOffIsRefusedNamingBothKeys() {
        Map<String, Object> p = properties("sticky");
        p.put(ZkConsumerConfig.ADVERTISE_CAPABILITIES, "false");

        assertThatThrownBy(() -> ZkConsumerConfig.from(p))
                .hasMessageContaining(ZkConsumerConfig.ADVERTISE_CAPABILITIES)
                .hasMessageContaining("partition.assignment.strategy=sticky");
    }

    @Test
    void anUnknownStrategyNamesTheAllowedOnes() {
        assertThatThrownBy(() -> ZkConsumerConfig.from(properties("Sticky")))
                .hasMessageContaining("partition.assignment.strategy")
                .hasMessageContaining("range, roundrobin or sticky");
    }
}
