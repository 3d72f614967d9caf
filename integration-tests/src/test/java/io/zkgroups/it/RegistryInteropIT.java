package io.zkgroups.it;

import io.zkgroups.embedded.EmbeddedKafka.Record;
import io.zkgroups.it.support.KafkaOnZooKeeperExtension;
import io.zkgroups.it.support.LegacyConsumerProcess;
import io.zkgroups.it.support.LegacyConsumerProcess.ConsumedMessage;
import io.zkgroups.rebalancer.group.ZkGroupMember;
import io.zkgroups.rebalancer.group.GroupMemberConfig;
import io.zkgroups.rebalancer.group.MembershipListener;
import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.codec.MemberRegistrationCodec;
import io.zkgroups.registry.codec.PartitionStateCodec;
import io.zkgroups.registry.model.BrokerInfo;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.MemberRegistration;
import io.zkgroups.registry.model.PartitionState;
import io.zkgroups.registry.model.Subscription;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.model.TopicRegistration;
import io.zkgroups.registry.store.Listing;
import io.zkgroups.registry.store.PartitionOwner;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The registry is byte-compatible both ways: it reads what a Kafka 3.9 broker and real 0.8.2.2 consumers write,
 * and 0.8.2.2 consumers read what it writes (broker and topic registrations, member registrations, owner
 * znodes, offsets). One ZooKeeper and one ZooKeeper-mode broker (chroot {@value #KAFKA39}) serve the class.
 */
@Timeout(120)
class RegistryInteropIT {

    private static final Duration WAIT = LegacyConsumerProcess.DEFAULT_TIMEOUT;
    private static final String KAFKA39 = "/kafka39";
    private static final String TOPIC39 = "T39";
    private static final int BROKER_ID = 3;

    @RegisterExtension
    static final KafkaOnZooKeeperExtension servers = new KafkaOnZooKeeperExtension(KAFKA39, BROKER_ID);
    private static CuratorFramework chrooted;

    @BeforeAll
    static void createTopicAndChrootedClient() {
        servers.broker().createTopic(TOPIC39, 3);
        chrooted = CuratorFrameworkFactory.builder()
                .connectString(servers.connectString() + KAFKA39)
                .sessionTimeoutMs(10_000)
                .retryPolicy(new ExponentialBackoffRetry(50, 10, 500))
                .build();
        chrooted.start();
    }

    @AfterAll
    static void closeChrootedClient() throws Exception {
        if (chrooted != null) {
            chrooted.close();
        }
    }

    // ------------------------------------------------------------------------ Kafka 3.9 broker -> registry

    @Test
    void registryReadsTheBrokerAndTopicThatAKafka39BrokerRegistered() throws Exception {
        assertThat(chrooted.blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
        Map<String, ZkRegistry> views = Map.of(
                "chroot in the connect string, ZkLayout.root()", new ZkRegistry(chrooted, ZkLayout.root()),
                "root client, ZkLayout.withChroot", new ZkRegistry(servers.client(), ZkLayout.withChroot(KAFKA39)));
        Uuid topicId = servers.broker().admin().describeTopics(List.of(TOPIC39)).allTopicNames()
                .get(30, TimeUnit.SECONDS).get(TOPIC39).topicId();

        views.forEach((how, registry) -> {
            Listing<BrokerInfo> brokers = registry.brokers().list();
            assertThat(brokers.unreadable()).as(how).isEmpty();
            assertThat(brokers.entries()).as(how).singleElement().satisfies(b -> {
                assertThat(b.id()).isEqualTo(BROKER_ID);
                assertThat(b.host()).isEqualTo("127.0.0.1");
                assertThat(b.port()).isEqualTo(servers.broker().port());
                assertThat(b.plaintextAddress()).contains(servers.broker().bootstrapServers());
                assertThat(b.version()).as("3.9 writes a v4/v5 registration").isGreaterThanOrEqualTo(4);
                assertThat(b.endpoints()).containsExactly(
                        new BrokerInfo.Endpoint("PLAINTEXT", "PLAINTEXT", "127.0.0.1", servers.broker().port()));
                assertThat(b.timestamp()).matches("\\d+");
            });

            assertThat(registry.topics().topics()).as(how).contains(TOPIC39);
            TopicRegistration topic = registry.topics().read(TOPIC39).orElseThrow();
            assertThat(topic.partitions()).as(how).containsExactly(0, 1, 2);
            assertThat(topic.replicaMap()).as(how).allSatisfy((p, replicas) ->
                    assertThat(replicas).containsExactly(BROKER_ID));
            assertThat(topic.version()).as(how + ": 3.x writes topic registrations v2+").isGreaterThanOrEqualTo(2);
            assertThat(topic.topicId()).as(how).contains(topicId.toString());

            for (int p = 0; p < 3; p++) {
                assertThat(registry.topics().partitionState(TOPIC39, p)).as(how + ", partition " + p)
                        .hasValueSatisfying(state -> {
                            assertThat(state.leader()).isEqualTo(BROKER_ID);
                            assertThat(state.isr()).containsExactly(BROKER_ID);
                        });
            }
        });

        // The codec alone on the raw bytes the controller wrote.
        byte[] raw = chrooted.getData().forPath("/brokers/topics/" + TOPIC39 + "/partitions/0/state");
        PartitionState state = PartitionStateCodec.decode(raw);
        assertThat(state.leader()).as(new String(raw, StandardCharsets.UTF_8)).isEqualTo(BROKER_ID);
        assertThat(state.hasLeader()).isTrue();
        assertThat(state.controllerEpoch()).isPositive();
        assertThat(state.leaderEpoch()).isNotNegative();
    }

    // ------------------------------------------------------------------- 0.8.2.2 consumers <-> registry

    /**
     * Group {@code G} under chroot {@code /zk08}, where the broker and both topics are registered by our
     * registry (A has 5 partitions, B has 3). Members, in 0.8.2.2's sort order of thread ids:
     * <pre>
     *   G_a  real 0.8.2.2 consumer   {A:1, B:1}
     *   G_b  our ZkGroupMember         {A:1, B:1}
     *   G_c  real 0.8.2.2 consumer   {A:2}
     *   G_d  MemberRegistry only     {B:1}    (claims its share with OwnerRegistry at the end)
     * </pre>
     * Range over A's threads a-0, b-0, c-0, c-1 and B's threads a-0, b-0, d-0:
     * <pre>
     *   A-0 a-0  A-1 a-0  A-2 b-0  A-3 c-0  A-4 c-1      B-0 a-0  B-1 b-0  B-2 d-0
     * </pre>
     * The 0.8.2.2 members can only arrive there by reading our broker (no broker: no assignment), our topic
     * registrations (partition counts) and both of our member registrations (b and d are counted).
     */
    @Test
    void legacyConsumersAndOurMembersConvergeOnTheRangeAssignmentOfTheUnion() throws Exception {
        String group = "G";
        ZkRegistry registry = new ZkRegistry(servers.client(), ZkLayout.withChroot("/zk08"));
        CuratorFramework brokerSession = servers.newClient();
        new ZkRegistry(brokerSession, ZkLayout.withChroot("/zk08")).brokers()
                .register(BrokerInfo.v1(0, "127.0.0.1", 9092, -1, System.currentTimeMillis()));
        registry.topics().create("A", TopicRegistration.v1(5, List.of(0)));
        registry.topics().create("B", TopicRegistration.v1(3, List.of(0)));

        // d: a bare registration through MemberRegistry, in a session of its own.
        CuratorFramework dSession = servers.newClient();
        ZkRegistry d = new ZkRegistry(dSession, ZkLayout.withChroot("/zk08"));
        ConsumerId dId = ConsumerId.ofOverride(group, "d");
        d.members().register(group, dId, MemberRegistration.of(Subscription.topics(Map.of("B", 1)),
                System.currentTimeMillis()), Duration.ofSeconds(5));
        assertThat(read("/zk08/consumers/G/ids/G_d"))
                .matches(anyTimestamp("{\"version\":1,\"subscription\":{\"B\":1},\"pattern\":\"static\",\"timestamp\":\""));

        ConsumerId bId = ConsumerId.ofOverride(group, "b");
        GroupMemberConfig bConfig = GroupMemberConfig.of(group, bId, Subscription.topics(ordered("A", 1, "B", 1)));
        try (LegacyConsumerProcess a = legacy("a").topic("A", 1).topic("B", 1).start();
             LegacyConsumerProcess c = legacy("c").topic("A", 2).start();
             ZkGroupMember b = ZkGroupMember.onZooKeeper(servers.newClient(), ZkLayout.withChroot("/zk08"), bConfig,
                     MembershipListener.NONE)) {
            b.start();
            assertThat(a.awaitReady(WAIT)).isEqualTo("G_a");
            assertThat(c.awaitReady(WAIT)).isEqualTo("G_c");

            // Their registrations, read by our codec: the subscriptions they used, in their order.
            MemberRegistration aReg = MemberRegistrationCodec.decode(bytes("/zk08/consumers/G/ids/G_a"));
            assertThat(aReg.subscription()).isEqualTo(Subscription.topics(ordered("A", 1, "B", 1)));
            assertThat(((Subscription.Static) aReg.subscription()).streamsPerTopic().keySet()).containsExactly("A", "B");
            assertThat(aReg.timestamp()).matches("\\d+");
            assertThat(aReg.capabilities()).isEmpty();
            MemberRegistration cReg = MemberRegistrationCodec.decode(bytes("/zk08/consumers/G/ids/G_c"));
            assertThat(cReg.subscription()).isEqualTo(Subscription.topics(Map.of("A", 2)));
            assertThat(registry.members().list(group).unreadable()).isEmpty();

            ThreadId a0 = thread("G_a", 0);
            ThreadId b0 = thread("G_b", 0);
            ThreadId c0 = thread("G_c", 0);
            ThreadId c1 = thread("G_c", 1);
            ThreadId d0 = thread("G_d", 0);
            Map<TopicAndPartition, ThreadId> withoutD = new TreeMap<>(Map.of(
                    tp("A", 0), a0, tp("A", 1), a0, tp("A", 2), b0, tp("A", 3), c0, tp("A", 4), c1,
                    tp("B", 0), a0, tp("B", 1), b0));
            await("a, b and c own their range shares; B-2 is left to d").atMost(WAIT).untilAsserted(() -> {
                assertThat(b.health().isStable()).as("b: " + b.health()).isTrue();
                assertThat(owners(registry, group)).isEqualTo(withoutD);
            });
            assertThat(b.owned()).containsExactlyInAnyOrder(tp("A", 2), tp("B", 1));

            // Our member's registration is byte for byte what the 0.8.2.2 member with the same subscription wrote.
            assertThat(withoutTimestamp(read("/zk08/consumers/G/ids/G_b")))
                    .isEqualTo(withoutTimestamp(read("/zk08/consumers/G/ids/G_a")))
                    .isEqualTo("{\"version\":1,\"subscription\":{\"A\":1,\"B\":1},\"pattern\":\"static\",\"timestamp\":\"\"}");

            d.owners().claim(group, dId, Map.of(tp("B", 2), d0));
            Map<TopicAndPartition, ThreadId> all = new TreeMap<>(withoutD);
            all.put(tp("B", 2), d0);
            await("every partition owned exactly once, by the thread range gives it").atMost(WAIT)
                    .untilAsserted(() -> assertThat(owners(registry, group)).isEqualTo(all));
            assertThat(read("/zk08/consumers/G/owners/B/2")).isEqualTo("G_d-0");
            assertThat(read("/zk08/consumers/G/owners/A/4")).isEqualTo("G_c-1");

            // Stop both 0.8.2.2 consumers at once rather than one after the other (each leave is a rebalance).
            a.send("shutdown");
            c.send("shutdown");
        } finally {
            dSession.close();
            brokerSession.close();
        }
    }

    // ----------------------------------------------------------------------------------- offsets both ways

    @Test
    void legacyConsumerStartsFromTheOffsetsOurStoreCommittedAndWeReadWhatItCommits() throws Exception {
        String group = "offsets";
        Record[] records = IntStream.range(0, 30)
                .mapToObj(i -> Record.to(i % 3, "k" + i, "v" + i))
                .toArray(Record[]::new);
        servers.broker().produce(TOPIC39, records);
        Map<TopicAndPartition, Long> committed = Map.of(tp(TOPIC39, 0), 3L, tp(TOPIC39, 1), 7L, tp(TOPIC39, 2), 5L);
        ZkRegistry registry = new ZkRegistry(servers.client(), ZkLayout.withChroot(KAFKA39));
        registry.offsets().commit(group, committed);
        assertThat(read(KAFKA39 + "/consumers/offsets/offsets/T39/1")).isEqualTo("7");

        int expected = (10 - 3) + (10 - 7) + (10 - 5);
        try (LegacyConsumerProcess consumer = LegacyConsumerProcess.builder("from-our-offsets")
                .zookeeperConnect(servers.connectString() + KAFKA39)
                .groupId(group)
                .consumerId("f1")
                // Without our offsets it would start at the end and deliver nothing.
                .property("auto.offset.reset", "largest")
                .property("auto.commit.enable", "false")
                .topic(TOPIC39, 1)
                .maxMessages(expected)
                .start()) {
            assertThat(consumer.awaitReady(WAIT)).isEqualTo("offsets_f1");
            consumer.awaitLine(0, ("LIMIT " + expected)::equals, WAIT, "LIMIT " + expected);

            Map<Integer, List<Long>> offsetsByPartition = consumer.messages().stream().collect(Collectors.groupingBy(
                    ConsumedMessage::partition, TreeMap::new,
                    Collectors.mapping(ConsumedMessage::offset, Collectors.toList())));
            committed.forEach((tp, next) -> assertThat(offsetsByPartition.get(tp.partition()))
                    .as("offsets delivered from partition " + tp.partition())
                    .first().isEqualTo(next));
            committed.forEach((tp, next) -> assertThat(offsetsByPartition.get(tp.partition()))
                    .containsExactlyElementsOf(LongStream.range(next, 10).boxed().toList()));

            consumer.commit();
            ZkRegistry fresh = new ZkRegistry(chrooted, ZkLayout.root());
            assertThat(fresh.offsets().readAll(group).offsets())
                    .isEqualTo(Map.of(tp(TOPIC39, 0), 10L, tp(TOPIC39, 1), 10L, tp(TOPIC39, 2), 10L));
            assertThat(fresh.offsets().readAll(group).unreadable()).isEmpty();
            assertThat(consumer.shutdown()).isZero();
        }
    }

    // ------------------------------------------------------------------------------------------ helpers

    private static LegacyConsumerProcess.Builder legacy(String consumerId) {
        return LegacyConsumerProcess.builder(consumerId)
                .zookeeperConnect(servers.connectString() + "/zk08")
                .groupId("G")
                .consumerId(consumerId)
                // Claims collide while members join; retry fast instead of 0.8's 2 s back-off, and long enough.
                .property("rebalance.backoff.ms", "200")
                .property("rebalance.max.retries", "50")
                .property("auto.commit.enable", "false")
                .noFetcher();
    }

    /** Owner znodes of {@code group}, each value parsed with {@link ThreadId#parse}. */
    private static Map<TopicAndPartition, ThreadId> owners(ZkRegistry registry, String group) {
        Listing<PartitionOwner> listing = registry.owners().owners(group);
        assertThat(listing.unreadable()).isEmpty();
        Map<TopicAndPartition, ThreadId> owners = new TreeMap<>();
        for (PartitionOwner owner : listing.entries()) {
            ThreadId thread = ThreadId.parse(owner.value())
                    .orElseThrow(() -> new AssertionError("owner value '" + owner.value() + "' is not a thread id"));
            assertThat(owners.put(owner.partition(), thread)).as("owner znodes of " + owner.partition()).isNull();
        }
        return owners;
    }

    private static ThreadId thread(String consumerId, int n) {
        return new ConsumerId(consumerId).thread(n);
    }

    private static TopicAndPartition tp(String topic, int partition) {
        return TopicAndPartition.of(topic, partition);
    }

    private static Map<String, Integer> ordered(String t1, int n1, String t2, int n2) {
        Map<String, Integer> map = new LinkedHashMap<>();
        map.put(t1, n1);
        map.put(t2, n2);
        return map;
    }

    private static String anyTimestamp(String prefix) {
        return java.util.regex.Pattern.quote(prefix) + "\\d+\"}";
    }

    private static String withoutTimestamp(String registration) {
        return registration.replaceFirst("\"timestamp\":\"\\d+\"", "\"timestamp\":\"\"");
    }

    private static byte[] bytes(String path) throws Exception {
        return servers.client().getData().forPath(path);
    }

    private static String read(String path) throws Exception {
        byte[] data = bytes(path);
        return data == null ? null : new String(data, StandardCharsets.UTF_8);
    }
}
