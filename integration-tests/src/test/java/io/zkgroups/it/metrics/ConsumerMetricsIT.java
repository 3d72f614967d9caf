package io.zkgroups.it.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.zkgroups.embedded.EmbeddedKafka;
import io.zkgroups.it.support.KafkaOnZooKeeperExtension;
import io.zkgroups.rebalancer.consumer.ZkGroupConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A live {@link ZkGroupConsumer}'s metrics, read the way dashboards read them: over JMX in Kafka's vocabulary and under
 * the 0.8.2.2 consumer's MBean names, and through Micrometer's {@code KafkaClientMetrics} binder. A rebalance, a commit
 * to each store (dual commit) and an ownership change each move the metrics that describe them.
 */
@Timeout(120)
class ConsumerMetricsIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final MBeanServer JMX = ManagementFactory.getPlatformMBeanServer();

    @RegisterExtension
    static final KafkaOnZooKeeperExtension servers = new KafkaOnZooKeeperExtension();

    private static Properties props(String group, String clientId) {
        Properties p = new Properties();
        p.setProperty("zookeeper.connect", servers.connectString());
        p.setProperty("bootstrap.servers", servers.broker().bootstrapServers());
        p.setProperty("group.id", group);
        p.setProperty("client.id", clientId);
        p.setProperty("auto.offset.reset", "smallest");
        p.setProperty("auto.commit.enable", "false");
        p.setProperty("offsets.storage", "kafka");
        p.setProperty("dual.commit.enabled", "true");
        p.setProperty("max.poll.records", "1");
        return p;
    }

    private static void produce(String topic, int partitions, int perPartition) {
        List<EmbeddedKafka.Record> records = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            for (int i = 0; i < perPartition; i++) {
                records.add(EmbeddedKafka.Record.to(p, "k" + i, "v" + i));
            }
        }
        servers.broker().produce(topic, records.toArray(EmbeddedKafka.Record[]::new));
    }

    @Test
    void rebalancesCommitsAndOwnershipMoveBothVocabulariesAndMicrometerSeesThem() throws Exception {
        String group = "metrics";
        servers.broker().createTopic("ma", 2);
        servers.broker().createTopic("mb", 1);
        produce("ma", 2, 5);
        produce("mb", 1, 5);
        ZkGroupConsumer<String, String> a = new ZkGroupConsumer<>(props(group, "metrics-a"), new StringDeserializer(),
                new StringDeserializer());
        try {
            a.subscribe(List.of("ma", "mb"));
            int[] consumed = {0};
            pollUntil(() -> (consumed[0] += a.poll(Duration.ofMillis(50)).count()) >= 15);

            // the first rebalance, and what it gave
            assertThat(coordinator("metrics-a", "rebalance-total")).isEqualTo(1.0);
            assertThat(coordinator("metrics-a", "assigned-partitions")).isEqualTo(3.0);
            assertThat(coordinator("metrics-a", "last-rebalance-seconds-ago")).isBetween(0.0, 60.0);
            assertThat(legacy("RebalanceRateAndTime,clientId=metrics-a", "Count")).isEqualTo(1L);
            assertThat((Double) legacy("RebalanceRateAndTime,clientId=metrics-a", "Max")).isPositive()
                    .isEqualTo(coordinator("metrics-a", "rebalance-latency-max"));
            assertThat(legacy("OwnedPartitionsCount,clientId=metrics-a,groupId=metrics", "Value")).isEqualTo(3);
            assertThat(ownedPerTopic("metrics-a")).isEqualTo(Map.of("ma", 2, "mb", 1));
            assertThat(zkgroups("metrics-a", "session-lease-remaining-ms")).isPositive();
            assertThat(zkgroups("metrics-a", "unreadable-znodes")).isZero();

            // one commit call, written to Kafka and to ZooKeeper (dual commit): 3 partitions each
            assertThat(coordinator("metrics-a", "commit-total")).isZero();
            a.commitSync();
            assertThat(coordinator("metrics-a", "commit-total")).isEqualTo(1.0);
            assertThat(zkgroups("metrics-a", "zookeeper-commit-total")).isEqualTo(3.0);
            assertThat(zkgroups("metrics-a", "kafka-commit-total")).isEqualTo(3.0);
            assertThat(legacy("ZooKeeperCommitsPerSec,clientId=metrics-a", "Count")).isEqualTo(3L);
            assertThat(legacy("KafkaCommitsPerSec,clientId=metrics-a", "Count")).isEqualTo(3L);
            assertThat(legacy("KafkaCommitsPerSec,clientId=metrics-a", "EventType")).isEqualTo("commits");

            assertThat(lagGauges("metrics-a")).containsExactly("ma-0", "ma-1", "mb-0");

            // a backlog the fetcher has seen: 0.8's MaxLag
            produce("ma", 2, 50);
            pollUntil(() -> {
                a.poll(Duration.ofMillis(50));
                return ((Number) legacyFetcher("metrics-a")).longValue() > 0;
            });

            // a second member: a rebalance that takes partitions away from the first
            ZkGroupConsumer<String, String> b = new ZkGroupConsumer<>(props(group, "metrics-b"), new StringDeserializer(),
                    new StringDeserializer());
            try {
                b.subscribe(List.of("ma", "mb"));
                pollUntil(() -> a.assignment().size() + b.assignment().size() == 3 && !b.assignment().isEmpty()
                        && a.groupHealth().orElseThrow().isStable() && b.groupHealth().orElseThrow().isStable(), a, b);
                int mine = a.assignment().size();
                assertThat(mine).isBetween(1, 2);
                assertThat(coordinator("metrics-a", "rebalance-total")).isEqualTo(2.0);
                assertThat(legacy("RebalanceRateAndTime,clientId=metrics-a", "Count")).isEqualTo(2L);
                assertThat(coordinator("metrics-a", "assigned-partitions")).isEqualTo((double) mine);
                assertThat(legacy("OwnedPartitionsCount,clientId=metrics-a,groupId=metrics", "Value")).isEqualTo(mine);
                Map<String, Integer> byTopic = new TreeMap<>();
                a.assignment().forEach(tp -> byTopic.merge(tp.topic(), 1, Integer::sum));
                assertThat(ownedPerTopic("metrics-a")).as("a topic gauge exists exactly while a partition of it is owned")
                        .isEqualTo(byTopic);
                assertThat(lagGauges("metrics-a")).as("a ConsumerLag gauge exists exactly while its partition is owned")
                        .isEqualTo(new TreeSet<>(a.assignment().stream().map(tp -> tp.topic() + "-" + tp.partition()).toList()));

                // Micrometer binds them like a KafkaConsumer's
                SimpleMeterRegistry registry = new SimpleMeterRegistry();
                try (KafkaClientMetrics binder = new KafkaClientMetrics(a)) {
                    binder.bindTo(registry);
                    List<String> names = registry.getMeters().stream().map(m -> m.getId().getName()).sorted().toList();
                    FunctionCounter rebalances = registry.find("kafka.consumer.coordinator.rebalance.total")
                            .tag("client.id", "metrics-a").functionCounter();
                    assertThat(rebalances).as("meters: " + names).isNotNull();
                    assertThat(rebalances.count()).isEqualTo(2.0);
                    Gauge assigned = registry.find("kafka.consumer.coordinator.assigned.partitions").gauge();
                    assertThat(assigned).as("meters: " + names).isNotNull();
                    assertThat(assigned.value()).isEqualTo(mine);
                    Meter zkCommits = registry.find("kafka.zkgroups.consumer.zookeeper.commit.total").meter();
                    assertThat(zkCommits).as("meters: " + names).isInstanceOf(FunctionCounter.class);
                    assertThat(((FunctionCounter) zkCommits).count()).isEqualTo(3.0);
                    assertThat(registry.find("kafka.consumer.fetch.manager.records.lag.max").gauge())
                            .as("the fetcher's own metrics are still there: " + names).isNotNull();
                } finally {
                    registry.close();
                }
            } finally {
                b.close();
            }
        } finally {
            a.close();
        }
        assertThat(JMX.queryNames(new ObjectName("kafka.consumer:clientId=metrics-a,*"), null))
                .as("0.8 MBeans go with the consumer").isEmpty();
        assertThat(JMX.queryNames(new ObjectName("kafka.consumer:type=consumer-coordinator-metrics,client-id=metrics-a"), null))
                .isEmpty();
    }

    @Test
    void theLegacyMBeansCanBeTurnedOff() throws Exception {
        servers.broker().createTopic("mc", 1);
        Properties p = props("metrics-off", "metrics-off");
        p.setProperty("zkgroups.metrics.legacy.mbeans", "false");
        try (ZkGroupConsumer<String, String> c = new ZkGroupConsumer<>(p, new StringDeserializer(), new StringDeserializer())) {
            c.subscribe(List.of("mc"));
            pollUntil(() -> {
                c.poll(Duration.ofMillis(50));
                return c.assignment().equals(Set.of(new TopicPartition("mc", 0)));
            });
            assertThat(coordinator("metrics-off", "assigned-partitions")).isEqualTo(1.0);
            assertThat(JMX.isRegistered(new ObjectName("kafka.consumer:type=kafka-metrics-count")))
                    .as("no untagged metric-count MBean shared by every consumer of the JVM").isFalse();
            assertThat(JMX.queryNames(new ObjectName("kafka.consumer:type=ZookeeperConsumerConnector,*"), null))
                    .noneMatch(n -> "metrics-off".equals(n.getKeyProperty("clientId")));
            assertThat(JMX.queryNames(new ObjectName("kafka.consumer:type=ConsumerFetcherManager,*"), null))
                    .noneMatch(n -> "metrics-off".equals(n.getKeyProperty("clientId")));
            assertThat(JMX.queryNames(new ObjectName("kafka.server:*"), null))
                    .noneMatch(n -> "metrics-off".equals(n.getKeyProperty("clientId")));
            assertThat(JMX.queryNames(new ObjectName("kafka.consumer:type=ConsumerTopicMetrics,*"), null))
                    .noneMatch(n -> "metrics-off".equals(n.getKeyProperty("clientId")));
        }
    }

    /** As two 0.8.2.2 connectors with one client.id shared their Yammer metrics: one MBean each, meters counting both. */
    @Test
    void twoConsumersWithOneClientIdShareTheLegacyMBeans() throws Exception {
        servers.broker().createTopic("md", 1);
        servers.broker().createTopic("me", 1);
        produce("md", 1, 3);
        produce("me", 1, 4);
        Set<ObjectName> before;
        ObjectName messages = new ObjectName("kafka.consumer:type=ConsumerTopicMetrics,name=MessagesPerSec,clientId=metrics-shared");
        ObjectName maxLag = new ObjectName("kafka.consumer:type=ConsumerFetcherManager,name=MaxLag,clientId=metrics-shared");
        try (ZkGroupConsumer<String, String> d = new ZkGroupConsumer<>(props("metrics-d", "metrics-shared"),
                new StringDeserializer(), new StringDeserializer())) {
            d.subscribe(List.of("md"));
            int[] consumed = {0};
            pollUntil(() -> (consumed[0] += d.poll(Duration.ofMillis(50)).count()) >= 3);
            before = JMX.queryNames(new ObjectName("kafka.*:clientId=metrics-shared,*"), null);
            try (ZkGroupConsumer<String, String> e = new ZkGroupConsumer<>(props("metrics-e", "metrics-shared"),
                    new StringDeserializer(), new StringDeserializer())) {
                e.subscribe(List.of("me"));
                int[] more = {0};
                pollUntil(() -> (more[0] += e.poll(Duration.ofMillis(50)).count()) >= 4);
                assertThat(JMX.getAttribute(messages, "Count")).as("one meter, marked by both").isEqualTo(7L);
                Set<ObjectName> both = JMX.queryNames(new ObjectName("kafka.*:clientId=metrics-shared,*"), null);
                assertThat(both).containsAll(before);
                assertThat(both).as("the second consumer's own topic has its names")
                        .anyMatch(n -> "me".equals(n.getKeyProperty("topic")));
            }
            assertThat(JMX.isRegistered(messages)).as("still held by the first consumer").isTrue();
            assertThat(JMX.isRegistered(maxLag)).isTrue();
        }
        assertThat(JMX.queryNames(new ObjectName("kafka.*:clientId=metrics-shared,*"), null)).isEmpty();
    }

    /** Calls {@code done} until it is true, polling {@code consumers} in between (a revocation waits for a poll). */
    private static void pollUntil(Callable<Boolean> done, ZkGroupConsumer<?, ?>... consumers) {
        await().atMost(WAIT).pollInterval(Duration.ofMillis(1)).until(() -> {
            if (done.call()) {
                return true;
            }
            for (ZkGroupConsumer<?, ?> c : consumers) {
                c.poll(Duration.ofMillis(20));
            }
            return false;
        });
    }

    private static double coordinator(String clientId, String attribute) throws Exception {
        return (Double) JMX.getAttribute(new ObjectName("kafka.consumer:type=consumer-coordinator-metrics,client-id="
                + clientId), attribute);
    }

    private static double zkgroups(String clientId, String attribute) throws Exception {
        return (Double) JMX.getAttribute(new ObjectName("kafka.consumer:type=zkgroups-consumer-metrics,client-id="
                + clientId), attribute);
    }

    private static Object legacy(String nameAndKeys, String attribute) throws Exception {
        return JMX.getAttribute(new ObjectName("kafka.consumer:type=ZookeeperConsumerConnector,name=" + nameAndKeys), attribute);
    }

    private static Object legacyFetcher(String clientId) throws Exception {
        return JMX.getAttribute(new ObjectName("kafka.consumer:type=ConsumerFetcherManager,name=MaxLag,clientId=" + clientId),
                "Value");
    }

    /** The partitions ({@code topic-partition}) with a 0.8 {@code ConsumerLag} MBean of {@code clientId}. */
    private static Set<String> lagGauges(String clientId) throws Exception {
        Set<String> partitions = new TreeSet<>();
        for (ObjectName name : JMX.queryNames(new ObjectName(
                "kafka.server:type=FetcherLagMetrics,name=ConsumerLag,clientId=" + clientId + ",*"), null)) {
            partitions.add(name.getKeyProperty("topic") + "-" + name.getKeyProperty("partition"));
        }
        return partitions;
    }

    /** The per-topic {@code OwnedPartitionsCount} MBeans of {@code clientId}, by topic. */
    private static Map<String, Integer> ownedPerTopic(String clientId) throws Exception {
        Map<String, Integer> byTopic = new TreeMap<>();
        Set<ObjectName> names = new TreeSet<>(JMX.queryNames(new ObjectName(
                "kafka.consumer:type=ZookeeperConsumerConnector,name=OwnedPartitionsCount,clientId=" + clientId + ",*"), null));
        for (ObjectName name : names) {
            if (name.getKeyProperty("topic") != null) {
                byTopic.put(name.getKeyProperty("topic"), (Integer) JMX.getAttribute(name, "Value"));
            }
        }
        return byTopic;
    }
}
