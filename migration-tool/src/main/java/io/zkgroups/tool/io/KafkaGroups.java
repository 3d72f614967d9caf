package io.zkgroups.tool.io;

import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.tool.CliException;
import io.zkgroups.tool.ExitCode;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConsumerGroupOffsetsResult;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.GroupNotEmptyException;
import org.apache.kafka.common.errors.GroupSubscribedToTopicException;
import org.apache.kafka.common.errors.UnknownMemberIdException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.errors.UnsupportedVersionException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The tool's Kafka side, through the Admin API: a ZooKeeper group's offsets in {@code __consumer_offsets}
 * (the group never joins Kafka's coordinator, so it has no Kafka members and the broker accepts these
 * writes), log offsets, and topic metadata. Every failure becomes a {@link CliException} that names the
 * bootstrap servers and what was being done.
 */
public final class KafkaGroups {

    /** Groups per batched OffsetFetch (one request per coordinator, KIP-709). */
    private static final int FETCH_BATCH = 50;

    private final Admin admin;
    private final String bootstrap;
    private final Duration timeout;

    public KafkaGroups(Admin admin, String bootstrap, Duration timeout) {
        this.admin = Objects.requireNonNull(admin, "admin");
        this.bootstrap = Objects.requireNonNull(bootstrap, "bootstrap");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
    }

    public String bootstrap() {
        return bootstrap;
    }

    public Admin admin() {
        return admin;
    }

    /** Every offset Kafka holds for {@code group}. */
    public Map<TopicAndPartition, Long> groupOffsets(String group) {
        return groupOffsets(List.of(group)).getOrDefault(group, Map.of());
    }

