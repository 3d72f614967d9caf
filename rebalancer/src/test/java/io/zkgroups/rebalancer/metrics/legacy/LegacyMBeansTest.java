package io.zkgroups.rebalancer.metrics.legacy;

import io.zkgroups.registry.model.TopicAndPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
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

    @Test
    void throughputMetersCountEachTopicAndAll() throws Exception {
        mbeans.consumed("a", 3, 120);
        mbeans.consumed("b", 2, 80);
        mbeans.consumed("a", 1, 40);
        String type = "kafka.consumer:type=ConsumerTopicMetrics,";
        assertThat(JMX.getAttribute(new ObjectName(type + "name=MessagesPerSec,clientId=legacy-test"), "Count")).isEqualTo(6L);
        assertThat(JMX.getAttribute(new ObjectName(type + "name=BytesPerSec,clientId=legacy-test"), "Count")).isEqualTo(240L);
        assertThat(JMX.getAttribute(new ObjectName(type + "name=MessagesPerSec,clientId=legacy-test,topic=a"), "Count")).isEqualTo(4L);
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
