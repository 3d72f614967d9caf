package io.zkgroups.tool.migrate;

import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.store.Unreadable;
import io.zkgroups.registry.store.OffsetRegistry;
import io.zkgroups.tool.CliException;
import io.zkgroups.tool.ExitCode;
import io.zkgroups.tool.Errors;
import io.zkgroups.tool.group.ActiveGuard;
import io.zkgroups.tool.io.Clients;
import io.zkgroups.tool.io.KafkaGroups;
import io.zkgroups.tool.io.TopicCatalog;
import io.zkgroups.tool.io.ZkGroups;
import io.zkgroups.tool.output.Progress;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * {@code migrate plan|execute|verify|rollback}: copies offsets between a group's ZooKeeper offsets and its
 * Kafka offsets, group by group, in chunks (one batched Kafka offset fetch per chunk, then one write per group,
 * {@code parallelism} groups at a time).
 * <p>
 * Resumable by construction: every run plans from what the stores hold now ({@link MigrationPlan}), so a run
 * killed at any point is finished by running it again, which skips what is already in sync. Each group's Kafka
 * offsets are written in one request (one record batch: all or nothing for the group); a group's ZooKeeper
 * offsets in {@code multi()} batches of up to 1000.
 * <p>
 * On a live group the read-then-write is not atomic: a member committing in between can be overwritten by the
 * value read just before; copying forward never changes {@code max(ZooKeeper, Kafka)}, which 0.8.2.2 reads in
 * the dual-commit phase, and in a single-store phase the store written is the one the members do not read.
 * With {@code --allow-rewind} a live group is refused.
 */
public final class MigrationService {

    /** One group's outcome. {@code error} is set when the group was not migrated (e.g. unreadable znodes). */
    public record GroupResult(String group, MigrationPlan plan, String error) {
    }

    /** Options of a run. */
    public record Options(Direction direction, boolean allowRewind, int parallelism, int batchSize) {
        public Options {
            if (parallelism < 1 || batchSize < 1) {
                throw new IllegalArgumentException("parallelism and batch size must be >= 1");
            }
        }
    }

    private final Clients clients;
    private final Map<String, Integer> partitionCounts = new ConcurrentHashMap<>();

    public MigrationService(Clients clients) {
        this.clients = clients;
    }

    /** The groups of a run: the named ones (each must exist somewhere), or every group under /consumers. */
    public List<String> groups(List<String> named, boolean all) {
        ZkGroups zk = clients.zk();
        if (all) {
            return zk.groups();
        }
        KafkaGroups kafka = clients.requireKafka("migrate");
        Map<String, Map<TopicAndPartition, Long>> inKafka = kafka.groupOffsets(named);
        for (String group : named) {
            if (!zk.exists(group) && inKafka.getOrDefault(group, Map.of()).isEmpty()) {
                throw new CliException(ExitCode.NOT_FOUND, "group " + group + " not found: no /consumers/" + group
                        + " in ZooKeeper and no offsets in Kafka");
            }
        }
        return List.copyOf(new TreeSet<>(named));
    }

    /**
     * Plans (and with {@code write}, executes) the migration of {@code groups}; {@code onGroup} sees each
     * result as it completes (in no particular order).
     */
    public List<GroupResult> migrate(List<String> groups, Options options, boolean write, Progress progress,
                                     Consumer<GroupResult> onGroup) {
        KafkaGroups kafka = clients.requireKafka("migrate");
        ZkGroups zk = clients.zk();
        List<GroupResult> results = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(options.parallelism(), r -> {
            Thread t = new Thread(r, "zkgroups-migrate");
            t.setDaemon(true);
            return t;
        });
        try {
            for (int from = 0; from < groups.size(); from += options.batchSize()) {
                List<String> chunk = groups.subList(from, Math.min(groups.size(), from + options.batchSize()));
                // one batched Kafka read per chunk, then each group reads ZooKeeper, plans and writes on its own
                Map<String, Map<TopicAndPartition, Long>> kafkaOffsets = kafka.groupOffsets(chunk);
                List<Future<GroupResult>> pending = new ArrayList<>();
                for (String group : chunk) {
                    Map<TopicAndPartition, Long> inKafka = kafkaOffsets.getOrDefault(group, Map.of());
                    pending.add(pool.submit(() -> migrateGroup(group, zk.offsets(group), inKafka, options, write, kafka, zk)));
                }
                for (Future<GroupResult> f : pending) {
                    GroupResult result = get(f);
                    results.add(result);
                    onGroup.accept(result);
                    progress.advance(1, result.group());
                }
            }
        } catch (CliException e) {
            if (!write) {
                throw e;
            }
            throw new CliException(e.exitCode(), e.getMessage() + "; stopped after " + results.size() + " of "
                    + groups.size() + " groups (every run is resumable: run it again)", e);
        } finally {
            pool.shutdownNow();
        }
        results.sort((a, b) -> a.group().compareTo(b.group()));
        return results;
    }

