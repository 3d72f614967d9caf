package io.zkgroups.rebalancer.metrics;

import io.zkgroups.rebalancer.group.ZkGroupMember;
import io.zkgroups.rebalancer.group.MemberHealth;
import io.zkgroups.rebalancer.metrics.legacy.BrokerAddress;
import io.zkgroups.rebalancer.metrics.legacy.LegacyMBeans;
import io.zkgroups.rebalancer.offsets.OffsetStores;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.JmxReporter;
import org.apache.kafka.common.metrics.KafkaMetricsContext;
import org.apache.kafka.common.metrics.Measurable;
import org.apache.kafka.common.metrics.MetricConfig;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.Avg;
import org.apache.kafka.common.metrics.stats.CumulativeCount;
import org.apache.kafka.common.metrics.stats.CumulativeSum;
import org.apache.kafka.common.metrics.stats.Max;
import org.apache.kafka.common.metrics.stats.Meter;
import org.apache.kafka.common.metrics.stats.Rate;
import org.apache.kafka.common.metrics.stats.WindowedCount;
import org.apache.kafka.common.metrics.stats.WindowedSum;
import org.apache.kafka.common.utils.Time;

import java.io.Closeable;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * The metrics of one {@link io.zkgroups.rebalancer.consumer.ZkGroupConsumer}: the one place the coordinator, the offset
 * committer and the rebalance bridge report to, and the only listener of the group member's health for metrics.
 * <p>
 * Two vocabularies, over {@code Consumer.metrics()} (Kafka {@code MetricName}s, so Micrometer's
 * {@code KafkaClientMetrics} and kafka-clients exporters pick them up) and over JMX:
 * <ul>
 *   <li>Kafka's coordinator metrics, group {@value #COORDINATOR_GROUP}, tag {@code client-id}: {@code rebalance-latency-avg},
 *       {@code -max}, {@code -total}, {@code rebalance-total}, {@code rebalance-rate-per-hour},
 *       {@code last-rebalance-seconds-ago}, {@code commit-latency-avg}, {@code -max}, {@code commit-rate},
 *       {@code commit-total}, {@code assigned-partitions}; JMX {@code kafka.consumer:type=consumer-coordinator-metrics,client-id=C};</li>
 *   <li>what only a ZooKeeper group has, group {@value #ZKGROUPS_GROUP}: the session lease, lost sessions, claims
 *       waiting for a previous owner, unreadable znodes, commits per store, revoke timeouts, fenced commits;</li>
 *   <li>unless {@code zkgroups.metrics.legacy.mbeans=false}, the MBeans of the 0.8.2.2 consumer ({@link LegacyMBeans}).</li>
 * </ul>
 * Thread-safe: sensors are recorded from the poll thread and the member's event loop, gauges read from anywhere.
 */
public final class ConsumerMetrics implements Closeable {

    public static final String COORDINATOR_GROUP = "consumer-coordinator-metrics";
    public static final String ZKGROUPS_GROUP = "zkgroups-consumer-metrics";

    private final Metrics registry;
    private final Map<String, String> tags;
    private final Sensor rebalances;
    private final Sensor commits;
    /** Per {@code offsets.storage} type name: the offsets that store accepted. */
    private final Map<String, Sensor> storeCommits = new java.util.concurrent.ConcurrentHashMap<>();
    private final Sensor sessionsLost;
    private final Sensor revokeTimeouts;
    private final Sensor fencedCommits;
    private final Sensor releasedUncommitted;
    private final Sensor rewindsRestored;
    private final LegacyMBeans legacy;
    private final RebalanceTracker tracker = new RebalanceTracker();
    private final io.zkgroups.registry.Time time;
    private final Consumer<MemberHealth> healthListener = this::onHealth;
    private volatile long lastRebalanceMillis = -1;
    private volatile ZkGroupMember member;
    private volatile MemberHealth health;

    /**
     * @param legacyMBeans   whether to register the 0.8.2.2 MBeans too
     * @param fetcherMetrics the inner fetcher's metrics (what 0.8's lag and per-broker MBeans are read from)
     * @param brokers        a broker id's address, for 0.8's per-broker MBeans
     */
    public ConsumerMetrics(String clientId, String groupId, boolean legacyMBeans,
                           Supplier<Map<MetricName, ? extends Metric>> fetcherMetrics,
                           IntFunction<Optional<BrokerAddress>> brokers) {
        this(clientId, groupId, legacyMBeans, fetcherMetrics, brokers, io.zkgroups.registry.Time.SYSTEM);
    }

    /** As above, with rebalance and session-loss times read from {@code time}'s wall clock. */
    public ConsumerMetrics(String clientId, String groupId, boolean legacyMBeans,
                           Supplier<Map<MetricName, ? extends Metric>> fetcherMetrics,
                           IntFunction<Optional<BrokerAddress>> brokers, io.zkgroups.registry.Time time) {
        this.time = time;
        this.tags = Collections.singletonMap("client-id", Objects.requireNonNull(clientId, "clientId cannot be null"));
        JmxReporter jmx = new JmxReporter();
        // the registry's own metric count would share its MBean name with the fetcher's
        jmx.configure(Collections.singletonMap(JmxReporter.EXCLUDE_CONFIG, "kafka\\.consumer:type=kafka-metrics-count.*"));
        this.registry = new Metrics(new MetricConfig(), Collections.singletonList(jmx), Time.SYSTEM,
                new KafkaMetricsContext("kafka.consumer", Collections.singletonMap("client.id", clientId)));

        rebalances = registry.sensor("rebalance-latency");
        rebalances.add(coordinator("rebalance-latency-avg", "Average time of a rebalance, from a change in the group (or joining) until stable again, in ms"), new Avg());
        rebalances.add(coordinator("rebalance-latency-max", "Longest rebalance, in ms"), new Max());
        rebalances.add(coordinator("rebalance-latency-total", "Time spent rebalancing since start, in ms"), new CumulativeSum());
        rebalances.add(coordinator("rebalance-total", "Rebalances completed since start"), new CumulativeCount());
        rebalances.add(coordinator("rebalance-rate-per-hour", "Rebalances completed per hour"), new Rate(TimeUnit.HOURS, new WindowedCount()));
        registry.addMetric(coordinator("last-rebalance-seconds-ago", "Seconds since the last rebalance completed (-1: none yet)"),
                (Measurable) (config, now) -> lastRebalanceMillis < 0 ? -1 : TimeUnit.MILLISECONDS.toSeconds(now - lastRebalanceMillis));

        commits = registry.sensor("commit-latency");
        commits.add(coordinator("commit-latency-avg", "Average time of an offset commit (every store it writes), in ms"), new Avg());
        commits.add(coordinator("commit-latency-max", "Longest offset commit, in ms"), new Max());
        commits.add(new Meter(new WindowedCount(), coordinator("commit-rate", "Offset commits per second"),
                coordinator("commit-total", "Offset commits since start")));
        registry.addMetric(coordinator("assigned-partitions", "Partitions this consumer owns now"),
                (Measurable) (config, now) -> health == null ? 0 : health.owned().size());

        // 0.8.2.2's two stores are counted from the start; a store registered later from its first commit
        storeCommits.put(OffsetStores.ZOOKEEPER.name(),
                storeSensor(OffsetStores.ZOOKEEPER.name(), "ZooKeeper", " (0.8.2.2's ZooKeeperCommitsPerSec)"));
        storeCommits.put(OffsetStores.KAFKA.name(),
                storeSensor(OffsetStores.KAFKA.name(), "Kafka", " (0.8.2.2's KafkaCommitsPerSec)"));
        sessionsLost = registry.sensor("sessions-lost");
        sessionsLost.add(zkgroups("session-expired-total", "ZooKeeper sessions this consumer lost; each loss takes every partition away without a commit"), new CumulativeCount());
        revokeTimeouts = registry.sensor("revoke-timeouts");
        revokeTimeouts.add(zkgroups("revoke-timeout-total", "Revocations released without a commit because the application did not finish within zkgroups.revoke.timeout.ms"), new CumulativeCount());
        fencedCommits = registry.sensor("fenced-commits");
        fencedCommits.add(zkgroups("commit-fenced-total", "Commits refused by the ownership fence: the partition was no longer this consumer's, or its session lease had run out"), new CumulativeCount());
        releasedUncommitted = registry.sensor("released-uncommitted");
        releasedUncommitted.add(zkgroups("release-uncommitted-total", "Partitions released in a rebalance without the commit of their position, because the store (Kafka) did not answer within zkgroups.rebalance.kafka.timeout.ms; their next owner replays from the last commit"), new CumulativeSum());
        rewindsRestored = registry.sensor("rewinds-restored");
        rewindsRestored.add(zkgroups("rewind-restored-total", "Offsets of owned partitions that another writer (a 0.8.2.2 member whose session ended, an operator) wrote lower than this consumer's last commit, and that it wrote back (zkgroups.offsets.rewind.guard)"), new CumulativeCount());
        registry.addMetric(zkgroups("session-lease-remaining-ms", "Time left on the ZooKeeper session lease that backs ownership (0: run out, or not subscribed)"),
                (Measurable) (config, now) -> leaseRemainingMillis());
        registry.addMetric(zkgroups("partitions-awaiting-release", "Partitions assigned to this consumer whose previous owner still holds them"),
                (Measurable) (config, now) -> health == null ? 0 : health.awaitingRelease().size());
        registry.addMetric(zkgroups("unreadable-znodes", "Znodes this consumer needs but cannot read (offsets of owned partitions, subscribed topics): what they name is held"),
                (Measurable) (config, now) -> health == null ? 0 : health.unreadable().size());
        registry.addMetric(zkgroups("malformed-members", "Registrations of other members that cannot be read (left out of the assignment)"),
                (Measurable) (config, now) -> health == null ? 0 : health.malformedMembers().size());

        this.legacy = legacyMBeans ? new LegacyMBeans(clientId, groupId, fetcherMetrics, brokers) : null;
    }

    private MetricName coordinator(String name, String description) {
        return registry.metricName(name, COORDINATOR_GROUP, description, tags);
    }

    private MetricName zkgroups(String name, String description) {
        return registry.metricName(name, ZKGROUPS_GROUP, description, tags);
    }

    /** These metrics, as {@code Consumer.metrics()} shows them (without the registry's own metric count). */
    public Map<MetricName, ? extends Metric> metrics() {
        Map<MetricName, Metric> mine = new HashMap<>(registry.metrics());
        mine.keySet().removeIf(name -> name.group().equals("kafka-metrics-count"));
        return Collections.unmodifiableMap(mine);
    }

    // --- the member -----------------------------------------------------------------------------------------------

    /** {@code started} is this consumer's member now: its health drives the rebalance, ownership and alarm metrics. */
    public synchronized void attach(ZkGroupMember started) {
        tracker.joining(time.milliseconds());
        member = started;
        started.addHealthListener(healthListener);
    }

    /** The member has closed (its last health, owning nothing, has been seen). */
    public synchronized void detach(ZkGroupMember closed) {
        closed.removeHealthListener(healthListener);
        if (member == closed) {
            member = null;
        }
    }

    private synchronized void onHealth(MemberHealth now) {
        long nowMillis = time.milliseconds();
        RebalanceTracker.Events events = tracker.update(now, nowMillis);
        health = now;
        events.rebalanceMillis().ifPresent(millis -> {
            rebalances.record(millis, nowMillis);
            lastRebalanceMillis = nowMillis;
            if (legacy != null) {
                legacy.rebalanced(millis);
            }
        });
        if (events.sessionLost()) {
            sessionsLost.record(1, nowMillis);
        }
        if (legacy != null) {
            legacy.owned(now.owned());
        }
    }

    private long leaseRemainingMillis() {
        ZkGroupMember current = member;
        return current == null ? 0 : Math.max(0, TimeUnit.NANOSECONDS.toMillis(current.lease().remainingNanos()));
    }

    // --- commits --------------------------------------------------------------------------------------------------

    /** A commit call wrote what it had to, in {@code nanos}. */
    public void committed(long nanos) {
        commits.record(nanos / 1_000_000.0);
    }

    /**
     * The store of the {@code offsets.storage} type named {@code store} accepted the offsets of {@code partitions}
     * partitions: {@code <store>-commit-rate} and {@code -total}, and 0.8.2.2's meter for its two stores.
     */
    public void storeCommitted(String store, int partitions) {
        if (partitions == 0) {
            return;
        }
        storeCommits.computeIfAbsent(store, name -> storeSensor(name, name, "")).record(partitions);
        if (legacy != null) {
            if (store.equals(OffsetStores.ZOOKEEPER.name())) {
                legacy.zooKeeperCommitted(partitions);
            } else if (store.equals(OffsetStores.KAFKA.name())) {
                legacy.kafkaCommitted(partitions);
            }
        }
    }

    private Sensor storeSensor(String name, String label, String legacyNote) {
        Sensor sensor = registry.sensor(name + "-commits");
        // a WindowedSum meter counts the values recorded (partitions), a WindowedCount one the recordings (calls)
        sensor.add(new Meter(new WindowedSum(),
                zkgroups(name + "-commit-rate", "Partition offsets written to " + label + " per second"),
                zkgroups(name + "-commit-total", "Partition offsets written to " + label + " since start" + legacyNote)));
        return sensor;
    }

    /** The ownership fence refused a commit. */
    public void commitFenced() {
        fencedCommits.record();
    }

    /** A revocation timed out and was released without a commit. */
    public void revokeTimedOut() {
        revokeTimeouts.record();
    }

    /**
     * Kafka's reachability as the fetcher sees it: {@code unreachableSince} (empty while Kafka answers) and the number
     * of partitions it cannot fetch meanwhile.
     */
    public void kafkaReachability(Supplier<Optional<java.time.Instant>> unreachableSince, IntSupplier unfetchable) {
        registry.addMetric(zkgroups("kafka-unreachable-seconds", "Seconds since Kafka last answered this consumer's fetcher while it had partitions to fetch (0: Kafka answers); rebalances go on through ZooKeeper alone meanwhile"),
                (Measurable) (config, now) -> unreachableSince.get()
                        .map(since -> Math.max(1, TimeUnit.MILLISECONDS.toSeconds(now - since.toEpochMilli()))).orElse(0L));
        registry.addMetric(zkgroups("unfetchable-partitions", "Partitions this consumer owns but cannot fetch because Kafka does not answer"),
                (Measurable) (config, now) -> unfetchable.getAsInt());
    }

    /** {@code partitions} partitions were released without the commit of their position (the store failed). */
    public void releasedUncommitted(int partitions) {
        releasedUncommitted.record(partitions);
    }

    /** The offset of a partition it owns was written lower by someone else, and written back. */
    public void rewindRestored() {
        rewindsRestored.record();
    }

    // --- records ----------------------------------------------------------------------------------------------

    /** {@code records} go to the application: 0.8's per-topic message and byte meters. */
    public void delivered(ConsumerRecords<?, ?> records) {
        if (legacy != null && !records.isEmpty()) {
            legacy.delivered(records);
        }
    }

    /** The 0.8.2.2 MBeans, for the 0.8 API's own (its streams' queues); empty when turned off. */
    public Optional<LegacyMBeans> legacyMBeans() {
        return Optional.ofNullable(legacy);
    }

    @Override
    public void close() {
        if (legacy != null) {
            legacy.close();
        }
        registry.close();
    }
}
