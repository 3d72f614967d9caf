package io.zkgroups.tool.group;

import io.zkgroups.registry.model.Coordinator;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.rebalancer.assign.PartitionAssignor;
import io.zkgroups.tool.CliException;
import io.zkgroups.tool.ExitCode;
import io.zkgroups.tool.health.GroupAssessment;
import io.zkgroups.tool.io.Clients;
import io.zkgroups.tool.io.KafkaGroups;
import io.zkgroups.tool.io.ZkGroups;
import org.apache.kafka.clients.admin.OffsetSpec;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/** {@code groups list}, {@code groups describe} and {@code groups delete}. */
public final class GroupsService {

    /** A line of {@code groups list}. {@code state} is {@code active} (members registered) or {@code empty}. */
    public record GroupSummary(String group, int members, String state, List<String> topics) {
    }

    /** What {@code groups delete} removes. */
    public record DeletePlan(String group, String topic, List<String> znodes, int zookeeperOffsets,
                             List<TopicAndPartition> kafkaOffsets, boolean includeKafka) {
    }

    private final Clients clients;

    public GroupsService(Clients clients) {
        this.clients = clients;
    }

    public List<GroupSummary> list() {
        ZkGroups zk = clients.zk();
        List<GroupSummary> result = new ArrayList<>();
        for (String group : zk.groups()) {
            int members = ActiveGuard.members(zk, group).size();
            result.add(new GroupSummary(group, members, members > 0 ? "active" : "empty", List.copyOf(zk.topicsOf(group))));
        }
        return result;
    }

    /** Describes {@code group}; {@link #warnings} then holds what could not be queried. */
    public GroupDescription describe(String group, String strategy, Duration staleAfter, List<String> warnings) {
        GroupView view = new GroupReader(clients, staleAfter, Clock.systemUTC()).read(group, null, true);
        if (!view.isKnown()) {
            throw notFound(group);
        }
        Optional<KafkaGroups> kafka = clients.kafka();
        if (kafka.isEmpty()) {
            warnings.add("Kafka not queried (" + clients.kafkaUnavailableReason() + "): Kafka offsets, log end and lag unknown");
        }
        StrategyChoice choice = StrategyChoice.choose(strategy, view.members().entries());
        PartitionAssignor assignor = PartitionAssignor.forStrategy(choice.strategy());
        GroupState state = GroupAssessment.state(view, assignor);
        Map<TopicAndPartition, Long> logEnd = Map.of();
        String kafkaProblem = view.kafkaProblem();
        if (kafka.isPresent() && kafkaProblem == null) {
            Set<TopicAndPartition> existing = new TreeSet<>();
            view.partitionCounts().forEach((topic, n) -> {
                for (int p = 0; p < n; p++) {
                    existing.add(new TopicAndPartition(topic, p));
                }
            });
            try {
                logEnd = kafka.get().logOffsets(existing, OffsetSpec.latest(), "log end");
            } catch (io.zkgroups.tool.CliException e) {
                kafkaProblem = GroupReader.partial(e);
            }
        }
        if (kafkaProblem != null) {
            warnings.add(kafkaProblem + ": printing the ZooKeeper half only (Kafka offsets, log end and lag unknown)");
        }
        GroupDescription described = GroupDescription.of(view, state, choice, logEnd, kafkaProblem);
        if (view.existsInZk() && KafkaCoordination.decided(clients, group) == Coordinator.KAFKA) {
            if (kafka.isPresent() && kafkaProblem == null) {
                described = described.onKafka(KafkaCoordination.read(clients, group).orElseThrow());
                // the rows show Kafka's members only: a registration in the ZooKeeper group would go unseen
                List<String> registered = view.members().entries().stream().map(m -> m.id().value()).toList();
                if (!registered.isEmpty()) {
                    warnings.add("group " + group + " is coordinated by Kafka, yet " + registered.size()
                            + " consumers are registered in ZooKeeper (/consumers/" + group + "/ids), where they "
                            + "claim nothing (not crossed yet, or unable to cross): " + String.join(", ", registered));
                }
            } else {
                warnings.add("group " + group + " is coordinated by Kafka, which was not read: its members and "
                        + "assignment are unknown (the owner znodes shown are the fences its zkgroups members keep)");
            }
        }
        Map<TopicAndPartition, Long> timestamps = kafkaProblem == null ? recordTimestamps(described) : Map.of();
        return described.withTimes(p -> {
            TopicAndPartition tp = new TopicAndPartition(p.topic(), p.partition());
            Long ts = timestamps.get(tp);
            io.zkgroups.tool.lag.TimeLag lag = io.zkgroups.tool.lag.TimeLag.of(p.currentOffset(), p.logEndOffset(),
                    ts == null ? null : new io.zkgroups.tool.lag.RecordTimes.Written(java.time.Instant.ofEpochMilli(ts),
                            io.zkgroups.tool.lag.RecordTimes.Source.TIMESTAMP), view.readAt());
            java.time.Instant mtime = p.zookeeperOffset() != null && p.zookeeperOffset().equals(p.currentOffset())
                    ? view.zk().mtimes().get(tp) : null;
            return new Double[]{lag.seconds(), io.zkgroups.tool.lag.TimeLag.secondsBetween(mtime, view.readAt())};
        });
    }

