package io.zkgroups.tool.reset;

import io.zkgroups.tool.audit.AuditEntry;

import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.tool.CliException;
import io.zkgroups.tool.ExitCode;
import io.zkgroups.tool.group.ActiveGuard;
import io.zkgroups.tool.group.GroupReader;
import io.zkgroups.tool.group.GroupView;
import io.zkgroups.tool.group.MigrationPhase;
import io.zkgroups.tool.group.Store;
import io.zkgroups.tool.io.Clients;
import io.zkgroups.tool.io.KafkaGroups;
import io.zkgroups.tool.io.TopicCatalog;
import io.zkgroups.tool.io.ZkGroups;
import org.apache.kafka.clients.admin.OffsetSpec;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * {@code offsets reset} (and the store-writing half of {@code offsets import}): gathers the facts the pure
 * {@link ResetPlanner} needs, and writes a plan — Kafka first, then ZooKeeper, like 0.8.2.2's dual commit.
 */
public final class ResetService {

    /** What was written. */
    public record Outcome(int zookeeperWrites, int kafkaWrites) {
    }

    private final Clients clients;
    private final Duration staleAfter;
    private final List<String> warnings;

    public ResetService(Clients clients, Duration staleAfter, List<String> warnings) {
        this.clients = clients;
        this.staleAfter = staleAfter;
        this.warnings = warnings;
    }

    /**
     * Plans a reset of {@code group}.
     *
     * @param allTopics every topic the group has offsets or owners for
     * @param scopes    {@code --topic} values (ignored with allTopics)
     * @param override  {@code --store}, or null
     */
    public ResetPlan plan(String group, boolean allTopics, List<TopicScope> scopes, ResetStrategy strategy,
                          Set<Store> override) {
        GroupView view = new GroupReader(clients, staleAfter, Clock.systemUTC()).read(group, null, true);
        if (!view.isKnown()) {
            throw new CliException(ExitCode.NOT_FOUND, "group " + group + " not found: no /consumers/" + group
                    + " in ZooKeeper and no offsets in Kafka");
        }
        Set<TopicAndPartition> partitions = scope(group, view, allTopics, scopes, strategy);
        return plan(group, view, partitions, strategy, override);
    }

    /** Plans writing {@code strategy} for {@code partitions} of an already read group. */
    ResetPlan plan(String group, GroupView view, Set<TopicAndPartition> partitions, ResetStrategy strategy,
                   Set<Store> override) {
        Optional<KafkaGroups> kafka = clients.kafka();
        boolean needsKafka = strategy instanceof ResetStrategy.ToEarliest || strategy instanceof ResetStrategy.ToLatest
                || strategy instanceof ResetStrategy.ToTimestamp || (override != null && override.contains(Store.KAFKA));
        if (needsKafka) {
            kafka = Optional.of(clients.requireKafka("offsets reset " + strategy.describe()
                    + (override != null && override.contains(Store.KAFKA) ? " --store kafka" : "")));
        } else if (kafka.isEmpty()) {
            warnings.add("Kafka not queried (" + clients.kafkaUnavailableReason() + "): no clamping to the log range, "
                    + "Kafka offsets not written");
        }
        Map<TopicAndPartition, Long> earliest = Map.of();
        Map<TopicAndPartition, Long> latest = Map.of();
        Map<TopicAndPartition, Long> atTime = Map.of();
        if (kafka.isPresent()) {
            earliest = kafka.get().logOffsets(partitions, OffsetSpec.earliest(), "earliest");
            latest = kafka.get().logOffsets(partitions, OffsetSpec.latest(), "latest");
            if (strategy instanceof ResetStrategy.ToTimestamp ts) {
                atTime = kafka.get().logOffsets(partitions, OffsetSpec.forTimestamp(ts.instant().toEpochMilli()), "timestamp");
            }
        }
        List<PartitionFacts> facts = new ArrayList<>();
        for (TopicAndPartition tp : partitions) {
            Long at = atTime.get(tp);
            facts.add(new PartitionFacts(tp, view.zk().offsets().get(tp), view.kafka() == null ? null : view.kafka().get(tp),
                    earliest.get(tp), latest.get(tp), at == null || at < 0 ? null : at));
        }
        Set<String> topics = new TreeSet<>();
        partitions.forEach(tp -> topics.add(tp.topic()));
        view.zk().unreadable().stream()
                .filter(u -> topics.stream().anyMatch(t -> u.path().contains("/offsets/" + t + "/") || u.path().endsWith("/offsets/" + t)))
                .forEach(u -> {
                    throw new CliException(ExitCode.UNREADABLE_ZNODE, "unreadable offset znode " + u
                            + " (fix or delete it before resetting)");
                });
        MigrationPhase phase = view.phase().phase();
        return ResetPlanner.plan(group, strategy, phase, override, facts);
    }

    /** Writes the plan; refuses an active group. Audited as a {@code reset}. */
    public Outcome execute(ResetPlan plan) {
        return execute(plan, "reset");
    }

