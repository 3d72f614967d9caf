package io.zkgroups.tool.exporter;

import io.zkgroups.tool.group.MigrationPhase;
import io.zkgroups.tool.lag.GroupLag;
import io.zkgroups.tool.lag.LagStatus;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.InfoSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.StateSetSnapshot;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The exporter's metrics, built from one evaluation of every group. Pure: the same evaluation gives the same snapshots.
 * Names and labels are documented in docs/monitoring.md; every series of a group carries {@code group}, every series of
 * a partition {@code topic} and {@code partition} too. A partition costs a handful of series (lag, an offset per store,
 * the status as one number, the owner, the divergence in dual commit): thousands of groups stay scrapeable. The log end
 * is a topic's, exported once per partition whatever the number of groups reading it.
 */
final class LagMetrics {

    /** What the exporter knows about its last read, besides the groups. */
    record Refresh(double durationSeconds, boolean kafkaUp, double ageSeconds) {
    }

    private static final String[] STATUSES = statusNames();
    private static final String[] PHASES = phaseNames();
    private static final String[] COORDINATORS = {"kafka", "zookeeper"};

    private LagMetrics() {
    }

    static MetricSnapshots of(List<GroupLag> groups, Refresh refresh) {
        Map<String, GaugeSnapshot.Builder> gauges = new LinkedHashMap<>();
        gauge(gauges, "zkgroups_partition_lag", "Records between the offset the group reads (ZooKeeper's, Kafka's, or the larger in dual commit) and the log end");
        gauge(gauges, "zkgroups_partition_offset", "Committed offset (the next to consume), per store (zookeeper, kafka)");
        gauge(gauges, "zkgroups_partition_store_divergence", "In the dual-commit phase: Kafka's offset minus ZooKeeper's");
        gauge(gauges, "zkgroups_partition_status", "Status of the partition over the sample window: 0 OK, 1 WARN, 2 STALL, 3 STOP, 4 REWIND, 5 ERR (docs/monitoring.md)");
        gauge(gauges, "zkgroups_partition_lag_seconds", "Age of the record at the committed offset (the next to consume): 0 when caught up; grows while the offset does not move");
        gauge(gauges, "zkgroups_partition_commit_age_seconds", "Time since the committed offset was written (a ZooKeeper offset's mtime; a Kafka offset's first sighting)");
        gauge(gauges, "zkgroups_topic_log_end_offset", "Log end offset of a partition some exported group reads");
        gauge(gauges, "zkgroups_group_lag", "Sum of the group's partition lag");
        gauge(gauges, "zkgroups_group_max_lag_seconds", "The largest lag in seconds of the group's partitions");
        gauge(gauges, "zkgroups_group_members", "Members registered under /consumers/<group>/ids (for a group on Kafka's coordinator: the members of Kafka's group)");
        gauge(gauges, "zkgroups_group_owned_partitions", "Partitions with an owner znode that names a registered member's thread");
        gauge(gauges, "zkgroups_group_unowned_partitions", "Partitions with an offset but no owner znode of a registered member");
        gauge(gauges, "zkgroups_group_alarmed_members", "Registered zkgroups members that publish partitions they cannot fetch (Kafka does not answer them) or resume (an offset they cannot read)");
        gauge(gauges, "zkgroups_group_unreadable_znodes", "Znodes of the group that cannot be read (registrations, owners, offsets)");
        gauge(gauges, "zkgroups_group_evaluation_samples", "Samples the group's status was judged over");
        StateSetSnapshot.Builder groupStatus = StateSetSnapshot.builder().name("zkgroups_group_status")
                .help("Status of the group: its worst partition's");
        StateSetSnapshot.Builder phase = StateSetSnapshot.builder().name("zkgroups_group_phase")
                .help("Where the group's offsets are written, as inferred from both stores (docs/cli.md)");
        StateSetSnapshot.Builder coordinator = StateSetSnapshot.builder().name("zkgroups_group_coordinator")
                .help("Which coordinator holds the group: zookeeper (0.8's protocol) or kafka (Kafka's group coordinator, docs/cutover.md)");
        InfoSnapshot.Builder owners = InfoSnapshot.builder().name("zkgroups_partition_owner")
                .help("The owner znode of a partition: the thread that owns it, and whether it is a registered member's");

        Map<Labels, Long> logEnds = new java.util.TreeMap<>();
        for (GroupLag g : groups) {
            Labels group = Labels.of("group", g.group());
            int owned = 0;
            int unowned = 0;
            for (GroupLag.PartitionLag p : g.partitions()) {
                Labels partition = group.add("topic", p.topic()).add("partition", Integer.toString(p.partition()));
                point(gauges, "zkgroups_partition_lag", partition, p.lag());
                point(gauges, "zkgroups_partition_offset", partition.add("store", "zookeeper"), p.zookeeperOffset());
                point(gauges, "zkgroups_partition_offset", partition.add("store", "kafka"), p.kafkaOffset());
                if (MigrationPhase.DUAL_COMMIT.label().equals(g.phase()) && p.zookeeperOffset() != null && p.kafkaOffset() != null) {
                    point(gauges, "zkgroups_partition_store_divergence", partition, p.kafkaOffset() - p.zookeeperOffset());
                }
                point(gauges, "zkgroups_partition_lag_seconds", partition, p.lagSeconds());
                point(gauges, "zkgroups_partition_commit_age_seconds", partition, p.commitAgeSeconds());
                if (p.logEnd() != null) {
                    logEnds.put(Labels.of("topic", p.topic(), "partition", Integer.toString(p.partition())), p.logEnd());
                }
                if (p.status() != null) {
                    point(gauges, "zkgroups_partition_status", partition, (long) p.status().ordinal());
                }
                if (p.owner() != null) {
                    owners.dataPoint(InfoSnapshot.InfoDataPointSnapshot.builder()
                            .labels(partition.add("owner", p.owner()).add("live", Boolean.toString(p.ownerLive()))).build());
                }
                if (p.ownerLive()) {
                    owned++;
                } else {
                    unowned++;
                }
            }
            point(gauges, "zkgroups_group_lag", group, g.totalLag());
            point(gauges, "zkgroups_group_max_lag_seconds", group, g.maxLagSeconds());
            point(gauges, "zkgroups_group_members", group, (long) g.members());
            point(gauges, "zkgroups_group_owned_partitions", group, (long) owned);
            point(gauges, "zkgroups_group_unowned_partitions", group, (long) unowned);
            point(gauges, "zkgroups_group_unreadable_znodes", group, (long) g.unreadable().size());
            point(gauges, "zkgroups_group_alarmed_members", group, (long) g.alarmedMembers().size());
            point(gauges, "zkgroups_group_evaluation_samples", group, (long) g.samples());
            groupStatus.dataPoint(states(group, STATUSES, g.status().name()));
            phase.dataPoint(states(group, PHASES, g.phase()));
            coordinator.dataPoint(states(group, COORDINATORS, g.coordinator()));
        }
        logEnds.forEach((labels, end) -> point(gauges, "zkgroups_topic_log_end_offset", labels, end));
        List<MetricSnapshot> all = new ArrayList<>();
        gauges.values().forEach(b -> all.add(b.build()));
        all.add(groupStatus.build());
        all.add(phase.build());
        all.add(coordinator.build());
        all.add(owners.build());
        all.add(single("zkgroups_exporter_refresh_duration_seconds", "Time the last read of ZooKeeper and Kafka took",
                refresh.durationSeconds()));
        all.add(single("zkgroups_exporter_kafka_up", "1 when Kafka answered the last read, 0 when only ZooKeeper's half is known",
                refresh.kafkaUp() ? 1 : 0));
        all.add(single("zkgroups_exporter_data_age_seconds", "Age of the data served (reads are cached between scrapes)",
                refresh.ageSeconds()));
        all.add(single("zkgroups_exporter_groups", "Groups exported", groups.size()));
        return new MetricSnapshots(all);
    }

