package io.zkgroups.tool.group;

import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.store.Member;
import io.zkgroups.registry.store.PartitionOwner;
import io.zkgroups.tool.reset.PartitionFacts;
import io.zkgroups.tool.reset.ResetPlanner;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What {@code groups describe} shows: per partition both stores' offsets, the log end, the lag and the owner;
 * per member its subscription and how many partitions it owns. {@link #of} is pure.
 * <p>
 * Lag = log end − the offset a member would start from (ZooKeeper's in {@code zookeeper-only}, Kafka's in
 * {@code kafka-only}, the larger of both otherwise — what 0.8.2.2 with dual commit reads).
 *
 * @param coordinator       {@code zookeeper} or {@code kafka}: which coordinator holds the group (its decision znode)
 * @param coordinatorBroker for a group on Kafka, its coordinator broker {@code host:port}; null otherwise
 */
public record GroupDescription(String group, String state, String phase, String phaseEvidence, String strategy,
                               String strategyReason, List<PartitionRow> partitions, List<MemberRow> members,
                               List<String> unreadable, String kafkaProblem, List<MemberAlarm> memberAlarms,
                               String coordinator, String coordinatorBroker) {

    /**
     * One partition. Null values are unknown or absent.
     *
     * @param lagSeconds       the age of the record at the offset the group reads ({@link io.zkgroups.tool.lag.TimeLag})
     * @param commitAgeSeconds time since the offset the group reads was committed (a ZooKeeper offset's mtime)
     */
    public record PartitionRow(String topic, int partition, Long zookeeperOffset, Long kafkaOffset, Long logEndOffset,
                               Long lag, String owner, String consumerId, String host, Double lagSeconds,
                               Double commitAgeSeconds) {
        /** The offset the group reads: what lag is measured from. */
        public Long currentOffset() {
            return lag == null || logEndOffset == null ? null : logEndOffset - lag;
        }
    }

    /** This description with each row's lag in seconds and commit age, from {@code times}. */
    public GroupDescription withTimes(java.util.function.Function<PartitionRow, Double[]> times) {
        List<PartitionRow> timed = partitions.stream().map(p -> {
            Double[] t = times.apply(p);
            return new PartitionRow(p.topic(), p.partition(), p.zookeeperOffset(), p.kafkaOffset(), p.logEndOffset(), p.lag(),
                    p.owner(), p.consumerId(), p.host(), t[0], t[1]);
        }).toList();
        return new GroupDescription(group, state, phase, phaseEvidence, strategy, strategyReason, timed, members, unreadable,
                kafkaProblem, memberAlarms, coordinator, coordinatorBroker);
    }

    /** One registered member. */
    public record MemberRow(String consumerId, String host, String subscription, int threads, int ownedPartitions) {
    }

    /**
     * What a registered zkgroups member publishes it cannot do now: {@code path} names the partition and where the
     * problem is ({@code kafka:t-0}: Kafka does not let it fetch t-0), {@code reason} the cause and since when.
     */
    public record MemberAlarm(String consumerId, String path, String reason) {
    }

    /** @param kafkaProblem why Kafka's half is missing (null: it is there, or Kafka was not configured) */
    public static GroupDescription of(GroupView view, GroupState state, StrategyChoice strategy,
                                      Map<TopicAndPartition, Long> logEnd, String kafkaProblem) {
        Set<TopicAndPartition> partitions = new TreeSet<>();
        view.subscribedPartitionCounts().forEach((topic, n) -> {
            for (int p = 0; p < n; p++) {
                partitions.add(new TopicAndPartition(topic, p));
            }
        });
        partitions.addAll(view.zk().offsets().keySet());
        if (view.kafka() != null) {
            partitions.addAll(view.kafka().keySet());
        }
        Map<TopicAndPartition, PartitionOwner> owners = new TreeMap<>();
        view.owners().entries().forEach(o -> owners.put(o.partition(), o));
        partitions.addAll(owners.keySet());

        Map<ConsumerId, Integer> ownedBy = new TreeMap<>();
        List<ConsumerId> registered = view.members().entries().stream().map(Member::id).toList();
        List<PartitionRow> rows = new ArrayList<>();
        for (TopicAndPartition tp : partitions) {
            Long zk = view.zk().offsets().get(tp);
            Long kafka = view.kafka() == null ? null : view.kafka().get(tp);
            Long end = logEnd.get(tp);
            Long current = ResetPlanner.currentOffset(new PartitionFacts(tp, zk, kafka, null, null, null),
                    view.phase().phase());
            Long lag = end == null || current == null ? null : Math.max(0, end - current);
            PartitionOwner owner = owners.get(tp);
            String ownerValue = owner == null ? null : owner.value();
            String consumer = owner == null ? null
                    : owner.threadAmong(registered).map(ThreadId::consumer).map(ConsumerId::value).orElse(null);
            String host = consumer == null ? null : MemberHost.of(view.group(), consumer).orElse(null);
            if (consumer != null) {
                ownedBy.merge(new ConsumerId(consumer), 1, Integer::sum);
            }
            rows.add(new PartitionRow(tp.topic(), tp.partition(), zk, kafka, end, lag, ownerValue, consumer, host, null, null));
        }
        List<MemberRow> members = new ArrayList<>();
        for (Member m : view.members().entries()) {
            Map<String, Integer> subscription = view.subscriptions().getOrDefault(m.id(), Map.of());
            int threads = subscription.values().stream().mapToInt(Integer::intValue).sum();
            members.add(new MemberRow(m.id().value(), MemberHost.of(view.group(), m.id().value()).orElse(null),
                    describe(m), threads, ownedBy.getOrDefault(m.id(), 0)));
        }
        List<String> unreadable = new ArrayList<>();
        view.members().unreadable().forEach(u -> unreadable.add(u.toString()));
        view.owners().unreadable().forEach(u -> unreadable.add(u.toString()));
        view.zk().unreadable().forEach(u -> unreadable.add(u.toString()));
        view.unreadableTopics().values().forEach(u -> unreadable.add(u.toString()));
        view.memberAlarms().unreadable().forEach(u -> unreadable.add(u.toString()));
        List<MemberAlarm> alarms = new ArrayList<>();
        view.registeredMembersAlarms().forEach((member, list) ->
                list.forEach(a -> alarms.add(new MemberAlarm(member.value(), a.path(), a.reason()))));
        return new GroupDescription(view.group(), state.label(), view.phase().phase().label(), view.phase().evidence(),
                strategy.strategy(), strategy.reason(), rows, members, unreadable, kafkaProblem, alarms, "zookeeper", null);
    }

    /**
     * This description of a group on Kafka's group coordinator: Kafka's state, members and assignment replace what
     * ZooKeeper registrations would tell (a member on Kafka has none); each partition keeps its owner znode (the
     * fence) and names the Kafka member assigned to it, by its member id (members' client ids need not differ). Pure.
     */
    public GroupDescription onKafka(KafkaCoordination kafka) {
        List<PartitionRow> rows = partitions.stream().map(p -> {
            var assignee = kafka.assigneeOf(new TopicAndPartition(p.topic(), p.partition()));
            return new PartitionRow(p.topic(), p.partition(), p.zookeeperOffset(), p.kafkaOffset(), p.logEndOffset(),
                    p.lag(), p.owner(), assignee.map(KafkaCoordination.KafkaMember::memberId).orElse(null),
                    assignee.map(KafkaCoordination.KafkaMember::host).orElse(null), p.lagSeconds(), p.commitAgeSeconds());
        }).toList();
        List<MemberRow> kafkaMembers = kafka.members().stream().map(m -> new MemberRow(m.memberId(), m.host(),
                m.assignment().stream().map(TopicAndPartition::topic).distinct().sorted()
                        .collect(java.util.stream.Collectors.joining(",")), 1, m.assignment().size())).toList();
        String assignor = kafka.assignor().isEmpty() ? "kafka" : "kafka:" + kafka.assignor();
        return new GroupDescription(group, kafka.state(), phase, phaseEvidence, assignor,
                "Kafka's group coordinator assigns the partitions", rows, kafkaMembers, unreadable, kafkaProblem,
                memberAlarms, "kafka", kafka.broker());
    }

    private static String describe(Member m) {
        var s = m.registration().subscription();
        if (s instanceof io.zkgroups.registry.model.Subscription.Static st) {
            StringBuilder b = new StringBuilder();
            st.streamsPerTopic().forEach((t, n) -> b.append(b.length() == 0 ? "" : ",").append(t).append(':').append(n));
            return b.toString();
        }
        var w = (io.zkgroups.registry.model.Subscription.Wildcard) s;
        return w.pattern() + "(" + w.regex() + "):" + w.streams();
    }

    /** Members that own no partition (more threads than partitions, or a rebalance in progress). */
    public List<MemberRow> membersWithoutPartitions() {
        return members.stream().filter(m -> m.ownedPartitions() == 0).toList();
    }
}
