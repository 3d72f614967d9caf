package io.zkgroups.tool.exporter;

import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;

import java.util.List;
import java.util.Map;

/** The exporter's series of groups' history ({@link GroupEvents}): names and labels in docs/monitoring.md. Pure. */
final class EventMetrics {

    private EventMetrics() {
    }

    static List<MetricSnapshot> of(Map<String, GroupEvents.Counts> counts) {
        CounterSnapshot.Builder membership = CounterSnapshot.builder().name("zkgroups_group_membership_changes")
                .help("Members that joined or left (label change), as the exporter's reads saw them since it started");
        CounterSnapshot.Builder rebalances = CounterSnapshot.builder().name("zkgroups_group_rebalances")
                .help("Rebalances that ended (a settled assignment after a join, a leave or an ownership change), as the reads saw them");
        GaugeSnapshot.Builder duration = GaugeSnapshot.builder().name("zkgroups_group_last_rebalance_duration_seconds")
                .help("How long the last rebalance took, from its first change to the last claim, at the resolution of the reads");
        CounterSnapshot.Builder rewinds = CounterSnapshot.builder().name("zkgroups_group_offset_rewinds")
                .help("Partitions whose committed offset moved backwards between two reads");
        CounterSnapshot.Builder stalls = CounterSnapshot.builder().name("zkgroups_group_commit_stalls")
                .help("Owned partitions with backlog that went without a commit for the idle time");
        CounterSnapshot.Builder audit = CounterSnapshot.builder().name("zkgroups_group_audit_events")
                .help("Offset writes by zkgroups commands recorded in the group's audit journal (/zkgroups/audit/G)");
        counts.forEach((group, c) -> {
            Labels g = Labels.of("group", group);
            membership.dataPoint(counter(g.add("change", "joined"), c.joined));
            membership.dataPoint(counter(g.add("change", "left"), c.left));
            rebalances.dataPoint(counter(g, c.rebalances));
            if (!Double.isNaN(c.lastRebalanceSeconds)) {
                duration.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(g).value(c.lastRebalanceSeconds).build());
            }
            rewinds.dataPoint(counter(g, c.rewinds));
            stalls.dataPoint(counter(g, c.stalls));
            audit.dataPoint(counter(g, c.auditEntries));
        });
        return List.of(membership.build(), rebalances.build(), duration.build(), rewinds.build(), stalls.build(), audit.build());
    }

    private static CounterSnapshot.CounterDataPointSnapshot counter(Labels labels, long value) {
        return CounterSnapshot.CounterDataPointSnapshot.builder().labels(labels).value(value).build();
    }
}