    /** Writes the plan; refuses an active group; records the write in the group's audit journal as {@code action}. */
    public Outcome execute(ResetPlan plan, String action) {
        ZkGroups zk = clients.zk();
        ActiveGuard.requireInactive(zk, plan.group(), "reset the offsets of group " + plan.group());
        Map<TopicAndPartition, Long> toKafka = plan.writes(Store.KAFKA);
        Map<TopicAndPartition, Long> toZk = plan.writes(Store.ZOOKEEPER);
        if (!toKafka.isEmpty()) {
            clients.requireKafka("writing Kafka offsets").commit(plan.group(), toKafka);
        }
        zk.commit(plan.group(), toZk);
        List<AuditEntry.Change> changes = new ArrayList<>();
        for (ResetRow row : plan.rows()) {
            TopicAndPartition tp = row.partition();
            if (toZk.containsKey(tp)) {
                changes.add(new AuditEntry.Change(tp.topic(), tp.partition(), Store.ZOOKEEPER.label(), row.zk(), toZk.get(tp)));
            }
            if (toKafka.containsKey(tp)) {
                changes.add(new AuditEntry.Change(tp.topic(), tp.partition(), Store.KAFKA.label(), row.kafka(), toKafka.get(tp)));
            }
        }
        clients.audit(plan.group(), action, changes);
        return new Outcome(toZk.size(), toKafka.size());
    }

    private Set<TopicAndPartition> scope(String group, GroupView view, boolean allTopics, List<TopicScope> scopes,
                                         ResetStrategy strategy) {
        Set<TopicAndPartition> result = new TreeSet<>();
        if (strategy instanceof ResetStrategy.FromFile file && !allTopics && scopes.isEmpty()) {
            result.addAll(file.offsets().keySet());
            requireExisting(result);
            return result;
        }
        if (allTopics) {
            Set<String> topics = new TreeSet<>(clients.zk().topicsOf(group));
            if (view.kafka() != null) {
                view.kafka().keySet().forEach(tp -> topics.add(tp.topic()));
            }
            topics.addAll(view.subscribedTopics());
            Map<String, Integer> counts = TopicCatalog.partitionCounts(clients, topics);
            for (String topic : topics) {
                Integer n = counts.get(topic);
                if (n == null) {
                    warnings.add("topic " + topic + " of group " + group + " does not exist any more: left alone");
                    continue;
                }
                for (int p = 0; p < n; p++) {
                    result.add(new TopicAndPartition(topic, p));
                }
            }
        } else {
            Set<String> topics = new TreeSet<>();
            scopes.forEach(s -> topics.add(s.topic()));
            Map<String, Integer> counts = TopicCatalog.partitionCounts(clients, topics);
            for (TopicScope s : scopes) {
                Integer n = counts.get(s.topic());
                if (n == null) {
                    throw new CliException(ExitCode.NOT_FOUND, "topic " + s.topic() + " does not exist");
                }
                if (s.partitions() == null) {
                    for (int p = 0; p < n; p++) {
                        result.add(new TopicAndPartition(s.topic(), p));
                    }
                } else {
                    for (int p : s.partitions()) {
                        if (p >= n) {
                            throw new CliException(ExitCode.NOT_FOUND, "topic " + s.topic() + " has no partition " + p
                                    + " (it has " + n + ")");
                        }
                        result.add(new TopicAndPartition(s.topic(), p));
                    }
                }
            }
        }
        if (strategy instanceof ResetStrategy.FromFile file) {
            result.retainAll(file.offsets().keySet());
        }
        return result;
    }

    /** @throws CliException NOT_FOUND naming every partition that does not exist */
    public void requireExisting(Set<TopicAndPartition> partitions) {
        Set<String> topics = new TreeSet<>();
        partitions.forEach(tp -> topics.add(tp.topic()));
        Map<String, Integer> counts = TopicCatalog.partitionCounts(clients, topics);
        List<String> missing = new ArrayList<>();
        for (TopicAndPartition tp : partitions) {
            Integer n = counts.get(tp.topic());
            if (n == null || tp.partition() >= n) {
                missing.add(tp.topic() + ":" + tp.partition());
            }
        }
        if (!missing.isEmpty()) {
            throw new CliException(ExitCode.NOT_FOUND, "no such partition" + (missing.size() == 1 ? "" : "s") + ": "
                    + String.join(", ", missing.subList(0, Math.min(10, missing.size())))
                    + (missing.size() > 10 ? " and " + (missing.size() - 10) + " more" : ""));
        }
    }

    /** For import: read a group's view and plan its file offsets. */
    public ResetPlan planFile(String group, String file, Map<TopicAndPartition, Long> offsets, Set<Store> override) {
        GroupView view = new GroupReader(clients, staleAfter, Clock.systemUTC()).read(group, null, true);
        return plan(group, view, new TreeSet<>(offsets.keySet()), new ResetStrategy.FromFile(file, new TreeMap<>(offsets)),
                override);
    }
}