    /** The timestamps of the records at the offsets the group reads, where there is something to consume. */
    private Map<TopicAndPartition, Long> recordTimestamps(GroupDescription d) {
        Map<TopicAndPartition, Long> wanted = new java.util.TreeMap<>();
        d.partitions().forEach(p -> {
            Long offset = p.currentOffset();
            if (offset != null && p.lag() != null && p.lag() > 0) {
                wanted.put(new TopicAndPartition(p.topic(), p.partition()), offset);
            }
        });
        if (wanted.isEmpty()) {
            return Map.of();
        }
        return clients.recordTimestamps().map(r -> r.at(wanted)).orElse(Map.of());
    }

    public DeletePlan planDelete(String group, String topic, boolean includeKafka) {
        ZkGroups zk = clients.zk();
        if (!zk.exists(group)) {
            throw notFound(group);
        }
        List<String> znodes = new ArrayList<>();
        int offsets;
        if (topic == null) {
            znodes.addAll(zk.subtree(zk.paths().group(group)));
            offsets = zk.offsets(group).offsets().size();
        } else {
            if (!zk.topicsOf(group).contains(topic)) {
                throw new CliException(ExitCode.NOT_FOUND, "group " + group + " has no topic " + topic
                        + " under " + zk.paths().owners(group) + " or " + zk.paths().offsets(group));
            }
            znodes.addAll(zk.subtree(zk.paths().owners(group, topic)));
            znodes.addAll(zk.subtree(zk.paths().offsets(group, topic)));
            offsets = (int) zk.offsets(group).offsets().keySet().stream().filter(tp -> tp.topic().equals(topic)).count();
        }
        List<TopicAndPartition> kafkaOffsets = clients.kafka()
                .map(k -> k.groupOffsets(group).keySet().stream()
                        .filter(tp -> topic == null || tp.topic().equals(topic)).toList())
                .orElse(List.of());
        return new DeletePlan(group, topic, znodes, offsets, kafkaOffsets, includeKafka);
    }

    /** Deletes what {@code plan} lists; refuses an active group. Returns the number of znodes deleted. */
    public int executeDelete(DeletePlan plan) {
        ZkGroups zk = clients.zk();
        ActiveGuard.requireInactive(zk, plan.group(), "delete group " + plan.group());
        List<io.zkgroups.tool.audit.AuditEntry.Change> changes = new ArrayList<>();
        zk.offsets(plan.group()).offsets().forEach((tp, offset) -> {
            if (plan.topic() == null || plan.topic().equals(tp.topic())) {
                changes.add(new io.zkgroups.tool.audit.AuditEntry.Change(tp.topic(), tp.partition(), "zookeeper", offset, null));
            }
        });
        if (plan.includeKafka() && !plan.kafkaOffsets().isEmpty()) {
            KafkaGroups kafka = clients.requireKafka("deleting Kafka offsets");
            Map<TopicAndPartition, Long> before = kafka.groupOffsets(plan.group());
            kafka.deleteOffsets(plan.group(), plan.kafkaOffsets());
            plan.kafkaOffsets().forEach(tp -> changes.add(new io.zkgroups.tool.audit.AuditEntry.Change(tp.topic(),
                    tp.partition(), "kafka", before.get(tp), null)));
        }
        int deleted = zk.delete(plan.group(), plan.znodes());
        clients.audit(plan.group(), "delete", changes);
        return deleted;
    }

    static CliException notFound(String group) {
        return new CliException(ExitCode.NOT_FOUND, "group " + group + " not found: no /consumers/" + group
                + " in ZooKeeper and no offsets in Kafka");
    }
}