    private static void gauge(Map<String, GaugeSnapshot.Builder> gauges, String name, String help) {
        gauges.put(name, GaugeSnapshot.builder().name(name).help(help));
    }

    private static void point(Map<String, GaugeSnapshot.Builder> gauges, String name, Labels labels, Long value) {
        if (value != null) {
            gauges.get(name).dataPoint(GaugeDataPointSnapshot.builder().labels(labels).value(value).build());
        }
    }

    private static void point(Map<String, GaugeSnapshot.Builder> gauges, String name, Labels labels, Double value) {
        if (value != null) {
            gauges.get(name).dataPoint(GaugeDataPointSnapshot.builder().labels(labels).value(value).build());
        }
    }

    private static GaugeSnapshot single(String name, String help, double value) {
        return GaugeSnapshot.builder().name(name).help(help)
                .dataPoint(GaugeDataPointSnapshot.builder().value(value).build()).build();
    }

    private static StateSetSnapshot.StateSetDataPointSnapshot states(Labels labels, String[] names, String current) {
        StateSetSnapshot.StateSetDataPointSnapshot.Builder b = StateSetSnapshot.StateSetDataPointSnapshot.builder().labels(labels);
        for (String name : names) {
            b.state(name, name.equals(current));
        }
        return b.build();
    }

    private static String[] statusNames() {
        Set<String> names = new TreeSet<>();
        for (LagStatus s : LagStatus.values()) {
            names.add(s.name());
        }
        return names.toArray(String[]::new);
    }

    private static String[] phaseNames() {
        Set<String> names = new TreeSet<>();
        for (MigrationPhase p : MigrationPhase.values()) {
            names.add(p.label());
        }
        return names.toArray(String[]::new);
    }
}
