package io.zkgroups.tool.exporter;

import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.StateSetSnapshot;
import io.zkgroups.tool.lag.GroupLag;
import io.zkgroups.tool.lag.LagStatus;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class LagMetricsTest {

    private static GroupLag group(String name, String coordinator) {
        return new GroupLag(name, LagStatus.OK, "dual-commit", "x", 2, 0L, 1, List.of(), List.of(), null, List.of(),
                coordinator);
    }

    @Test
    void theCoordinatorOfEachGroupIsAStateSet() {
        List<MetricSnapshot> all = LagMetrics.of(List.of(group("on-kafka", "kafka"), group("on-zk", "zookeeper")),
                new LagMetrics.Refresh(0.1, true, 0)).stream().toList();

        StateSetSnapshot coordinator = (StateSetSnapshot) all.stream()
                .filter(m -> m.getMetadata().getName().equals("zkgroups_group_coordinator")).findFirst().orElseThrow();
        Map<String, Map<String, Boolean>> states = new HashMap<>();
        coordinator.getDataPoints().forEach(p -> {
            Map<String, Boolean> byName = new HashMap<>();
            p.forEach(s -> byName.put(s.getName(), s.isTrue()));
            states.put(p.getLabels().get("group"), byName);
        });
        assertThat(states).containsEntry("on-kafka", Map.of("kafka", true, "zookeeper", false))
                .containsEntry("on-zk", Map.of("kafka", false, "zookeeper", true));
    }
}
