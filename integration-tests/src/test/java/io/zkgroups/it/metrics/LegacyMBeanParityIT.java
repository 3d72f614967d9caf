package io.zkgroups.it.metrics;

import io.zkgroups.embedded.EmbeddedKafka;
import io.zkgroups.it.support.KafkaOnZooKeeperExtension;
import io.zkgroups.it.support.LegacyConsumerProcess;
import io.zkgroups.rebalancer.consumer.ZkGroupConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import javax.management.MBeanAttributeInfo;
import javax.management.ObjectName;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A real kafka_2.10:0.8.2.2 consumer, a 0.8 program on the kafka08-bridge (both in child JVMs) and a
 * {@link ZkGroupConsumer} read one topic, each in its own group with {@code client.id=parity}; their MBeans are listed
 * the way a JMX agent lists them (the children's through the attach API) and compared name by name, attribute by
 * attribute, for every MBean family dashboards read (docs/monitoring.md). A jmx_exporter rule set written for 0.8.2.2
 * makes the same series of all three. The values move as the records flow: lag falls to 0 once the backlog is read,
 * rates rise above 0.
 * <p>
 * Named exceptions (docs/monitoring.md): {@code FetchRequestAndResponseMetrics} is not registered by zkgroups, and a
 * {@code ZkGroupConsumer} has no streams, so no {@code FetchQueueSize} (the bridge has both streams and the gauge).
 */
@Timeout(300)
class LegacyMBeanParityIT {

    private static final Duration WAIT = LegacyConsumerProcess.DEFAULT_TIMEOUT;
    private static final String TOPIC = "parity";
    private static final String CLIENT = "parity";
    private static final int PARTITIONS = 2;
    private static final int PER_PARTITION = 200;
    private static final int BACKLOG = PARTITIONS * PER_PARTITION;

    /** The MBean families compared, as domain:type,name. */
    private static final Set<String> FAMILIES = Set.of(
            "kafka.server:FetcherLagMetrics,ConsumerLag",
            "kafka.consumer:ConsumerTopicMetrics,MessagesPerSec",
            "kafka.consumer:ConsumerTopicMetrics,BytesPerSec",
            "kafka.consumer:ConsumerFetcherManager,MaxLag",
            "kafka.consumer:ConsumerFetcherManager,MinFetchRate",
            "kafka.server:FetcherStats,BytesPerSec",
            "kafka.server:FetcherStats,RequestsPerSec",
            "kafka.consumer:ZookeeperConsumerConnector,RebalanceRateAndTime",
            "kafka.consumer:ZookeeperConsumerConnector,ZooKeeperCommitsPerSec",
            "kafka.consumer:ZookeeperConsumerConnector,KafkaCommitsPerSec",
            "kafka.consumer:ZookeeperConsumerConnector,OwnedPartitionsCount",
            "kafka.consumer:ZookeeperConsumerConnector,FetchQueueSize",
            "kafka.common:AppInfo,Version");
    /** Listed by 0.8.2.2, left out by zkgroups for want of an honest source (docs/monitoring.md). */
    private static final Set<String> NOT_REGISTERED = Set.of(
            "kafka.consumer:FetchRequestAndResponseMetrics,FetchRequestRateAndTimeMs",
            "kafka.consumer:FetchRequestAndResponseMetrics,FetchResponseSize");
    private static final String STREAMS_ONLY = "kafka.consumer:ZookeeperConsumerConnector,FetchQueueSize";

    @RegisterExtension
    static final KafkaOnZooKeeperExtension servers = new KafkaOnZooKeeperExtension();

    @Test
    void aSwappedConsumerShowsEveryDashboardMBeanOfA0822ConsumerAndTheRulesMakeTheSameSeries() throws Exception {
        servers.broker().createTopic(TOPIC, PARTITIONS);
        produce();
        Properties p = new Properties();
        p.setProperty("zookeeper.connect", servers.connectString());
        p.setProperty("group.id", "parity-zk");
        p.setProperty("client.id", CLIENT);
        p.setProperty("auto.offset.reset", "smallest");
        p.setProperty("max.poll.records", "10");
        try (LegacyConsumerProcess real = legacy("real", false);
             LegacyConsumerProcess bridge = legacy("bridge", true);
             ZkGroupConsumer<String, String> zk = new ZkGroupConsumer<>(p, new StringDeserializer(), new StringDeserializer());
             MBeanListing local = MBeanListing.local()) {
            zk.subscribe(List.of(TOPIC));
            // the backlog, seen by the fetcher before it is read: ConsumerLag above 0
            await().atMost(WAIT).until(() -> {
                zk.poll(Duration.ofMillis(50));
                return lag(local, "0") + lag(local, "1") > 0;
            });
            int[] consumed = {0};
            await().atMost(WAIT).until(() -> (consumed[0] += zk.poll(Duration.ofMillis(50)).count()) >= BACKLOG - 10);
            real.awaitReady(WAIT);
            bridge.awaitReady(WAIT);
            real.awaitMessages(BACKLOG, WAIT);
            bridge.awaitMessages(BACKLOG, WAIT);

            try (MBeanListing realJmx = MBeanListing.attach(real.pid());
                 MBeanListing bridgeJmx = MBeanListing.attach(bridge.pid())) {
                Map<String, MBeanListing> consumers = Map.of("real", realJmx, "bridge", bridgeJmx, "zk", local);
                // values move: lag 0 after the backlog, message and byte counts of the backlog, rates above 0
                for (Map.Entry<String, MBeanListing> c : consumers.entrySet()) {
                    MBeanListing jmx = c.getValue();
                    await(c.getKey() + ": lag 0, rates above 0").atMost(WAIT).untilAsserted(() -> {
                        zk.poll(Duration.ofMillis(10));
                        assertThat(List.of(lag(jmx, "0"), lag(jmx, "1"))).as(c.getKey() + ": ConsumerLag of partitions"
                                + " 0 and 1 (-1: not registered)").containsOnly(0L);
                        assertThat(number(jmx, "kafka.consumer:type=ConsumerTopicMetrics,name=MessagesPerSec,clientId="
                                + CLIENT + ",topic=" + TOPIC, "OneMinuteRate")).as(c.getKey() + ": MessagesPerSec").isPositive();
                        assertThat(number(jmx, "kafka.consumer:type=ConsumerFetcherManager,name=MinFetchRate,clientId="
                                + CLIENT, "Value")).as(c.getKey() + ": MinFetchRate").isPositive();
                    });
                    assertThat(number(jmx, "kafka.consumer:type=ConsumerTopicMetrics,name=MessagesPerSec,clientId=" + CLIENT, "Count"))
                            .as(c.getKey()).isEqualTo(BACKLOG);
                    assertThat(number(jmx, "kafka.consumer:type=ConsumerTopicMetrics,name=BytesPerSec,clientId=" + CLIENT, "Count"))
                            .as(c.getKey() + ": bytes as 0.8.2.2 counts them")
                            .isEqualTo(number(realJmx, "kafka.consumer:type=ConsumerTopicMetrics,name=BytesPerSec,clientId=" + CLIENT, "Count"));
                    assertThat(number(jmx, "kafka.consumer:type=ZookeeperConsumerConnector,name=OwnedPartitionsCount,clientId="
                            + CLIENT + ",groupId=parity-" + c.getKey(), "Value")).as(c.getKey()).isEqualTo(PARTITIONS);
                }

                // names, attributes and their types
                Map<String, Map<String, String>> realBeans = described(realJmx, "parity-real");
                Set<String> realFamilies = new TreeSet<>();
                realBeans.keySet().forEach(n -> realFamilies.add(family(n)));
                assertThat(realFamilies).as("the 0.8.2.2 consumer lists every family compared")
                        .containsAll(FAMILIES).containsAll(NOT_REGISTERED);
                Map<String, Map<String, String>> expected = new TreeMap<>(realBeans);
                expected.keySet().removeIf(n -> !FAMILIES.contains(family(n)));
                Map<String, Map<String, String>> expectedWithoutStreams = new TreeMap<>(expected);
                expectedWithoutStreams.keySet().removeIf(n -> family(n).equals(STREAMS_ONLY));

                Map<String, Map<String, String>> bridgeBeans = described(bridgeJmx, "parity-bridge");
                Map<String, Map<String, String>> zkBeans = described(local, "parity-zk");
                assertThat(only(bridgeBeans, FAMILIES)).as("bridge vs 0.8.2.2").isEqualTo(expected);
                assertThat(only(zkBeans, FAMILIES)).as("ZkGroupConsumer vs 0.8.2.2").isEqualTo(expectedWithoutStreams);
                assertThat(only(bridgeBeans, NOT_REGISTERED)).isEmpty();
                assertThat(only(zkBeans, NOT_REGISTERED)).isEmpty();

                // a jmx_exporter rule set written for 0.8.2.2 makes the same series of all three
                Set<String> realSeries = series(realJmx, "parity-real");
                assertThat(realSeries).as("the rules match the 0.8.2.2 consumer").hasSizeGreaterThan(20);
                assertThat(series(bridgeJmx, "parity-bridge")).isEqualTo(realSeries);
                Set<String> withoutStreams = new TreeSet<>(realSeries);
                withoutStreams.removeIf(s -> s.startsWith("kafka_consumer_fetch_queue_size"));
                assertThat(series(local, "parity-zk")).isEqualTo(withoutStreams);
            }
        }
    }

    private static LegacyConsumerProcess legacy(String name, boolean onBridge) {
        LegacyConsumerProcess.Builder b = LegacyConsumerProcess.builder(name)
                .zookeeperConnect(servers.connectString()).groupId("parity-" + name).consumerId(name)
                .property("client.id", CLIENT).property("auto.offset.reset", "smallest")
                .topic(TOPIC, 2);
        return (onBridge ? b.onBridge() : b).start();
    }

    private static void produce() {
        List<EmbeddedKafka.Record> records = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            for (int i = 0; i < PER_PARTITION; i++) {
                records.add(EmbeddedKafka.Record.to(p, "k" + i, "value-" + i));
            }
        }
        servers.broker().produce(TOPIC, records.toArray(EmbeddedKafka.Record[]::new));
    }

    private static long lag(MBeanListing jmx, String partition) throws Exception {
        ObjectName name = new ObjectName("kafka.server:type=FetcherLagMetrics,name=ConsumerLag,clientId=" + CLIENT
                + ",topic=" + TOPIC + ",partition=" + partition);
        return jmx.isRegistered(name) ? ((Number) jmx.value(name, "Value")).longValue() : -1;
    }

    private static double number(MBeanListing jmx, String name, String attribute) throws Exception {
        return ((Number) jmx.value(new ObjectName(name), attribute)).doubleValue();
    }

    /** {@code domain:type,name} of an MBean named as {@link #described} names it. */
    private static String family(String name) {
        try {
            ObjectName n = new ObjectName(name);
            return n.getDomain() + ":" + n.getKeyProperty("type") + "," + n.getKeyProperty("name");
        } catch (Exception e) {
            throw new IllegalArgumentException(name, e);
        }
    }

    private static Map<String, Map<String, String>> only(Map<String, Map<String, String>> beans, Set<String> families) {
        Map<String, Map<String, String>> result = new TreeMap<>(beans);
        result.keySet().removeIf(n -> !families.contains(family(n)));
        return result;
    }

    /**
     * The {@code kafka*} MBeans of client {@link #CLIENT} (and AppInfo), each as its name in registration order (the
     * group id written G) with its attributes' types.
     */
    private static Map<String, Map<String, String>> described(MBeanListing jmx, String groupId) throws Exception {
        Map<String, Map<String, String>> result = new TreeMap<>();
        for (ObjectName name : relevant(jmx)) {
            Map<String, String> attributes = new TreeMap<>();
            for (MBeanAttributeInfo info : jmx.attributeInfo(name)) {
                attributes.put(info.getName(), info.getType());
            }
            result.put(ordered(name).replace("groupId=" + groupId, "groupId=G"), attributes);
        }
        return result;
    }

    private static Set<String> series(MBeanListing jmx, String groupId) throws Exception {
        Map<ObjectName, Map<String, Object>> beans = new TreeMap<>();
        for (ObjectName name : relevant(jmx)) {
            beans.put(name, jmx.values(name));
        }
        Set<String> result = new TreeSet<>();
        for (String s : JmxExporterRules.series(JmxExporterRules.KAFKA_082_CONSUMER, beans)) {
            result.add(s.replace("\"" + groupId + "\"", "\"G\""));
        }
        return result;
    }

    private static Set<ObjectName> relevant(MBeanListing jmx) throws Exception {
        Predicate<ObjectName> mine = n -> CLIENT.equals(n.getKeyProperty("clientId")) || n.getDomain().equals("kafka.common");
        Set<ObjectName> result = new TreeSet<>();
        for (ObjectName n : jmx.names()) {
            if (mine.test(n)) {
                result.add(n);
            }
        }
        return result;
    }

    /** The name with its keys in the order they were registered with (what jmx_exporter matches). */
    private static String ordered(ObjectName name) {
        return name.getDomain() + ":" + name.getKeyPropertyListString();
    }
}