    /** Kafka's description of {@code group} (its members, state, protocol), empty when Kafka does not know it. */
    public Optional<ConsumerGroupDescription> describeGroup(String group) {
        String what = "describing Kafka's group " + group;
        try {
            return Optional.of(admin.describeConsumerGroups(List.of(group)).describedGroups().get(group)
                    .get(timeout.toMillis() + 2_000, TimeUnit.MILLISECONDS));
        } catch (TimeoutException e) {
            throw unreachable(what, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException(ExitCode.INTERNAL, "interrupted while " + what, e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof GroupIdNotFoundException) {
                return Optional.empty();
            }
            throw translate(e.getCause(), what, group);
        }
    }

    /** A batched OffsetFetch in flight. */
    private record Batch(List<String> groups, KafkaFuture<Map<String, Map<TopicPartition, OffsetAndMetadata>>> reply) {
    }

    /** Every offset Kafka holds for each of {@code groups}, fetched in batches that are all sent before any is awaited. */
    public Map<String, Map<TopicAndPartition, Long>> groupOffsets(Collection<String> groups) {
        Map<String, Map<TopicAndPartition, Long>> result = new TreeMap<>();
        List<String> all = new ArrayList<>(groups);
        List<Batch> sent = new ArrayList<>();
        for (int from = 0; from < all.size(); from += FETCH_BATCH) {
            Map<String, ListConsumerGroupOffsetsSpec> specs = new LinkedHashMap<>();
            all.subList(from, Math.min(all.size(), from + FETCH_BATCH))
                    .forEach(g -> specs.put(g, new ListConsumerGroupOffsetsSpec()));
            sent.add(new Batch(List.copyOf(specs.keySet()), admin.listConsumerGroupOffsets(specs).all()));
        }
        for (Batch batch : sent) {
            String what = batch.groups().size() == 1 ? "reading the Kafka offsets of group " + batch.groups().get(0)
                    : "reading the Kafka offsets of " + batch.groups().size() + " groups";
            Map<String, Map<TopicPartition, OffsetAndMetadata>> fetched = await(batch.reply(), what, batch.groups().get(0));
            fetched.forEach((group, offsets) -> {
                Map<TopicAndPartition, Long> converted = new TreeMap<>();
                offsets.forEach((tp, om) -> {
                    if (om != null && om.offset() >= 0) {
                        converted.put(from(tp), om.offset());
                    }
                });
                result.put(group, converted);
            });
        }
        return result;
    }

    /**
     * Writes {@code offsets} for {@code group} in one request (one record batch in {@code __consumer_offsets}:
     * all or nothing for the group).
     */
    public void commit(String group, Map<TopicAndPartition, Long> offsets) {
        if (offsets.isEmpty()) {
            return;
        }
        Map<TopicPartition, OffsetAndMetadata> request = new HashMap<>();
        offsets.forEach((tp, offset) -> request.put(to(tp), new OffsetAndMetadata(offset)));
        AlterConsumerGroupOffsetsResult result = admin.alterConsumerGroupOffsets(group, request);
        await(result.all(), "writing " + offsets.size() + " Kafka offsets of group " + group, group);
    }

    /** Log offsets of {@code partitions} at {@code spec} (earliest, latest, or a timestamp: −1 = none). */
    public Map<TopicAndPartition, Long> logOffsets(Collection<TopicAndPartition> partitions, OffsetSpec spec, String what) {
        Map<TopicAndPartition, Long> result = new TreeMap<>();
        if (partitions.isEmpty()) {
            return result;
        }
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        partitions.forEach(tp -> request.put(to(tp), spec));
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> answer =
                await(admin.listOffsets(request).all(), "listing the " + what + " offsets of "
                        + partitions.size() + " partitions", null);
        answer.forEach((tp, info) -> result.put(from(tp), info.offset()));
        return result;
    }

    /**
     * The partition of {@code __consumer_offsets} that stores {@code group}'s commits (the group coordinator's), as the
     * brokers see it now; empty when the topic does not exist yet.
     */
    public Optional<OffsetsTopicPartition> offsetsTopicPartition(String group) {
        Map<String, TopicDescription> described;
        try {
            described = await(admin.describeTopics(List.of(OffsetsTopicPartition.TOPIC)).allTopicNames(),
                    "describing " + OffsetsTopicPartition.TOPIC, null);
        } catch (CliException e) {
            if (e.exitCode() == ExitCode.NOT_FOUND) {
                return Optional.empty();
            }
            throw e;
        }
        List<TopicPartitionInfo> partitions = described.get(OffsetsTopicPartition.TOPIC).partitions();
        TopicPartitionInfo info = partitions.get(OffsetsTopicPartition.partitionFor(group, partitions.size()));
        ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, OffsetsTopicPartition.TOPIC);
        Config config = await(admin.describeConfigs(List.of(topic)).all(), "describing the configuration of "
                + OffsetsTopicPartition.TOPIC, null).get(topic);
        ConfigEntry minInSync = config == null ? null : config.get("min.insync.replicas");
        return Optional.of(new OffsetsTopicPartition(info.partition(),
                info.leader() == null || info.leader().isEmpty() ? null : info.leader().host() + ":" + info.leader().port(),
                info.isr().size(), info.replicas().size(),
                minInSync == null || minInSync.value() == null ? 1 : Integer.parseInt(minInSync.value())));
    }

    /** Partition counts of those {@code topics} that exist. */
    public Map<String, Integer> partitionCounts(Collection<String> topics) {
        Map<String, Integer> counts = new TreeMap<>();
        if (topics.isEmpty()) {
            return counts;
        }
        Set<String> existing = topics();
        List<String> wanted = topics.stream().filter(existing::contains).toList();
        if (wanted.isEmpty()) {
            return counts;
        }
        Map<String, TopicDescription> described =
                await(admin.describeTopics(wanted).allTopicNames(), "describing " + wanted.size() + " topics", null);
        described.forEach((name, d) -> counts.put(name, d.partitions().size()));
        return counts;
    }

    /** Names of the topics (internal ones excluded). */
    public Set<String> topics() {
        return new TreeSet<>(await(admin.listTopics(new ListTopicsOptions().listInternal(false)).names(),
                "listing topics", null));
    }

