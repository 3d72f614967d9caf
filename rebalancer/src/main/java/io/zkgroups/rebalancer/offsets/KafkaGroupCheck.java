package io.zkgroups.rebalancer.offsets;

import io.zkgroups.registry.Time;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.errors.GroupIdNotFoundException;

import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Whether Kafka's side of a group id may be trusted as the offsets of a ZooKeeper-coordinated group. Such a
 * group never joins Kafka's group coordinator: its Kafka-side group has no members and no protocol type (a
 * "simple" group, as commits through the Admin API, 0.8.2.2's dual commit and {@code zkgroups migrate} leave it).
 * A group that has members, or that Kafka's own group protocol used (a {@code KafkaConsumer} with
 * {@code subscribe()}; the protocol type stays after its members left), belongs to other consumers: adopting its
 * offsets would silently move our partitions to wherever they stopped.
 * <p>
 * The verdict is kept for {@link #RECHECK_AFTER}, so a group costs one description per interval, not one per read.
 * Thread-safe.
 */
final class KafkaGroupCheck {

    static final Duration RECHECK_AFTER = Duration.ofMinutes(1);

    /** A verdict and when it was reached (the monotonic clock); {@code refusal} is null when trusted. */
    private static final class Verdict {
        private final String refusal;
        private final long atNanos;

        Verdict(String refusal, long atNanos) {
            this.refusal = refusal;
            this.atNanos = atNanos;
        }

        public String refusal() {
            return refusal;
        }

        public long atNanos() {
            return atNanos;
        }
    }

    private final Admin admin;
    private final Duration timeout;
    private final Time time;
    private final Map<String, Verdict> verdicts = new ConcurrentHashMap<>();

    KafkaGroupCheck(Admin admin, Duration timeout, Time time) {
        this.admin = admin;
        this.timeout = timeout;
        this.time = time;
    }

    /**
     * @throws OffsetStoreException naming the group when Kafka-coordinated consumers use (or used) it, or when the
     *                              group could not be described
     */
    void requireZooKeeperCoordinated(String group) {
        requireZooKeeperCoordinated(group, timeout);
    }

    /** As {@link #requireZooKeeperCoordinated(String)}, waiting at most {@code wait} for Kafka's description. */
    void requireZooKeeperCoordinated(String group, Duration wait) {
        long now = time.nanoseconds();
        Verdict verdict = verdicts.get(group);
        if (verdict == null || now - verdict.atNanos() > RECHECK_AFTER.toNanos()) {
            verdict = new Verdict(refusal(group, describe(group, wait)), now);
            verdicts.put(group, verdict);
        }
        if (verdict.refusal() != null) {
            throw new OffsetStoreException(verdict.refusal(), null);
        }
    }

    /** The group's description, or null when Kafka does not know it. */
    private ConsumerGroupDescription describe(String group, Duration wait) {
        try {
            return admin.describeConsumerGroups(Collections.singletonList(group)).describedGroups().get(group)
                    .get(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof GroupIdNotFoundException) {
                return null;
            }
            throw new OffsetStoreException("describing Kafka group " + group + " before trusting its offsets failed: "
                    + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new OffsetStoreException("describing Kafka group " + group + " timed out after " + wait.toMillis()
                    + " ms (is Kafka reachable?)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new OffsetStoreException("interrupted while describing Kafka group " + group, e);
        }
    }

    /** Why the Kafka-side offsets of {@code group} are not ours, or null when they are. */
    static String refusal(String group, ConsumerGroupDescription description) {
        if (description == null) {
            return null;
        }
        String evidence;
        if (!description.members().isEmpty()) {
            int members = description.members().size();
            evidence = "uses that group id: Kafka's group has " + members + " member" + (members == 1 ? "" : "s");
        } else if (!description.isSimpleConsumerGroup() || description.type() == GroupType.CONSUMER) {
            evidence = "has used that group id: Kafka's group has no member now but keeps what they committed";
        } else {
            return null;
        }
        return "refusing the Kafka offsets of group " + group + ": Kafka's own group protocol (a KafkaConsumer with "
                + "subscribe()) " + evidence + " (state " + description.state() + ", type " + description.type()
                + "). They are not this ZooKeeper-coordinated group's offsets to resume from. Stop those consumers and "
                + "delete Kafka's group (kafka-consumer-groups.sh --delete --group " + group + ") if its offsets are not "
                + "wanted, or give one of the two groups another group.id.";
    }
}
