package io.zkgroups.rebalancer.metrics.legacy;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.management.InstanceAlreadyExistsException;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import java.io.Closeable;
import java.lang.management.ManagementFactory;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The MBeans that kafka_2.10:0.8.2.2's high-level consumer registers and that dashboards and alerts are built on, under
 * their exact names (as listed from a live 0.8.2.2 consumer), so they keep working after the swap:
 * <pre>
 * kafka.consumer:type=ZookeeperConsumerConnector,name=RebalanceRateAndTime,clientId=C       timer  (ms, events "calls")
 * kafka.consumer:type=ZookeeperConsumerConnector,name=ZooKeeperCommitsPerSec,clientId=C     meter  ("commits": partitions written)
 * kafka.consumer:type=ZookeeperConsumerConnector,name=KafkaCommitsPerSec,clientId=C         meter  ("commits": partitions written)
 * kafka.consumer:type=ZookeeperConsumerConnector,name=OwnedPartitionsCount,clientId=C,groupId=G          gauge
 * kafka.consumer:type=ZookeeperConsumerConnector,name=OwnedPartitionsCount,clientId=C,groupId=G,topic=T  gauge, per owned topic
 * kafka.consumer:type=ConsumerFetcherManager,name=MaxLag,clientId=C                          gauge
 * </pre>
 * Like 0.8.2.2, the per-topic gauge exists while the consumer owns partitions of the topic. A name already registered
 * in this JVM (two consumers with one client id) is left to its first owner, with a warning.
 */
public final class LegacyMBeans implements Closeable {

    private static final Logger LOG = LoggerFactory.getLogger(LegacyMBeans.class);
    private static final String CONNECTOR = "kafka.consumer:type=ZookeeperConsumerConnector";

    private final MBeanServer server;
    private final String clientId;
    private final String groupId;
    private final LegacyTimer rebalances = new LegacyTimer("calls");
    private final LegacyMeter zooKeeperCommits = new LegacyMeter("commits");
    private final LegacyMeter kafkaCommits = new LegacyMeter("commits");
    private final Set<ObjectName> registered = new HashSet<>();
    private final Map<String, ObjectName> topicGauges = new TreeMap<>();
    private volatile Map<String, Integer> ownedByTopic = Map.of();

    /** Registers the MBeans; {@code maxLag} is read when JMX asks for {@code MaxLag}. */
    public LegacyMBeans(String clientId, String groupId, Supplier<Long> maxLag) {
        this.server = ManagementFactory.getPlatformMBeanServer();
        this.clientId = clientId;
        this.groupId = groupId;
        register(CONNECTOR + ",name=RebalanceRateAndTime,clientId=" + clientId, rebalances);
        register(CONNECTOR + ",name=ZooKeeperCommitsPerSec,clientId=" + clientId, zooKeeperCommits);
        register(CONNECTOR + ",name=KafkaCommitsPerSec,clientId=" + clientId, kafkaCommits);
        register(ownedName(null), new LegacyGauge(() -> ownedByTopic.values().stream().mapToInt(Integer::intValue).sum()));
        register("kafka.consumer:type=ConsumerFetcherManager,name=MaxLag,clientId=" + clientId, new LegacyGauge(maxLag));
    }

    /** A rebalance completed after {@code millis}. */
    public void rebalanced(double millis) {
        rebalances.update(millis);
    }

    /** {@code partitions} offsets were written to ZooKeeper. */
    public void zooKeeperCommitted(int partitions) {
        zooKeeperCommits.mark(partitions);
    }

    /** {@code partitions} offsets were written to Kafka. */
    public void kafkaCommitted(int partitions) {
        kafkaCommits.mark(partitions);
    }

    /** The consumer owns {@code byTopic} now: per-topic gauges come and go with the topics. */
    public synchronized void owned(Map<String, Integer> byTopic) {
        ownedByTopic = Map.copyOf(byTopic);
        for (String topic : Set.copyOf(topicGauges.keySet())) {
            if (!byTopic.containsKey(topic)) {
                unregister(topicGauges.remove(topic));
            }
        }
        for (String topic : byTopic.keySet()) {
            if (!topicGauges.containsKey(topic)) {
                ObjectName name = register(ownedName(topic), new LegacyGauge(() -> ownedByTopic.getOrDefault(topic, 0)));
                if (name != null) {
                    topicGauges.put(topic, name);
                }
            }
        }
    }

    private String ownedName(String topic) {
        return CONNECTOR + ",name=OwnedPartitionsCount,clientId=" + clientId + ",groupId=" + groupId
                + (topic == null ? "" : ",topic=" + topic);
    }

    /** Registers {@code mbean}; returns its name, or null when the name is taken or invalid (logged). */
    private synchronized ObjectName register(String name, Object mbean) {
        try {
            ObjectName objectName = new ObjectName(name);
            server.registerMBean(mbean, objectName);
            registered.add(objectName);
            return objectName;
        } catch (InstanceAlreadyExistsException e) {
            LOG.warn("MBean {} is already registered (another consumer with client.id {} in this JVM): not replaced",
                    name, clientId);
        } catch (MalformedObjectNameException e) {
            LOG.warn("cannot register MBean '{}': {}", name, e.getMessage());
        } catch (Exception e) {
            LOG.warn("cannot register MBean {}: {}", name, e.toString());
        }
        return null;
    }

    private synchronized void unregister(ObjectName name) {
        if (name != null && registered.remove(name)) {
            try {
                server.unregisterMBean(name);
            } catch (Exception e) {
                LOG.debug("MBean {} was already gone: {}", name, e.toString());
            }
        }
    }

    /** Unregisters every MBean this instance registered. */
    @Override
    public synchronized void close() {
        for (ObjectName name : Set.copyOf(registered)) {
            unregister(name);
        }
        topicGauges.clear();
    }
}
