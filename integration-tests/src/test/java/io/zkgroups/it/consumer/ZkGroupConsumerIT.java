package io.zkgroups.it.consumer;

import io.zkgroups.embedded.EmbeddedKafka;
import io.zkgroups.rebalancer.consumer.ZkGroupConsumer;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.testing.TestZooKeeper;
import org.apache.curator.framework.CuratorFramework;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

@Timeout(240)
class ZkGroupConsumerIT {

    private static final AtomicInteger GROUPS = new AtomicInteger();
    private static TestZooKeeper zk;
    private static EmbeddedKafka broker;

    @BeforeAll
    static void start() {
        zk = TestZooKeeper.start();
        broker = EmbeddedKafka.startZooKeeperMode(zk.connectString());
    }

    @AfterAll
    static void stop() {
        broker.close();
        zk.close();
    }

    private static Properties props(String group) {
        Properties p = new Properties();
        p.setProperty("zookeeper.connect", zk.connectString());
        p.setProperty("group.id", group);
        p.setProperty("auto.offset.reset", "smallest");
        p.setProperty("auto.commit.interval.ms", "100");
        p.setProperty("zookeeper.session.timeout.ms", "3000");
        return p;
    }

    private static void produce(String topic, int partitions, int perPartition) {
        produce(broker, topic, partitions, perPartition);
    }

