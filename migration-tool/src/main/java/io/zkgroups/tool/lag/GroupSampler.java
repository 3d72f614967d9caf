package io.zkgroups.tool.lag;

import io.zkgroups.registry.codec.CoordinationCodec;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.Coordinator;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.store.GroupScan;
import io.zkgroups.registry.store.PartitionOwner;
import io.zkgroups.registry.store.TopicRegistry;
import io.zkgroups.tool.CliException;
import io.zkgroups.tool.group.KafkaCoordination;
import io.zkgroups.tool.group.MigrationPhase;
import io.zkgroups.tool.group.PhaseInference;
import io.zkgroups.tool.group.ZooKeeperClock;
import io.zkgroups.tool.io.Clients;
import io.zkgroups.tool.io.KafkaGroups;
import io.zkgroups.tool.io.RecordTimestamps;
import io.zkgroups.tool.io.ZkGroups;
import org.apache.kafka.clients.admin.OffsetSpec;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Reads many groups at once, at a bounded cost whatever their number: one pipelined ZooKeeper pass
 * ({@link GroupScan}: members, owners, offsets with their mtimes), the partition counts of their topics (one pipelined
 * read of {@code /brokers/topics}, or Kafka's metadata on KRaft clusters), and one batched round of Kafka requests
 * (the groups' offsets, then the log start and end of every partition). If Kafka does not answer, the ZooKeeper half is
 * still returned, with the reason.
 */
public final class GroupSampler {

    /** One read of many groups. {@code kafkaProblem} says why Kafka's half is missing (null: it is there). */
    public record Sampling(Instant at, Map<String, GroupSample> groups, String kafkaProblem) {
    }

    private final Clients clients;
    private final Duration staleAfter;
    private ZooKeeperClock clock;
    private RecordTimes recordTimes;

    /** Log end values kept per partition to interpolate record times from (a point is added when the log end moved). */
    private static final int HISTORY_POINTS = 120;

    /** @param staleAfter the phase inference's staleness of a ZooKeeper offset (see docs/cli.md) */
    public GroupSampler(Clients clients, Duration staleAfter) {
        this.clients = clients;
        this.staleAfter = staleAfter;
    }

    /** Every group under {@code /consumers}. */
    public List<String> allGroups() {
        return clients.zk().registry().scan().groups();
    }

    public Sampling sample(Collection<String> groups) {
        ZkGroups zk = clients.zk();
        if (clock == null) {
            clock = ZooKeeperClock.calibrate(Clock.systemUTC(), zk::serverTime);
        }
        Instant at = clock.instant();
        Map<String, GroupScan.ScannedGroup> scanned = zk.registry().scan().scan(groups);

        Set<String> topics = new TreeSet<>();
        scanned.values().forEach(g -> {
            g.offsets().keySet().forEach(tp -> topics.add(tp.topic()));
            g.owners().forEach(o -> topics.add(o.partition().topic()));
        });
        String kafkaProblem = null;
        Map<String, Map<TopicAndPartition, Long>> kafkaOffsets = null;
        Map<TopicAndPartition, Long> logStart = Map.of();
        Map<TopicAndPartition, Long> logEnd = Map.of();
        Optional<KafkaGroups> kafka = clients.kafka();
        if (kafka.isEmpty()) {
            kafkaProblem = "Kafka not queried (" + clients.kafkaUnavailableReason() + ")";
        } else {
            try {
                kafkaOffsets = kafka.get().groupOffsets(groups);
                kafkaOffsets.values().forEach(offsets -> offsets.keySet().forEach(tp -> topics.add(tp.topic())));
                Set<TopicAndPartition> existing = new TreeSet<>();
                partitionCounts(zk, kafka, topics).forEach((topic, n) -> {
                    for (int p = 0; p < n; p++) {
                        existing.add(new TopicAndPartition(topic, p));
                    }
                });
                logStart = kafka.get().logOffsets(existing, OffsetSpec.earliest(), "log start");
                logEnd = kafka.get().logOffsets(existing, OffsetSpec.latest(), "log end");
            } catch (CliException e) {
                if (!e.exitCode().leavesZooKeeperHalf()) {
                    throw e;
                }
                kafkaProblem = e.getMessage();
                kafkaOffsets = null;
                logStart = Map.of();
                logEnd = Map.of();
            }
        }
        Map<String, GroupSample> result = new TreeMap<>();
        for (GroupScan.ScannedGroup g : scanned.values()) {
            Map<TopicAndPartition, Long> kafkaOfGroup = kafkaOffsets == null ? null : kafkaOffsets.getOrDefault(g.group(), Map.of());
            result.put(g.group(), sampleOf(g, kafkaOfGroup, logStart, logEnd, at));
        }
        if (kafkaProblem == null && kafka.isPresent()) {
            try {
                onKafka(zk, kafka.get(), result);
            } catch (CliException e) {
                if (!e.exitCode().leavesZooKeeperHalf()) {
                    throw e;
                }
                kafkaProblem = e.getMessage();
            }
        }
        if (kafkaProblem == null && kafka.isPresent()) {
            addRecordTimes(result, logEnd, at);
        }
        return new Sampling(at, result, kafkaProblem);
    }

    /**
     * Replaces, for each group whose decision znode says {@code kafka} (docs/cutover.md), the members and the owners'
     * liveness by Kafka's group: its members, and whether it assigns each partition (a partition Kafka assigns and no
     * owner znode fences shows the assignee's client id as owner). One pipelined read of the decision znodes, and one
     * Admin describe per group on Kafka.
     */
    private static void onKafka(ZkGroups zk, KafkaGroups kafka, Map<String, GroupSample> samples) {
        Map<String, String> decisions = new TreeMap<>();
        samples.keySet().forEach(g -> decisions.put(zk.paths().coordination(g), g));
        Map<String, io.zkgroups.registry.store.Znodes.Data> read = zk.registry().znodes().readAll(decisions.keySet(), null);
        read.forEach((path, data) -> {
            Coordinator coordinator;
            try {
                coordinator = CoordinationCodec.decode(data.bytes()).coordinator();
            } catch (io.zkgroups.registry.codec.DecodeException e) {
                return; // the members cannot read it either; the group is shown as ZooKeeper's
            }
            if (coordinator != Coordinator.KAFKA) {
                return;
            }
            String group = decisions.get(path);
            KafkaCoordination k = kafka.describeGroup(group).map(KafkaCoordination::of)
                    .orElse(new KafkaCoordination(group, "dead", "", null, List.of()));
            samples.put(group, onKafka(samples.get(group), k));
        });
    }

    /** {@code sample} of a group on Kafka's coordinator, with Kafka's members and assignment. Pure. */
    static GroupSample onKafka(GroupSample sample, KafkaCoordination kafka) {
        Map<TopicAndPartition, GroupSample.PartitionRead> reads = new TreeMap<>();
        sample.partitions().forEach(r -> reads.put(r.partition(), r));
        kafka.members().forEach(m -> m.assignment().forEach(tp -> reads.putIfAbsent(tp,
                new GroupSample.PartitionRead(tp, null, null, null, null, null, null, false))));
        List<GroupSample.PartitionRead> rows = new ArrayList<>();
        reads.forEach((tp, r) -> {
            Optional<KafkaCoordination.KafkaMember> assignee = kafka.assigneeOf(tp);
            String owner = r.owner() != null ? r.owner() : assignee.map(KafkaCoordination.KafkaMember::clientId).orElse(null);
            rows.add(new GroupSample.PartitionRead(tp, r.zookeeperOffset(), r.zookeeperMtime(), r.kafkaOffset(),
                    r.logStart(), r.logEnd(), owner, assignee.isPresent(), r.written()));
        });
        return new GroupSample(sample.group(), sample.at(), kafka.members().size(), sample.phase(), rows,
                sample.unreadable(), sample.kafkaQueried(),
                kafka.members().stream().map(KafkaCoordination.KafkaMember::memberId).toList(), List.of(), "kafka");
    }

    /** Adds to every partition with something to consume when its next record was written ({@link RecordTimes}). */
    private void addRecordTimes(Map<String, GroupSample> samples, Map<TopicAndPartition, Long> logEnd, Instant at) {
        if (recordTimes == null) {
            Optional<RecordTimestamps> reader = clients.recordTimestamps();
            recordTimes = new RecordTimes(offsets -> reader.map(r -> r.at(offsets)).orElse(Map.of()),
                    new LogEndHistory(HISTORY_POINTS));
        }
        recordTimes.logEnds(logEnd, at);
        Set<RecordTimes.Want> wanted = new HashSet<>();
        samples.values().forEach(sample -> sample.partitions().forEach(read -> {
            RecordTimes.Want want = want(read, sample.phase().phase());
            if (want != null) {
                wanted.add(want);
            }
        }));
        Map<RecordTimes.Want, RecordTimes.Written> written = recordTimes.of(wanted);
        samples.replaceAll((group, sample) -> sample.withPartitions(sample.partitions().stream()
                .map(read -> {
                    RecordTimes.Want want = want(read, sample.phase().phase());
                    return want == null ? read : read.withWritten(written.get(want));
                }).toList()));
    }

    private static RecordTimes.Want want(GroupSample.PartitionRead read, MigrationPhase phase) {
        Long offset = read.offset(phase);
        if (offset == null || read.logStart() == null || read.logEnd() == null) {
            return null;
        }
        return new RecordTimes.Want(read.partition(), offset, read.logStart(), read.logEnd());
    }

    private GroupSample sampleOf(GroupScan.ScannedGroup g, Map<TopicAndPartition, Long> kafka,
                                 Map<TopicAndPartition, Long> logStart, Map<TopicAndPartition, Long> logEnd, Instant at) {
        Map<TopicAndPartition, Long> zkOffsets = new TreeMap<>();
        Map<TopicAndPartition, Instant> mtimes = new TreeMap<>();
        g.offsets().forEach((tp, stored) -> {
            zkOffsets.put(tp, stored.offset());
            mtimes.put(tp, stored.mtime());
        });
        Map<TopicAndPartition, PartitionOwner> owners = new TreeMap<>();
        g.owners().forEach(o -> owners.put(o.partition(), o));
        Set<ConsumerId> members = new TreeSet<>(g.members());
        Set<TopicAndPartition> partitions = new TreeSet<>(zkOffsets.keySet());
        partitions.addAll(owners.keySet());
        if (kafka != null) {
            partitions.addAll(kafka.keySet());
        }
        List<GroupSample.PartitionRead> reads = new ArrayList<>();
        for (TopicAndPartition tp : partitions) {
            PartitionOwner owner = owners.get(tp);
            boolean live = owner != null && owner.memberAmong(members).isPresent();
            reads.add(new GroupSample.PartitionRead(tp, zkOffsets.get(tp), mtimes.get(tp), kafka == null ? null : kafka.get(tp),
                    logStart.get(tp), logEnd.get(tp), owner == null ? null : owner.value(), live));
        }
        PhaseInference.Result phase = PhaseInference.infer(zkOffsets, mtimes, kafka, at, staleAfter);
        return new GroupSample(g.group(), at, g.members().size(), phase, reads, g.unreadable(), kafka != null,
                g.members().stream().map(ConsumerId::value).toList(), g.alarmed().stream().map(ConsumerId::value).toList());
    }

    /** Partition counts of those {@code topics} that exist: from {@code /brokers/topics}, or Kafka on KRaft clusters. */
    private static Map<String, Integer> partitionCounts(ZkGroups zk, Optional<KafkaGroups> kafka, Set<String> topics) {
        if (zk.hasTopicRegistry() || kafka.isEmpty()) {
            TopicRegistry.Registrations read = zk.topicRegistrations(topics, null);
            Map<String, Integer> counts = new TreeMap<>();
            read.registrations().forEach((topic, registration) -> counts.put(topic, registration.partitionCount()));
            return counts;
        }
        return kafka.get().partitionCounts(topics);
    }
}
