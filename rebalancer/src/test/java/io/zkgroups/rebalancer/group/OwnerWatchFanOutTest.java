package io.zkgroups.rebalancer.group;

import io.zkgroups.rebalancer.assign.GroupSnapshot;
import io.zkgroups.registry.model.ConsumerId;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class OwnerWatchFanOutTest {

    private static GroupSnapshot group(int members, Map<String, Integer> partitions) {
        Map<ConsumerId, Map<String, Integer>> subscriptions = new HashMap<>();
        for (int i = 0; i < members; i++) {
            Map<String, Integer> streams = new HashMap<>();
            partitions.keySet().forEach(topic -> streams.put(topic, 1));
            subscriptions.put(ConsumerId.ofOverride("g", "m" + i), streams);
        }
        return new GroupSnapshot(subscriptions, partitions);
    }

    @Test
    void directoriesAreWatchedWhileMembersTimesPartitionsStayWithinTheLimit() {
        assertThat(OwnerWatchFanOut.affordable(group(10, Map.of("t", 100)))).isTrue();
        assertThat(OwnerWatchFanOut.affordable(group(20, Map.of("t", 1_000)))).isTrue();
        assertThat(OwnerWatchFanOut.affordable(group(21, Map.of("t", 1_000)))).isFalse();
        assertThat(OwnerWatchFanOut.affordable(group(100, Map.of("t", 1_000)))).isFalse();
    }

    @Test
    void everySubscribedTopicCounts() {
        assertThat(OwnerWatchFanOut.affordable(group(20, Map.of("a", 600, "b", 400)))).isTrue();
        assertThat(OwnerWatchFanOut.affordable(group(20, Map.of("a", 600, "b", 401)))).isFalse();
    }
}