    private static void produce(EmbeddedKafka broker, String topic, int partitions, int perPartition) {
        List<EmbeddedKafka.Record> records = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            for (int i = 0; i < perPartition; i++) {
                records.add(EmbeddedKafka.Record.to(p, "k" + i, "v" + p + "-" + i));
            }
        }
        broker.produce(topic, records.toArray(EmbeddedKafka.Record[]::new));
    }

    @Test
    void aSingleConsumerReadsEverythingAndCommitsTheNextOffsetToZooKeeperOnClose() throws Exception {
        String group = "single" + GROUPS.incrementAndGet();
        String topic = group + "-t";
        broker.createTopic(topic, 3);
        produce(topic, 3, 20);
        Properties p = props(group);
        p.setProperty("bootstrap.servers", broker.bootstrapServers());
        List<ConsumerRecord<String, String>> seen = new ArrayList<>();
        try (ZkGroupConsumer<String, String> consumer = new ZkGroupConsumer<>(p, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            pollUntil(consumer, seen, 60);
            assertThat(consumer.assignment()).hasSize(3);
            assertThat(consumer.subscription()).containsExactly(topic);
        }
        assertThat(seen).hasSize(60);
        CuratorFramework client = zk.newClient();
        for (int partition = 0; partition < 3; partition++) {
            assertThat(new String(client.getData().forPath("/consumers/" + group + "/offsets/" + topic + "/" + partition), StandardCharsets.US_ASCII))
                    .isEqualTo("20");
        }
        assertThat(client.getChildren().forPath("/consumers/" + group + "/ids")).isEmpty();
    }

    @Test
    void threeMembersJoiningAndLeavingDeliverEverythingWithoutLossOrDuplicates() {
        String group = "churn" + GROUPS.incrementAndGet();
        String topic = group + "-t";
        broker.createTopic(topic, 6);
        DeliveryLog log = new DeliveryLog();
        Properties p = props(group);
        OffsetMonotonicity monotonic = new OffsetMonotonicity(ZkRegistry.of(zk.newClient()), group, topic, 6);
        try (monotonic) {
            produce(topic, 6, 100);
            ConsumerWorker a = new ConsumerWorker("a", p, List.of(topic), log);
            await().atMost(Duration.ofSeconds(30)).until(() -> log.size() >= 100);
            ConsumerWorker b = new ConsumerWorker("b", p, List.of(topic), log);
            ConsumerWorker c = new ConsumerWorker("c", p, List.of(topic), log);
            produce(topic, 6, 100);
            await().atMost(Duration.ofSeconds(30)).until(() -> b.consumer.groupHealth().map(h -> h.isStable() && !h.owned().isEmpty()).orElse(false)
                    && c.consumer.groupHealth().map(h -> h.isStable() && !h.owned().isEmpty()).orElse(false));
            a.close();
            produce(topic, 6, 100);
            ConsumerWorker d = new ConsumerWorker("d", p, List.of(topic), log);
            produce(topic, 6, 100);
            await().atMost(Duration.ofSeconds(60)).until(() -> log.distinct() >= 2400);
            b.close();
            c.close();
            d.close();
        }
        for (int partition = 0; partition < 6; partition++) {
            assertThat(log.missing(new TopicPartition(topic, partition), 400)).as("partition " + partition).isEmpty();
        }
        assertThat(log.moves()).allSatisfy(h -> assertThat(h.overlap()).as(h.toString()).isZero());
        assertThat(log.interleavings(Set.of())).isEmpty();
        assertThat(monotonic.violations()).isEmpty();
        assertThat(monotonic.observations()).isPositive();
    }

    @Test
    void onKRaftThreeMembersJoinLeaveAndGetKilledWithoutLoss() {
        try (EmbeddedKafka kraft = EmbeddedKafka.startKRaftMode(); TestZooKeeper groupZk = TestZooKeeper.start()) {
            String group = "kraftchurn" + GROUPS.incrementAndGet();
            String topic = group + "-t";
            kraft.createTopic(topic, 4);
            Properties p = new Properties();
            p.setProperty("zookeeper.connect", groupZk.connectString());
            p.setProperty("group.id", group);
            p.setProperty("bootstrap.servers", kraft.bootstrapServers());
            p.setProperty("auto.offset.reset", "earliest");
            p.setProperty("auto.commit.interval.ms", "100");
            DeliveryLog log = new DeliveryLog();
            produce(kraft, topic, 4, 50);
            Map<String, String> childProps = new java.util.HashMap<>();
            p.stringPropertyNames().forEach(k -> childProps.put(k, p.getProperty(k)));
            childProps.put("zookeeper.session.timeout.ms", "2000");
            ChildConsumer doomed = ChildConsumer.start("k-killed", topic, childProps, log);
            doomed.awaitDelivered(100, Duration.ofSeconds(60));
            ConsumerWorker b = new ConsumerWorker("k-b", p, List.of(topic), log);
            ConsumerWorker c = new ConsumerWorker("k-c", p, List.of(topic), log);
            await().atMost(Duration.ofSeconds(30)).until(() -> b.consumer.groupHealth().map(h -> h.isStable() && !h.owned().isEmpty()).orElse(false)
                    && c.consumer.groupHealth().map(h -> h.isStable() && !h.owned().isEmpty()).orElse(false));
            produce(kraft, topic, 4, 50);
            doomed.kill();
            produce(kraft, topic, 4, 50);
            b.close();
            produce(kraft, topic, 4, 50);
            await().atMost(Duration.ofSeconds(60)).until(() -> log.distinct() >= 800);
            c.close();
            for (int partition = 0; partition < 4; partition++) {
                assertThat(log.missing(new TopicPartition(topic, partition), 200)).as("partition " + partition).isEmpty();
            }
            assertThat(log.moves()).filteredOn(h -> !h.from().equals("k-killed"))
                    .allSatisfy(h -> assertThat(h.overlap()).as(h.toString()).isZero());
            assertThat(log.moves()).allSatisfy(h -> assertThat(h.overlap()).as("never a gap: " + h).isNotNegative());
            assertThat(log.interleavings(Set.of())).isEmpty();
        }
    }

    @Test
    void anUnreadableCommittedOffsetHoldsOnlyItsPartitionAndTheMemberSaysWhichZnode() throws Exception {
        String group = "poisoned" + GROUPS.incrementAndGet();
        String topic = group + "-t";
        broker.createTopic(topic, 3);
        produce(topic, 3, 20);
        String poisoned = "/consumers/" + group + "/offsets/" + topic + "/1";
        CuratorFramework client = zk.newClient();
        client.create().creatingParentsIfNeeded().forPath(poisoned, "garbage".getBytes(StandardCharsets.US_ASCII));
        List<ConsumerRecord<String, String>> seen = new ArrayList<>();
        try (ZkGroupConsumer<String, String> consumer = new ZkGroupConsumer<>(props(group), new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            pollUntil(consumer, seen, 40); // partitions 0 and 2 flow
            assertThat(seen).noneMatch(r -> r.partition() == 1);
            assertThat(consumer.assignment()).hasSize(3);
            assertThat(consumer.groupHealth().orElseThrow().unreadable())
                    .singleElement().satisfies(u -> {
                        assertThat(u.path()).isEqualTo(poisoned);
                        assertThat(u.reason()).contains("garbage");
                    });
            produce(topic, 3, 5); // and keep flowing
            pollUntil(consumer, seen, 50);

            client.setData().forPath(poisoned, "15".getBytes(StandardCharsets.US_ASCII)); // an operator fixes it
            pollUntil(consumer, seen, 60);
            assertThat(seen).filteredOn(r -> r.partition() == 1).extracting(ConsumerRecord::offset)
                    .containsExactly(15L, 16L, 17L, 18L, 19L, 20L, 21L, 22L, 23L, 24L);
            assertThat(consumer.groupHealth().orElseThrow().unreadable()).isEmpty();
        }
    }

    /** As with KafkaConsumer, an application that commits in onPartitionsRevoked has that commit written on close(). */
    @Test
    void aCommitInOnPartitionsRevokedDuringCloseIsWritten() throws Exception {
        String group = "commit-on-close" + GROUPS.incrementAndGet();
        String topic = group + "-t";
        broker.createTopic(topic, 1);
        produce(topic, 1, 10);
        Properties p = props(group);
        p.setProperty("auto.commit.enable", "false");
        List<ConsumerRecord<String, String>> seen = new ArrayList<>();
        List<Throwable> errors = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (ZkGroupConsumer<String, String> consumer = new ZkGroupConsumer<>(p, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic), new org.apache.kafka.clients.consumer.ConsumerRebalanceListener() {
                @Override
                public void onPartitionsRevoked(java.util.Collection<TopicPartition> partitions) {
                    try {
                        consumer.commitSync();
                    } catch (RuntimeException e) {
                        errors.add(e);
                    }
                }

                @Override
                public void onPartitionsAssigned(java.util.Collection<TopicPartition> partitions) {
                }
            });
            pollUntil(consumer, seen, 10);
        }
        assertThat(errors).isEmpty();
        assertThat(new String(zk.newClient().getData().forPath("/consumers/" + group + "/offsets/" + topic + "/0"),
                StandardCharsets.US_ASCII)).isEqualTo("10");
    }

    @Test
    void commitsAreRefusedForPartitionsTheMemberDoesNotOwn() {
        String group = "foreign" + GROUPS.incrementAndGet();
        String topic = group + "-t";
        broker.createTopic(topic, 2);
        try (ZkGroupConsumer<String, String> consumer = new ZkGroupConsumer<>(props(group), new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            await().atMost(Duration.ofSeconds(20)).until(() -> {
                consumer.poll(Duration.ofMillis(50));
                return consumer.assignment().size() == 2;
            });
            assertThatThrownBy(() -> consumer.commitSync(Map.of(new TopicPartition("elsewhere", 0), new OffsetAndMetadata(5))))
                    .isInstanceOf(CommitFailedException.class)
                    .hasMessageContaining("elsewhere-0");
            assertThatThrownBy(() -> consumer.assign(List.of(new TopicPartition(topic, 0))))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("subscribe");
        }
    }

    @Test
    void aJoiningConsumerConnectsItsFetcherToKafkaBeforeItOwnsAPartition() {
        String group = "early" + GROUPS.incrementAndGet();
        String topic = group + "-t";
        broker.createTopic(topic, 1);
        Properties first = props(group);
        first.setProperty("consumer.id", "a-owner");
        try (ZkGroupConsumer<String, String> owner = new ZkGroupConsumer<>(first, new StringDeserializer(), new StringDeserializer())) {
            owner.subscribe(List.of(topic));
            await().atMost(Duration.ofSeconds(20)).until(() -> {
                owner.poll(Duration.ofMillis(50));
                return owner.assignment().size() == 1;
            });
            // the one partition stays with a-owner (range gives it to the first consumer id): the others fetch nothing
            Properties early = props(group);
            early.setProperty("consumer.id", "x-early");
            Properties late = props(group);
            late.setProperty("consumer.id", "x-late");
            late.setProperty("zkgroups.fetch.connect.early", "false");
            try (ZkGroupConsumer<String, String> connected = new ZkGroupConsumer<>(early, new StringDeserializer(), new StringDeserializer());
                 ZkGroupConsumer<String, String> idle = new ZkGroupConsumer<>(late, new StringDeserializer(), new StringDeserializer())) {
                connected.subscribe(List.of(topic));
                idle.subscribe(List.of(topic));
                await().atMost(Duration.ofSeconds(20)).until(() -> {
                    owner.poll(Duration.ofMillis(10));
                    connected.poll(Duration.ofMillis(50));
                    idle.poll(Duration.ofMillis(50));
                    return connections(connected) > 0 && stableWithNothing(idle) && stableWithNothing(connected);
                });
                for (int i = 0; i < 10; i++) {
                    idle.poll(Duration.ofMillis(50));
                }
                assertThat(connected.assignment()).as("it owns nothing").isEmpty();
                assertThat(connections(idle)).as("without the early connect nothing connects before a fetch").isZero();
            }
        }
    }

    @Test
    void rebalanceNewsCutsAWaitingPollShortWithoutAWakeupTheApplicationDidNotAsk() throws Exception {
        String group = "news" + GROUPS.incrementAndGet();
        String topic = group + "-t";
        broker.createTopic(topic, 4); // no records: every fetch of the owner waits for the whole poll slice
        AtomicInteger revocations = new AtomicInteger();
        AtomicInteger wakeups = new AtomicInteger();
        List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.CompletableFuture<ZkGroupConsumer<String, String>> started = new java.util.concurrent.CompletableFuture<>();
        Thread poller = new Thread(() -> {
            Properties first = props(group);
            first.setProperty("consumer.id", "a-owner"); // range gives it partitions 0 and 1, the joiner 2 and 3
            try (ZkGroupConsumer<String, String> owner = new ZkGroupConsumer<>(first, new StringDeserializer(), new StringDeserializer())) {
                owner.subscribe(List.of(topic), new org.apache.kafka.clients.consumer.ConsumerRebalanceListener() {
                    @Override
                    public void onPartitionsRevoked(java.util.Collection<TopicPartition> partitions) {
                        if (!partitions.isEmpty()) {
                            revocations.incrementAndGet();
                        }
                    }

                    @Override
                    public void onPartitionsAssigned(java.util.Collection<TopicPartition> partitions) {
                    }
                });
                started.complete(owner);
                while (!stop.get()) {
                    try {
                        assertThat(owner.poll(Duration.ofSeconds(1))).isEmpty();
                    } catch (org.apache.kafka.common.errors.WakeupException asked) {
                        wakeups.incrementAndGet();
                    }
                }
            } catch (Throwable e) {
                started.completeExceptionally(e);
                failures.add(e);
            }
        });
        poller.start();
        ZkGroupConsumer<String, String> owner = started.get(30, TimeUnit.SECONDS);
        await().atMost(Duration.ofSeconds(20)).until(() -> owner.groupHealth().map(h -> h.isStable() && h.owned().size() == 4).orElse(false));
        for (int i = 1; i <= 5; i++) {
            Properties second = props(group);
            second.setProperty("consumer.id", "b-joiner");
            try (ZkGroupConsumer<String, String> joiner = new ZkGroupConsumer<>(second, new StringDeserializer(), new StringDeserializer())) {
                joiner.subscribe(List.of(topic));
                await().atMost(Duration.ofSeconds(20)).until(() -> {
                    joiner.poll(Duration.ofMillis(20));
                    return joiner.assignment().size() == 2;
                });
            }
            await().atMost(Duration.ofSeconds(20)).until(() -> owner.groupHealth().map(h -> h.isStable() && h.owned().size() == 4).orElse(false));
            owner.wakeup();
            int asked = i;
            await().atMost(Duration.ofSeconds(10)).until(() -> wakeups.get() >= asked);
        }
        int revokedToJoiners = revocations.get();
        stop.set(true);
        poller.join(30_000);

        assertThat(failures).isEmpty();
        assertThat(revokedToJoiners).as("the owner gave up partitions to each joiner").isEqualTo(5);
        assertThat(wakeups).as("every wakeup asked for was delivered once, and no other").hasValue(5);
    }

    private static boolean stableWithNothing(ZkGroupConsumer<?, ?> consumer) {
        return consumer.groupHealth().map(h -> h.state() == io.zkgroups.rebalancer.group.MemberState.STABLE
                && h.owned().isEmpty()).orElse(false);
    }

    /** Connections the inner fetch client holds to brokers (Kafka's consumer-metrics connection-count). */
    private static double connections(ZkGroupConsumer<?, ?> consumer) {
        return consumer.metrics().entrySet().stream()
                .filter(e -> e.getKey().name().equals("connection-count") && e.getKey().group().equals("consumer-metrics"))
                .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue()).sum();
    }

    @Test
    void kafkaStorageWithDualCommitWritesBothStoresAndReadsTheLargerOffset() throws Exception {
        String group = "dual" + GROUPS.incrementAndGet();
        String topic = group + "-t";
        broker.createTopic(topic, 1);
        produce(topic, 1, 30);
        ZkRegistry observer = ZkRegistry.of(zk.newClient());
        observer.offsets().commit(group, Map.of(TopicAndPartition.of(topic, 0), 10L)); // an old member's ZooKeeper commit
        Properties p = props(group);
        p.setProperty("offsets.storage", "kafka");
        List<ConsumerRecord<String, String>> seen = new ArrayList<>();
        try (ZkGroupConsumer<String, String> consumer = new ZkGroupConsumer<>(p, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            pollUntil(consumer, seen, 20);
        }
        assertThat(seen.get(0).offset()).as("starts at max(ZooKeeper 10, Kafka none)").isEqualTo(10);
        assertThat(observer.offsets().read(group, List.of(TopicAndPartition.of(topic, 0))).offsets())
                .containsEntry(TopicAndPartition.of(topic, 0), 30L);
        Map<TopicPartition, OffsetAndMetadata> kafkaSide = broker.admin().listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS);
        assertThat(kafkaSide.get(new TopicPartition(topic, 0)).offset()).isEqualTo(30);
    }

    @Test
    void aLegacyConsumerPropertiesFileWorksUnchanged() throws Exception {
        String group = "legacyprops" + GROUPS.incrementAndGet();
        String topic = group + "-t";
        broker.createTopic(topic, 2);
        produce(topic, 2, 5);
        // a typical 0.8.2 consumer.properties, as found in the wild (no bootstrap.servers: brokers come from ZooKeeper)
        String file = """
                # Zookeeper connection string
                zookeeper.connect=%s
                zookeeper.connection.timeout.ms=6000
                zookeeper.session.timeout.ms=4000
                zookeeper.sync.time.ms=200
                group.id=%s
                auto.commit.enable=true
                auto.commit.interval.ms=1000
                auto.offset.reset=smallest
                rebalance.max.retries=4
                rebalance.backoff.ms=2000
                fetch.message.max.bytes=1048576
                socket.receive.buffer.bytes=65536
                queued.max.message.chunks=2
                consumer.timeout.ms=-1
                offsets.storage=zookeeper
                partition.assignment.strategy=range
                """.formatted(zk.connectString(), group);
        Properties p = new Properties();
        p.load(new StringReader(file));
        List<ConsumerRecord<String, String>> seen = new ArrayList<>();
        try (ZkGroupConsumer<String, String> consumer = new ZkGroupConsumer<>(p, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            pollUntil(consumer, seen, 10);
        }
        assertThat(seen).hasSize(10);
    }

    @Test
    void badPropertiesFailFastNamingKeyAndValue() {
        Properties p = props("bad");
        p.setProperty("auto.offset.reset", "sometimes");
        assertThatThrownBy(() -> new ZkGroupConsumer<>(p, new StringDeserializer(), new StringDeserializer()))
                .isInstanceOf(ConfigException.class).hasMessageContaining("auto.offset.reset").hasMessageContaining("sometimes");
        Properties q = props("bad/group");
        assertThatThrownBy(() -> new ZkGroupConsumer<>(q, new StringDeserializer(), new StringDeserializer()))
                .hasMessageContaining("bad/group");
    }

    @Test
    void onKRaftThePartitionMetadataComesFromKafkaAndZooKeeperOnlyCoordinates() throws Exception {
        try (EmbeddedKafka kraft = EmbeddedKafka.startKRaftMode(); TestZooKeeper groupZk = TestZooKeeper.start()) {
            String group = "kraft" + GROUPS.incrementAndGet();
            String topic = group + "-t";
            kraft.createTopic(topic, 2);
            List<EmbeddedKafka.Record> records = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                records.add(EmbeddedKafka.Record.to(i % 2, "k", "v" + i));
            }
            kraft.produce(topic, records.toArray(EmbeddedKafka.Record[]::new));
            Properties p = new Properties();
            p.setProperty("zookeeper.connect", groupZk.connectString());
            p.setProperty("group.id", group);
            p.setProperty("bootstrap.servers", kraft.bootstrapServers());
            p.setProperty("auto.offset.reset", "earliest");
            p.setProperty("zkgroups.metadata.refresh.ms", "200");
            List<ConsumerRecord<String, String>> seen = new ArrayList<>();
            try (ZkGroupConsumer<String, String> consumer = new ZkGroupConsumer<>(p, new StringDeserializer(), new StringDeserializer())) {
                consumer.subscribe(List.of(topic));
                pollUntil(consumer, seen, 10);
                kraft.admin().createPartitions(Map.of(topic, org.apache.kafka.clients.admin.NewPartitions.increaseTo(3))).all().get(10, TimeUnit.SECONDS);
                await().atMost(Duration.ofSeconds(20)).until(() -> {
                    consumer.poll(Duration.ofMillis(50));
                    return consumer.assignment().size() == 3;
                });
                // the new partition is empty: its position is known once looked up, and only a known position is
                // committed when the partition is let go (a release never waits on Kafka)
                assertThat(consumer.position(new TopicPartition(topic, 2))).isZero();
            }
            assertThat(seen).hasSize(10);
            assertThat(ZkRegistry.of(groupZk.newClient()).offsets().readAll(group).offsets()).hasSize(3);
        }
    }

    /** Polls until {@code count} records have been seen (bounded by Awaitility's 30 s). */
    private static void pollUntil(ZkGroupConsumer<String, String> consumer, List<ConsumerRecord<String, String>> seen, int count) {
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            consumer.poll(Duration.ofMillis(100)).forEach(seen::add);
            return seen.size() >= count;
        });
    }

    /** Reads the group's ZooKeeper offsets continuously and records any value that went down. */
    static final class OffsetMonotonicity implements AutoCloseable {
        private final ScheduledExecutorService reader = Executors.newSingleThreadScheduledExecutor();
        private final Map<TopicAndPartition, Long> highest = new ConcurrentHashMap<>();
        private final List<String> violations = new java.util.concurrent.CopyOnWriteArrayList<>();
        private final AtomicInteger observations = new AtomicInteger();

        OffsetMonotonicity(ZkRegistry registry, String group, String topic, int partitions) {
            List<TopicAndPartition> all = new ArrayList<>();
            for (int i = 0; i < partitions; i++) {
                all.add(TopicAndPartition.of(topic, i));
            }
            reader.scheduleWithFixedDelay(() -> registry.offsets().read(group, all).offsets().forEach((tp, offset) -> {
                observations.incrementAndGet();
                Long before = highest.put(tp, offset);
                if (before != null && offset < before) {
                    violations.add(tp + " went from " + before + " to " + offset);
                }
            }), 0, 5, TimeUnit.MILLISECONDS);
        }

        List<String> violations() {
            return violations;
        }

        int observations() {
            return observations.get();
        }

        @Override
        public void close() {
            reader.shutdownNow();
        }
    }
}
