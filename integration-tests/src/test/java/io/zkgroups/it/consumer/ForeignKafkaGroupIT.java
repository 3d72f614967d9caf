package io.zkgroups.it.consumer;

import io.zkgroups.it.support.KafkaOnZooKeeperExtension;
import io.zkgroups.rebalancer.offsets.DualOffsets;
import io.zkgroups.rebalancer.offsets.KafkaOffsets;
import io.zkgroups.rebalancer.offsets.OffsetStore;
import io.zkgroups.rebalancer.offsets.OffsetStoreException;
import io.zkgroups.rebalancer.offsets.ZkOffsets;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.TopicAndPartition;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeConsumerGroupsOptions;
import org.apache.kafka.clients.admin.DescribeConsumerGroupsResult;
import org.apache.kafka.clients.admin.ForwardingAdmin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Kafka-side offsets of a group id that Kafka's own group protocol uses (a modern {@code KafkaConsumer} with
 * {@code subscribe()}) are not ours to resume from: reading them is refused with an error naming the group,
 * while the offsets of a ZooKeeper-coordinated group (committed through the Admin API) are read as before.
 */
@Timeout(120)
class ForeignKafkaGroupIT {

    @RegisterExtension
    static final KafkaOnZooKeeperExtension servers = new KafkaOnZooKeeperExtension();
    private static final String TOPIC = "foreign-t";
    private static final TopicAndPartition TP = TopicAndPartition.of(TOPIC, 0);
    private static CountingAdmin admin;
    private static ZkRegistry registry;

    @BeforeAll
    static void start() {
        servers.broker().createTopic(TOPIC, 1);
        admin = new CountingAdmin(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, servers.broker().bootstrapServers()));
        registry = ZkRegistry.of(servers.client());
    }

    @AfterAll
    static void stop() {
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
        }
    }

    private static OffsetStore dual() {
        return new DualOffsets(new KafkaOffsets(admin, Duration.ofSeconds(10), false), new ZkOffsets(registry.offsets()));
    }

    @Test
    void offsetsAKafkaConsumerCommittedUnderTheSameGroupIdAreRefusedNotAdopted() {
        String group = "foreign-left";
        registry.offsets().commit(group, Map.of(TP, 5L));
        try (KafkaConsumer<String, String> modern = subscribed(group)) {
            modern.commitSync(Map.of(new TopicPartition(TOPIC, 0), new OffsetAndMetadata(50)));
        } // it left: Kafka's group is empty, but keeps its offsets and its protocol type

        assertThatThrownBy(() -> dual().read(group, List.of(TP)))
                .isInstanceOf(OffsetStoreException.class)
                .hasMessageContaining("group " + group)
                .hasMessageContaining("Kafka's own group protocol");
    }

    @Test
    void aGroupIdWithLiveKafkaProtocolMembersIsRefused() {
        String group = "foreign-live";
        registry.offsets().commit(group, Map.of(TP, 5L));
        try (KafkaConsumer<String, String> modern = subscribed(group)) {
            assertThatThrownBy(() -> dual().read(group, List.of(TP)))
                    .isInstanceOf(OffsetStoreException.class)
                    .hasMessageContaining("group " + group)
                    .hasMessageContaining("1 member");
        }
    }

    @Test
    void aZooKeeperCoordinatedGroupReadsTheLargerOffsetAndIsCheckedOnce() {
        String group = "zk-own";
        OffsetStore dual = dual();
        dual.commit(group, Map.of(TP, 7L));
        registry.offsets().commit(group, Map.of(TP, 9L)); // a member still committing to ZooKeeper only
        int describedBefore = admin.describes.get();

        assertThat(dual.read(group, List.of(TP))).isEqualTo(Map.of(TP, 9L));
        assertThat(dual.read(group, List.of(TP))).isEqualTo(Map.of(TP, 9L));
        assertThat(admin.describes.get() - describedBefore).as("describes of the group for two reads").isEqualTo(1);
    }

    /** A consumer of {@code group} that joined through Kafka's group protocol and got the topic's partition. */
    private static KafkaConsumer<String, String> subscribed(String group) {
        Properties props = new Properties();
        props.setProperty(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, servers.broker().bootstrapServers());
        props.setProperty(ConsumerConfig.GROUP_ID_CONFIG, group);
        props.setProperty(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer());
        consumer.subscribe(List.of(TOPIC));
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (consumer.assignment().isEmpty()) {
            assertThat(System.nanoTime()).as("the consumer joined its group within 30 s").isLessThan(deadline);
            consumer.poll(Duration.ofMillis(100));
        }
        return consumer;
    }

    /** A real Admin client that counts the group descriptions it is asked for. */
    private static final class CountingAdmin extends ForwardingAdmin {
        final AtomicInteger describes = new AtomicInteger();

        CountingAdmin(Map<String, Object> configs) {
            super(configs);
        }

        @Override
        public DescribeConsumerGroupsResult describeConsumerGroups(Collection<String> groupIds,
                                                                   DescribeConsumerGroupsOptions options) {
            describes.incrementAndGet();
            return super.describeConsumerGroups(groupIds, options);
        }
    }
}
