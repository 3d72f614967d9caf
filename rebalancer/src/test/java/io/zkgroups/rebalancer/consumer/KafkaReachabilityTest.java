package io.zkgroups.rebalancer.consumer;

import io.zkgroups.registry.Time;
import io.zkgroups.registry.store.Unreadable;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/** Kafka's reachability from the fetcher's own metrics: no answer while fetching is an outage, the next one ends it. */
class KafkaReachabilityTest {

    private static final TopicPartition T0 = new TopicPartition("t", 0);
    private static final TopicPartition T1 = new TopicPartition("t", 1);

    /** A metric of the fetcher whose value the test sets. */
    private static final class Value implements Metric {
        private final MetricName name;
        volatile double value;

        Value(String name) {
            this.name = new MetricName(name, "consumer-metrics", "", Collections.emptyMap());
        }

        @Override
        public MetricName metricName() {
            return name;
        }

        @Override
        public Object metricValue() {
            return value;
        }
    }

    private final Value responses = new Value("response-total");
    private final Value connections = new Value("connection-count");
    private final Map<MetricName, Metric> metrics = new HashMap<>();

    KafkaReachabilityTest() {
        metrics.put(responses.metricName(), responses);
        metrics.put(connections.metricName(), connections);
    }

    private static SortedSet<TopicPartition> fetched(TopicPartition... partitions) {
        SortedSet<TopicPartition> set = new TreeSet<>(KafkaPartitions.ORDER);
        Collections.addAll(set, partitions);
        return set;
    }

    @Test
    void noAnswerWhileFetchingIsAnOutageSinceTheLastAnswerAndTheNextAnswerEndsIt() {
        KafkaReachability reachability = new KafkaReachability("g_m", () -> metrics, Duration.ZERO, Time.SYSTEM);
        responses.value = 3;
        assertThat(reachability.observe(fetched(T0, T1))).as("answered").isFalse();
        Instant before = Instant.now();

        assertThat(reachability.observe(fetched(T0, T1))).as("silent").isTrue();
        KafkaReachability.Snapshot down = reachability.snapshot();
        assertThat(down.unreachableSince()).hasValueSatisfying(since -> assertThat(since).isBeforeOrEqualTo(Instant.now()));
        assertThat(down.cause()).startsWith("no connection to any broker since ");
        assertThat(down.unfetchable()).containsExactly(T0, T1);
        assertThat(down.alarms()).extracting(Unreadable::path).containsExactly("kafka:t-0", "kafka:t-1");
        assertThat(reachability.observe(fetched(T0, T1))).as("the same outage").isFalse();
        assertThat(reachability.snapshot().unreachableSince()).isEqualTo(down.unreachableSince());

        connections.value = 1;
        assertThat(reachability.observe(fetched(T0))).as("connected now, one partition less").isTrue();
        assertThat(reachability.snapshot().cause()).startsWith("connected, but no broker answered since ");
        assertThat(reachability.snapshot().unreachableSince()).isEqualTo(down.unreachableSince());

        responses.value = 4;
        assertThat(reachability.observe(fetched(T0))).as("answered again").isTrue();
        assertThat(reachability.snapshot().unreachableSince()).isEmpty();
        assertThat(reachability.snapshot().alarms()).isEmpty();
        assertThat(before).isNotNull();
    }

    @Test
    void nothingToFetchIsNoOutage() {
        KafkaReachability reachability = new KafkaReachability("g_m", () -> metrics, Duration.ZERO, Time.SYSTEM);
        assertThat(reachability.observe(fetched())).isFalse();
        assertThat(reachability.observe(fetched())).isFalse();
        assertThat(reachability.snapshot().unreachableSince()).isEmpty();
    }

    @Test
    void aSilenceShorterThanTheBoundIsNoOutage() {
        KafkaReachability reachability = new KafkaReachability("g_m", () -> metrics, Duration.ofMinutes(5), Time.SYSTEM);
        assertThat(reachability.observe(fetched(T0))).isFalse();
        assertThat(reachability.observe(fetched(T0))).isFalse();
        assertThat(reachability.snapshot().unreachableSince()).isEmpty();
    }
}
