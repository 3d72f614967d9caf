package io.zkgroups.rebalancer.offsets;

import io.zkgroups.registry.Time;
import io.zkgroups.registry.model.TopicAndPartition;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConsumerGroupOffsetsOptions;
import org.apache.kafka.clients.admin.AlterConsumerGroupOffsetsResult;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsOptions;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupSubscribedToTopicException;
import org.apache.kafka.common.errors.UnknownMemberIdException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Offsets in Kafka ({@code __consumer_offsets}) through the Admin API. A ZooKeeper-coordinated group never
 * joins Kafka's group coordinator, so its Kafka-side group has no members and the broker accepts these
 * commits; if some client did join the group through Kafka's own protocol, the broker refuses, and the
 * error says so instead of Kafka's misleading "unknown member". Reads are refused the same way before anything
 * is read when Kafka's group has members or was used by Kafka's own protocol ({@link KafkaGroupCheck}): the
 * offsets such consumers committed are not ours to resume from.
 * <p>
 * Thread-safe: Kafka's {@code Admin} client is, and the group check keeps its verdicts in a concurrent map.
 */
public final class KafkaOffsets implements OffsetStore {

    private final Admin admin;
    private final Duration timeout;
    private final boolean ownsAdmin;
    private final KafkaGroupCheck groupCheck;
    private final Time time;

    public KafkaOffsets(Admin admin, Duration timeout, boolean ownsAdmin) {
        this(admin, timeout, ownsAdmin, Time.SYSTEM);
    }

    /** @param time what commit deadlines and the group check's age are measured with */
    public KafkaOffsets(Admin admin, Duration timeout, boolean ownsAdmin, Time time) {
        this.admin = admin;
        this.timeout = timeout;
        this.ownsAdmin = ownsAdmin;
        this.time = time;
        this.groupCheck = new KafkaGroupCheck(admin, timeout, time);
    }

    /**
     * @throws OffsetStoreException if Kafka-coordinated consumers use (or used) the group id, naming the group
     *                              and what to do; or if Kafka could not be read
     */
    @Override
    public Map<TopicAndPartition, Long> read(String group, Collection<TopicAndPartition> partitions) {
        return read(group, partitions, timeout);
    }

    /** As {@link #lookup(String, Collection)}, waiting at most {@code bound} (and never longer than this store's timeout). */
    @Override
    public OffsetLookup lookup(String group, Collection<TopicAndPartition> partitions, Duration bound) {
        try {
            return OffsetLookup.of(read(group, partitions, bound.compareTo(timeout) < 0 ? bound : timeout),
                    Collections.emptyMap());
        } catch (OffsetStoreException e) {
            Map<TopicAndPartition, String> unknown = new TreeMap<>();
            partitions.forEach(tp -> unknown.put(tp, e.getMessage()));
            return OffsetLookup.of(Collections.emptyMap(), unknown);
        }
    }

    private Map<TopicAndPartition, Long> read(String group, Collection<TopicAndPartition> partitions, Duration wait) {
        Map<TopicAndPartition, Long> result = new TreeMap<>();
        if (partitions.isEmpty()) {
            return result;
        }
        groupCheck.requireZooKeeperCoordinated(group, wait);
        List<TopicPartition> wanted = new ArrayList<>();
        partitions.forEach(tp -> wanted.add(toKafka(tp)));
        ListConsumerGroupOffsetsSpec spec = new ListConsumerGroupOffsetsSpec().topicPartitions(wanted);
        Map<TopicPartition, OffsetAndMetadata> offsets = await(group, "reading",
                admin.listConsumerGroupOffsets(Collections.singletonMap(group, spec), new ListConsumerGroupOffsetsOptions())
                        .partitionsToOffsetAndMetadata(group), wait);
        offsets.forEach((tp, om) -> {
            if (om != null && om.offset() >= 0) {
                result.put(fromKafka(tp), om.offset());
            }
        });
        return result;
    }

    /** Every offset Kafka stores for {@code group}. */
    public Map<TopicAndPartition, Long> readAll(String group) {
        Map<TopicAndPartition, Long> result = new TreeMap<>();
        Map<TopicPartition, OffsetAndMetadata> offsets = await(group, "reading",
                admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata(), timeout);
        offsets.forEach((tp, om) -> {
            if (om != null && om.offset() >= 0) {
                result.put(fromKafka(tp), om.offset());
            }
        });
        return result;
    }