    private GroupResult migrateGroup(String group, OffsetRegistry.OffsetRead zkRead, Map<TopicAndPartition, Long> inKafka,
                                     Options options, boolean write, KafkaGroups kafka, ZkGroups zk) {
        if (!zkRead.unreadable().isEmpty()) {
            return new GroupResult(group, null, "not migrated: unreadable offset znodes " + describe(zkRead.unreadable()));
        }
        Direction d = options.direction();
        Map<TopicAndPartition, Long> source = d == Direction.ZOOKEEPER_TO_KAFKA ? zkRead.offsets() : inKafka;
        Map<TopicAndPartition, Long> target = d == Direction.ZOOKEEPER_TO_KAFKA ? inKafka : zkRead.offsets();
        MigrationPlan plan = MigrationPlan.compute(group, d, source, target, existing(source.keySet(), target.keySet()),
                options.allowRewind());
        if (write && !plan.isNoop()) {
            if (plan.count(MoveAction.REWIND) > 0) {
                ActiveGuard.requireInactive(zk, group, "rewind offsets with --allow-rewind");
            }
            if (d == Direction.ZOOKEEPER_TO_KAFKA) {
                kafka.commit(group, plan.writes());
            } else {
                zk.commit(group, plan.writes());
            }
            String store = d == Direction.ZOOKEEPER_TO_KAFKA ? "kafka" : "zookeeper";
            List<io.zkgroups.tool.audit.AuditEntry.Change> changes = new ArrayList<>();
            plan.writes().forEach((tp, offset) -> changes.add(new io.zkgroups.tool.audit.AuditEntry.Change(tp.topic(),
                    tp.partition(), store, target.get(tp), offset)));
            clients.audit(group, d == Direction.ZOOKEEPER_TO_KAFKA ? "migrate" : "rollback", changes);
        }
        return new GroupResult(group, plan, null);
    }

    /** Compares the stores of {@code groups}. */
    public List<VerifyReport> verify(List<String> groups, Direction direction, long tolerance, int parallelism,
                                     int batchSize, Progress progress) {
        KafkaGroups kafka = clients.requireKafka("migrate verify");
        ZkGroups zk = clients.zk();
        List<VerifyReport> reports = new ArrayList<>();
        List<String> unreadable = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(parallelism, r -> {
            Thread t = new Thread(r, "zkgroups-verify");
            t.setDaemon(true);
            return t;
        });
        try {
            for (int from = 0; from < groups.size(); from += batchSize) {
                List<String> chunk = groups.subList(from, Math.min(groups.size(), from + batchSize));
                Map<String, OffsetRegistry.OffsetRead> zkOffsets = readZk(pool, zk, chunk);
                Map<String, Map<TopicAndPartition, Long>> kafkaOffsets = kafka.groupOffsets(chunk);
                for (String group : chunk) {
                    OffsetRegistry.OffsetRead zkRead = zkOffsets.get(group);
                    if (!zkRead.unreadable().isEmpty()) {
                        unreadable.add(group + ": " + describe(zkRead.unreadable()));
                    }
                    Map<TopicAndPartition, Long> inKafka = kafkaOffsets.getOrDefault(group, Map.of());
                    Map<TopicAndPartition, Long> source = direction == Direction.ZOOKEEPER_TO_KAFKA ? zkRead.offsets() : inKafka;
                    Map<TopicAndPartition, Long> target = direction == Direction.ZOOKEEPER_TO_KAFKA ? inKafka : zkRead.offsets();
                    reports.add(VerifyReport.compute(group, direction, source, target,
                            existing(source.keySet(), target.keySet()), tolerance));
                    progress.advance(1, group);
                }
            }
        } finally {
            pool.shutdownNow();
        }
        if (!unreadable.isEmpty()) {
            throw new CliException(ExitCode.UNREADABLE_ZNODE, "cannot verify: unreadable offset znodes in "
                    + unreadable.size() + " groups: " + String.join("; ", unreadable.subList(0, Math.min(5, unreadable.size()))));
        }
        return reports;
    }

    private Map<String, OffsetRegistry.OffsetRead> readZk(ExecutorService pool, ZkGroups zk, List<String> chunk) {
        Map<String, Future<OffsetRegistry.OffsetRead>> futures = new TreeMap<>();
        for (String group : chunk) {
            futures.put(group, pool.submit(() -> zk.offsets(group)));
        }
        Map<String, OffsetRegistry.OffsetRead> result = new TreeMap<>();
        futures.forEach((group, f) -> result.put(group, get(f)));
        return result;
    }

    /** The partitions of the topics involved that exist in the cluster (partition counts cached per run). */
    private Set<TopicAndPartition> existing(Collection<TopicAndPartition> a, Collection<TopicAndPartition> b) {
        Set<String> topics = new TreeSet<>();
        a.forEach(tp -> topics.add(tp.topic()));
        b.forEach(tp -> topics.add(tp.topic()));
        Set<String> unknown = new TreeSet<>(topics);
        unknown.removeAll(partitionCounts.keySet());
        if (!unknown.isEmpty()) {
            Map<String, Integer> counts = TopicCatalog.partitionCounts(clients, unknown);
            unknown.forEach(t -> partitionCounts.put(t, counts.getOrDefault(t, 0)));
        }
        Set<TopicAndPartition> existing = new TreeSet<>();
        for (String topic : topics) {
            for (int p = 0; p < partitionCounts.get(topic); p++) {
                existing.add(new TopicAndPartition(topic, p));
            }
        }
        return existing;
    }

    private static String describe(List<Unreadable> unreadable) {
        return unreadable.subList(0, Math.min(3, unreadable.size())).toString()
                + (unreadable.size() > 3 ? " and " + (unreadable.size() - 3) + " more" : "");
    }

    private static <T> T get(Future<T> f) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException(ExitCode.INTERNAL, "interrupted", e);
        } catch (ExecutionException e) {
            throw Errors.translate(e.getCause());
        }
    }
}
