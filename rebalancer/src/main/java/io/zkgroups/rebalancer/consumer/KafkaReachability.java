package io.zkgroups.rebalancer.consumer;

import io.zkgroups.registry.Time;
import io.zkgroups.registry.store.Unreadable;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.LogContext;
import org.slf4j.Logger;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Whether Kafka answers the fetcher: while it has partitions to fetch and no broker answered any request of it for
 * {@link #SILENCE}, Kafka counts as unreachable, since the last answer. Read from the fetcher's own metrics (every
 * response it received, its connections), after each of its polls: nothing here asks Kafka anything. The member's
 * health ({@code unreadable}, source {@code kafka}), the consumer's metrics and the log show it; it clears by itself at
 * the next answer.
 * <p>
 * <b>Threading.</b> {@link #observe} on the thread inside the consumer; the getters on any thread.
 */
final class KafkaReachability {

    /** This consumer's log: every line starts with its id. */
    private final Logger log;

    /** No answer for this long while fetching: Kafka is unreachable (a fetch is answered within fetch.max.wait.ms). */
    static final Duration SILENCE = Duration.ofSeconds(5);
    /** The health source under which unfetchable partitions are reported. */
    static final String SOURCE = "kafka";

    private final String memberName;
    private final Supplier<Map<MetricName, ? extends Metric>> fetcherMetrics;
    private final Duration silence;
    private Metric responses;
    private Metric connections;
    private double lastResponses = -1;
    private final Time time;
    private long lastAnswerNanos;
    private volatile Snapshot snapshot = Snapshot.REACHABLE;

    KafkaReachability(String memberName, Supplier<Map<MetricName, ? extends Metric>> fetcherMetrics, Time time) {
        this(memberName, fetcherMetrics, SILENCE, time);
    }

    /** With another {@code silence} than {@link #SILENCE} (tests). */
    KafkaReachability(String memberName, Supplier<Map<MetricName, ? extends Metric>> fetcherMetrics, Duration silence,
                      Time time) {
        this.memberName = memberName;
        this.log = new LogContext("[" + memberName + "] ").logger(KafkaReachability.class);
        this.fetcherMetrics = fetcherMetrics;
        this.silence = silence;
        this.time = time;
        this.lastAnswerNanos = time.nanoseconds();
    }

    /** What is known now: reachable, or since when not, why, and which partitions cannot be fetched. */
    static final class Snapshot {
        static final Snapshot REACHABLE = new Snapshot(null, "", Collections.emptySortedSet());

        private final Instant since;
        private final String cause;
        private final SortedSet<TopicPartition> unfetchable;

        Snapshot(Instant since, String cause, SortedSet<TopicPartition> unfetchable) {
            this.since = since;
            this.cause = cause;
            this.unfetchable = unfetchable;
        }

        Optional<Instant> unreachableSince() {
            return Optional.ofNullable(since);
        }

        String cause() {
            return cause;
        }

        SortedSet<TopicPartition> unfetchable() {
            return unfetchable;
        }

        /** One alarm per partition that cannot be fetched, as the member's health reports them. */
        List<Unreadable> alarms() {
            List<Unreadable> alarms = new ArrayList<>();
            for (TopicPartition tp : unfetchable) {
                alarms.add(new Unreadable("kafka:" + tp, "cannot be fetched: " + cause));
            }
            return alarms;
        }
    }

    /**
     * After a poll of the fetcher: {@code fetched} are the partitions it should fetch now. Returns whether the
     * snapshot changed.
     */
    boolean observe(SortedSet<TopicPartition> fetched) {
        long now = time.nanoseconds();
        double answered = value(responses());
        if (fetched.isEmpty() || answered > lastResponses) {
            lastResponses = Math.max(lastResponses, answered);
            lastAnswerNanos = now;
            return update(Snapshot.REACHABLE);
        }
        long silentNanos = now - lastAnswerNanos;
        if (silentNanos < silence.toNanos()) {
            return false;
        }
        Snapshot before = snapshot;
        Instant since = before.since != null ? before.since
                : time.instant().minusMillis(TimeUnit.NANOSECONDS.toMillis(silentNanos));
        String cause = (value(connections()) > 0 ? "connected, but no broker answered" : "no connection to any broker")
                + " since " + since + " (is Kafka reachable?)";
        SortedSet<TopicPartition> unfetchable = new TreeSet<>(KafkaPartitions.ORDER);
        unfetchable.addAll(fetched);
        return update(new Snapshot(since, cause, Collections.unmodifiableSortedSet(unfetchable)));
    }

    Snapshot snapshot() {
        return snapshot;
    }

    private boolean update(Snapshot next) {
        Snapshot before = snapshot;
        if (before.since == null && next.since == null) {
            return false;
        }
        if (before.since != null && next.since != null && before.cause.equals(next.cause)
                && before.unfetchable.equals(next.unfetchable)) {
            return false;
        }
        snapshot = next;
        if (next.since == null) {
            log.info("Kafka answers again (unreachable since {}): fetching resumes", before.since);
        } else if (before.since == null) {
            log.warn("Kafka unreachable: {}; {} cannot be fetched. Rebalances go on through ZooKeeper alone.", next.cause, next.unfetchable);
        }
        return true;
    }

    private Metric responses() {
        if (responses == null) {
            responses = find("response-total");
        }
        return responses;
    }

    private Metric connections() {
        if (connections == null) {
            connections = find("connection-count");
        }
        return connections;
    }

    private Metric find(String name) {
        for (Map.Entry<MetricName, ? extends Metric> metric : fetcherMetrics.get().entrySet()) {
            if (metric.getKey().name().equals(name) && metric.getKey().group().equals("consumer-metrics")) {
                return metric.getValue();
            }
        }
        return null;
    }

    private static double value(Metric metric) {
        if (metric == null) {
            return 0;
        }
        Object value = metric.metricValue();
        return value instanceof Number ? ((Number) value).doubleValue() : 0;
    }
}