    /** Deletes {@code group}'s Kafka offsets of {@code partitions}. */
    public void deleteOffsets(String group, Collection<TopicAndPartition> partitions) {
        if (partitions.isEmpty()) {
            return;
        }
        Set<TopicPartition> request = new java.util.HashSet<>();
        partitions.forEach(tp -> request.add(to(tp)));
        await(admin.deleteConsumerGroupOffsets(group, request).all(), "deleting the Kafka offsets of group " + group, group);
    }

    private <T> T await(KafkaFuture<T> future, String what, String group) {
        try {
            return future.get(timeout.toMillis() + 2_000, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw unreachable(what, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException(ExitCode.INTERNAL, "interrupted while " + what, e);
        } catch (ExecutionException e) {
            throw translate(e.getCause(), what, group);
        }
    }

    private CliException translate(Throwable cause, String what, String group) {
        if (cause instanceof org.apache.kafka.common.errors.TimeoutException) {
            return unreachable(what, cause);
        }
        if (cause instanceof AuthenticationException) {
            return new CliException(ExitCode.UNREACHABLE, "Kafka at " + bootstrap + " refused the credentials while "
                    + what + ": " + cause.getMessage() + " (check --command-config)", cause);
        }
        if (cause instanceof AuthorizationException) {
            return new CliException(ExitCode.KAFKA_REFUSED, "Kafka at " + bootstrap + " denied access while " + what
                    + ": " + cause.getMessage(), cause);
        }
        if (cause instanceof UnknownMemberIdException || cause instanceof GroupSubscribedToTopicException
                || cause instanceof GroupNotEmptyException) {
            return new CliException(ExitCode.KAFKA_REFUSED, "Kafka refused " + what + " because a client has joined group "
                    + group + " through Kafka's own group protocol (a KafkaConsumer with subscribe()); a ZooKeeper group "
                    + "must not share its id with Kafka-coordinated consumers (Kafka said: " + cause.getMessage() + ")", cause);
        }
        if (cause instanceof UnknownTopicOrPartitionException) {
            return new CliException(ExitCode.NOT_FOUND, "Kafka at " + bootstrap + " does not know a topic or partition "
                    + "while " + what + ": " + cause.getMessage(), cause);
        }
        if (cause instanceof UnsupportedVersionException) {
            return new CliException(ExitCode.KAFKA_TOO_OLD, tooOld(what, cause), cause);
        }
        return new CliException(ExitCode.KAFKA_REFUSED, "Kafka at " + bootstrap + " failed " + what + ": "
                + cause.getClass().getSimpleName() + ": " + cause.getMessage(), cause);
    }

    /** The broker does not speak a request version the Admin client of kafka-clients 3.9 needs for {@code what}. */
    private String tooOld(String what, Throwable cause) {
        String message = String.valueOf(cause.getMessage());
        // Admin sends Metadata v4+ (allowAutoTopicCreation=false), which Kafka 0.11.0 introduced
        String version = message.contains("MetadataRequest versions older than 4")
                ? "is older than 0.11.0 (no Metadata v4)" : "is too old for it";
        return "Kafka at " + bootstrap + " " + version + ": the Admin API of kafka-clients 3.9 failed " + what
                + "; offsets reset, lag and the log offsets of groups describe and health need a Kafka 0.11.0 broker "
                + "or later (docs/compatibility.md). Kafka said: " + message;
    }

    private CliException unreachable(String what, Throwable cause) {
        return new CliException(ExitCode.UNREACHABLE, "Kafka at " + bootstrap + " did not answer within "
                + timeout.toSeconds() + " s while " + what + " (is --bootstrap-server right and the broker up?)", cause);
    }

    static TopicPartition to(TopicAndPartition tp) {
        return new TopicPartition(tp.topic(), tp.partition());
    }

    static TopicAndPartition from(TopicPartition tp) {
        return new TopicAndPartition(tp.topic(), tp.partition());
    }
}
