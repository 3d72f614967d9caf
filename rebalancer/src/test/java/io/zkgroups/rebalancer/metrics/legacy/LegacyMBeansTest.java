package io.zkgroups.rebalancer.metrics.legacy;

import io.zkgroups.registry.model.TopicAndPartition;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/** The per-partition and per-topic 0.8.2.2 MBeans come and go with what the consumer owns and reads. */
class LegacyMBeansTest {

    private static final MBeanServer JMX = ManagementFactory.getPlatformMBeanServer();

    private final LegacyMBeans mbeans = new LegacyMBeans("legacy-test", "g", Map::of, id -> Optional.empty());

    @AfterEach
    void close() {
        mbeans.close();
    }

    private static Set<String> names(String pattern) throws Exception {
        Set<String> names = new TreeSet<>();
        JMX.queryNames(new ObjectName(pattern), null).forEach(n -> names.add(n.getKeyProperty("topic") + "/" + n.getKeyProperty("partition")));
        return names;
    }

    @Test
    void lagGaugesFollowTheOwnedPartitions() throws Exception {
        String lag = "kafka.server:type=FetcherLagMetrics,name=ConsumerLag,clientId=legacy-test,*";
        mbeans.owned(Set.of(TopicAndPartition.of("a", 0), TopicAndPartition.of("a", 1), TopicAndPartition.of("b", 0)));
        assertThat(names(lag)).containsExactly("a/0", "a/1", "b/0");
        assertThat(JMX.getAttribute(new ObjectName("kafka.server:type=FetcherLagMetrics,name=ConsumerLag,clientId=legacy-test,topic=a,partition=0"), "Value"))
                .as("not fetched yet: 0.8.2.2's initial -1").isEqualTo(-1L);

        mbeans.owned(Set.of(TopicAndPartition.of("a", 1), TopicAndPartition.of("c", 2)));
        assertThat(names(lag)).containsExactly("a/1", "c/2");
        mbeans.close();
        assertThat(names(lag)).isEmpty();
    }

    private static ConsumerRecord<byte[], byte[]> record(String topic, int keySize, int valueSize) {
        return new ConsumerRecord<>(topic, 0, 0, 0L, TimestampType.CREATE_TIME, keySize, valueSize, null, null,
                new RecordHeaders(), Optional.empty());
    }

    @Test
    void throughputMetersCountEachTopicAndAllIn08sMessageFormat() throws Exception {
        // 26 bytes of 0.8 message overhead each; a null key (size -1) adds nothing
        mbeans.delivered(new ConsumerRecords<>(Map.of(
                new TopicPartition("a", 0), List.of(record("a", 2, 10), record("a", -1, 4)),
                new TopicPartition("b", 0), List.of(record("b", 3, 3)))));
        mbeans.delivered(new ConsumerRecords<>(Map.of(new TopicPartition("a", 0), List.of(record("a", 0, 0)))));
        String type = "kafka.consumer:type=ConsumerTopicMetrics,";
        assertThat(JMX.getAttribute(new ObjectName(type + "name=MessagesPerSec,clientId=legacy-test"), "Count")).isEqualTo(4L);
        assertThat(JMX.getAttribute(new ObjectName(type + "name=BytesPerSec,clientId=legacy-test"), "Count"))
                .isEqualTo(4 * 26L + 12 + 4 + 6);
        assertThat(JMX.getAttribute(new ObjectName(type + "name=MessagesPerSec,clientId=legacy-test,topic=a"), "Count")).isEqualTo(3L);
        assertThat(JMX.getAttribute(new ObjectName(type + "name=BytesPerSec,clientId=legacy-test,topic=b"), "Count")).isEqualTo(32L);
        assertThat(JMX.getAttribute(new ObjectName(type + "name=BytesPerSec,clientId=legacy-test,topic=b"), "EventType")).isEqualTo("bytes");
    }

    @Test
    void streamQueuesAndAppInfo() throws Exception {
        int[] queued = {2};
        mbeans.streamQueue("a", "0", () -> queued[0]);
        ObjectName queue = new ObjectName("kafka.consumer:type=ZookeeperConsumerConnector,name=FetchQueueSize,clientId=legacy-test,topic=a,threadId=0");
        assertThat(JMX.getAttribute(queue, "Value")).isEqualTo(2);
        queued[0] = 0;
        assertThat(JMX.getAttribute(queue, "Value")).isEqualTo(0);
        assertThat(JMX.getAttribute(new ObjectName("kafka.common:type=AppInfo,name=Version"), "Value"))
                .isEqualTo(AppInfo.version()).isNotEqualTo("unknown");
    }
}