    @Override
    public Set<TopicAndPartition> commit(String group, Map<TopicAndPartition, Long> offsets) {
        return commit(group, offsets, timeout.toMillis());
    }

    /**
     * Kafka cannot tie a write to the ZooKeeper session that owns the partitions, so the write is bounded by the
     * permit's deadline (the end of the ownership lease): the Admin call gives up by then, and the member does not
     * release the partitions before it has. What remains is a request the broker had already received when the
     * client gave up: it is applied when the broker gets to it (its request queue time, normally milliseconds),
     * possibly after the deadline. See docs/fence.md.
     */
    @Override
    public Set<TopicAndPartition> commit(String group, Map<TopicAndPartition, Long> offsets, CommitPermit permit) {
        long left = Math.min(timeout.toMillis(), permit.remainingMillis());
        if (left <= 0) {
            throw new FencedException("offsets of group " + group + " not written to Kafka: the ownership lease of "
                    + offsets.keySet() + " ran out before the commit could be sent");
        }
        return commit(group, offsets, left);
    }

    private Set<TopicAndPartition> commit(String group, Map<TopicAndPartition, Long> offsets, long timeoutMs) {
        Set<TopicAndPartition> accepted = new TreeSet<>();
        if (offsets.isEmpty()) {
            return accepted;
        }
        Map<TopicPartition, OffsetAndMetadata> request = new HashMap<>();
        offsets.forEach((tp, offset) -> request.put(toKafka(tp), new OffsetAndMetadata(offset)));
        long deadline = time.nanoseconds() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        AlterConsumerGroupOffsetsResult result = admin.alterConsumerGroupOffsets(group, request,
                new AlterConsumerGroupOffsetsOptions().timeoutMs((int) Math.min(Integer.MAX_VALUE, timeoutMs)));
        List<String> rejected = new ArrayList<>();
        for (TopicPartition tp : request.keySet()) {
            try {
                long left = Math.max(0, deadline - time.nanoseconds());
                result.partitionResult(tp).get(left, TimeUnit.NANOSECONDS);
                accepted.add(fromKafka(tp));
            } catch (ExecutionException e) {
                if (isForeignGroupError(e.getCause())) {
                    throw foreignGroup(group, e.getCause());
                }
                rejected.add(tp + ": " + e.getCause().getMessage());
            } catch (TimeoutException e) {
                throw new OffsetStoreException("committing Kafka offsets of group " + group + " timed out after "
                        + timeoutMs + " ms (is Kafka reachable?)", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new OffsetStoreException("interrupted while committing Kafka offsets of group " + group, e);
            }
        }
        if (accepted.isEmpty() && !rejected.isEmpty()) {
            throw new OffsetStoreException("Kafka rejected every offset of group " + group + ": " + rejected, null);
        }
        return accepted;
    }

    private <T> T await(String group, String what, KafkaFuture<T> future, Duration wait) {
        try {
            return future.get(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (isForeignGroupError(e.getCause())) {
                throw foreignGroup(group, e.getCause());
            }
            throw new OffsetStoreException(what + " Kafka offsets of group " + group + " failed: " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new OffsetStoreException(what + " Kafka offsets of group " + group + " timed out after "
                    + wait.toMillis() + " ms (is Kafka reachable?)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new OffsetStoreException("interrupted while " + what + " Kafka offsets of group " + group, e);
        }
    }

    private static boolean isForeignGroupError(Throwable cause) {
        return cause instanceof UnknownMemberIdException || cause instanceof GroupSubscribedToTopicException
                || (cause != null && cause.getClass().getSimpleName().equals("GroupNotEmptyException"));
    }

    private static OffsetStoreException foreignGroup(String group, Throwable cause) {
        return new OffsetStoreException("Kafka refused offsets for group " + group + " because some client has joined "
                + "that group through Kafka's own group protocol (a KafkaConsumer with subscribe()). A ZooKeeper-"
                + "coordinated group must not share its group id with Kafka-coordinated consumers. (Kafka said: "
                + cause.getMessage() + ")", cause);
    }

    static TopicPartition toKafka(TopicAndPartition tp) {
        return new TopicPartition(tp.topic(), tp.partition());
    }

    static TopicAndPartition fromKafka(TopicPartition tp) {
        return new TopicAndPartition(tp.topic(), tp.partition());
    }

    @Override
    public String name() {
        return "kafka";
    }

    @Override
    public void close() {
        if (ownsAdmin) {
            admin.close(Duration.ofSeconds(5));
        }
    }
}
