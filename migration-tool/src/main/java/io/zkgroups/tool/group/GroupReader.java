package io.zkgroups.tool.group;

import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.Subscription;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.store.Listing;
import io.zkgroups.registry.store.Member;
import io.zkgroups.registry.store.PartitionOwner;
import io.zkgroups.registry.store.TopicRegistry;
import io.zkgroups.registry.store.MemberAlarmRegistry;
import io.zkgroups.registry.store.Unreadable;
import io.zkgroups.tool.CliException;
import io.zkgroups.tool.io.Clients;
import io.zkgroups.tool.io.KafkaGroups;
import io.zkgroups.tool.io.ZkGroups;
import io.zkgroups.tool.io.ZkOffsetSnapshot;
import org.apache.zookeeper.Watcher;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Reads a {@link GroupView}: members, owners, ZooKeeper offsets (with mtimes), Kafka offsets, and partition
 * counts from {@code /brokers/topics} (ZooKeeper-mode clusters) or Kafka metadata (KRaft clusters). With a
 * watcher, arms it on everything whose change can change the group's health.
 * <p>
 * The mtimes are compared with ZooKeeper's time ({@link ZooKeeperClock}, calibrated at the first read), so a
 * host with a skewed clock infers the same phase as any other.
 * <p>
 * When Kafka does not answer (or refuses), the ZooKeeper half is read all the same: the view's Kafka offsets are
 * unknown and {@link GroupView#kafkaProblem()} says why.
 */
public final class GroupReader {

    private final Clients clients;
    private final Duration staleAfter;
    private final Clock localClock;
    private ZooKeeperClock clock;

    /** @param localClock this host's clock; only elapsed time is taken from it */
    public GroupReader(Clients clients, Duration staleAfter, Clock localClock) {
        this.clients = clients;
        this.staleAfter = staleAfter;
        this.localClock = localClock;
    }

    private synchronized ZooKeeperClock clock() {
        if (clock == null) {
            clock = ZooKeeperClock.calibrate(localClock, clients.zk()::serverTime);
        }
        return clock;
    }

    /**
     * @param watcher    armed on members, owners, offsets and subscribed topics; null for none
     * @param queryKafka whether to read Kafka offsets (when Kafka is reachable at all)
     */
    public GroupView read(String group, Watcher watcher, boolean queryKafka) {
        ZkGroups zk = clients.zk();
        ZooKeeperClock clock = clock();
        Instant now = clock.instant();
        boolean exists = zk.exists(group);
        Listing<Member> members = exists ? zk.members(group, watcher) : Listing.empty();
        if (!exists && watcher != null) {
            zk.members(group, watcher); // arms a watch on the creation of /consumers/G/ids
        }
        Listing<PartitionOwner> owners = exists ? zk.owners(group, watcher) : Listing.empty();
        ZkOffsetSnapshot zkOffsets = exists ? zk.offsetsWithMtimes(group, watcher) : ZkOffsetSnapshot.empty();
        boolean zkTopics = zk.hasTopicRegistry() || clients.kafka().isEmpty();
        Optional<KafkaGroups> kafka = queryKafka || !zkTopics ? clients.kafka() : Optional.empty();
        String kafkaProblem = null;
        Map<TopicAndPartition, Long> kafkaOffsets = null;
        Collection<String> kafkaTopics = List.of();
        boolean wildcards = members.entries().stream().anyMatch(m -> m.registration().subscription() instanceof Subscription.Wildcard);
        try {
            kafkaOffsets = queryKafka ? kafka.map(k -> k.groupOffsets(group)).orElse(null) : null;
            kafkaTopics = wildcards && !zkTopics ? kafka.get().topics() : List.of();
        } catch (CliException e) {
            kafkaProblem = partial(e);
        }
        Collection<String> existingTopics = !wildcards ? List.of() : zkTopics ? zk.topics(watcher) : kafkaTopics;
        Map<ConsumerId, Map<String, Integer>> subscriptions = new TreeMap<>();
        for (Member m : members.entries()) {
            subscriptions.put(m.id(), m.registration().subscription().topicStreams(existingTopics, true));
        }
        Set<String> subscribed = new TreeSet<>();
        subscriptions.values().forEach(s -> subscribed.addAll(s.keySet()));
        Set<String> topics = new TreeSet<>(subscribed);
        owners.entries().forEach(o -> topics.add(o.partition().topic()));
        zkOffsets.offsets().keySet().forEach(tp -> topics.add(tp.topic()));
        if (kafkaOffsets != null) {
            kafkaOffsets.keySet().forEach(tp -> topics.add(tp.topic()));
        }
        Map<String, Integer> counts = new TreeMap<>();
        Map<String, Unreadable> unreadableTopics = new TreeMap<>();
        if (zkTopics) {
            Set<String> rest = new TreeSet<>(topics);
            rest.removeAll(subscribed);
            for (TopicRegistry.Registrations read : List.of(zk.topicRegistrations(subscribed, watcher),
                    zk.topicRegistrations(rest, null))) {
                read.registrations().forEach((topic, registration) -> counts.put(topic, registration.partitionCount()));
                unreadableTopics.putAll(read.unreadable());
            }
        } else if (kafkaProblem == null) {
            try {
                counts.putAll(kafka.get().partitionCounts(topics));
            } catch (CliException e) {
                kafkaProblem = partial(e);
            }
        }
        PhaseInference.Result phase = PhaseInference.infer(zkOffsets.offsets(), zkOffsets.mtimes(), kafkaOffsets, now,
                staleAfter);
        if (kafkaProblem != null) {
            phase = new PhaseInference.Result(phase.phase(), "Kafka did not answer");
        }
        if (clock.uncalibrated().isPresent()) {
            phase = new PhaseInference.Result(phase.phase(), phase.evidence() + "; ZooKeeper mtimes compared with the "
                    + "local clock (ZooKeeper's time could not be read: " + clock.uncalibrated().get() + ")");
        }
        MemberAlarmRegistry.Reading alarms = exists ? zk.memberAlarms(group)
                : new MemberAlarmRegistry.Reading(new TreeMap<>(), List.of());
        return new GroupView(group, exists, members, subscriptions, owners, counts, unreadableTopics, zkOffsets,
                kafkaOffsets, phase, now, kafkaProblem, alarms);
    }

    /** The reason of a Kafka failure the ZooKeeper half can be shown without; other failures are thrown on. */
    public static String partial(CliException e) {
        if (!e.exitCode().leavesZooKeeperHalf()) {
            throw e;
        }
        return e.getMessage();
    }
}
