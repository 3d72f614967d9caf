package io.zkgroups.it.consumer;

import io.zkgroups.it.support.KafkaOnZooKeeperExtension;
import io.zkgroups.it.support.LegacyConsumerProcess;
import io.zkgroups.rebalancer.cutover.KafkaGroupMode;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.CoordinationDecision;
import io.zkgroups.registry.model.Coordinator;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.testing.ChildJvm;
import io.zkgroups.testing.ChildOutput;
import io.zkgroups.testing.SteadyProducer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.IntStream;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Programs compiled against the real kafka_2.10:0.8.2.2 jar run unchanged on zkgroups' kafka08-bridge (child JVMs
 * whose classpath holds the bridge instead of the 0.8.2.2 jar), against a real ZooKeeper-mode Kafka 3.9 broker:
 * <ul>
 *   <li>the 0.8 wiki's consumer group example consumes everything, each partition on the stream of the consumer
 *       thread the group gave it to;</li>
 *   <li>bridge members, a ZkGroupConsumer and a real 0.8.2.2 member in one group converge to 0.8.2.2's range
 *       assignment, hand partitions to each other at the committed offsets, lose nothing and never deliver a partition
 *       from two members at once;</li>
 *   <li>a slow member never hands out what it had queued of a partition a rebalance took away;</li>
 *   <li>a SIGKILLed bridge member loses nothing: its partitions are taken over at its last commit;</li>
 *   <li>a bridge member frozen past its session hands out nothing it had queued when it wakes;</li>
 *   <li>{@code commitOffsets()} stores the positions of the messages handed out, not of those fetched.</li>
 * </ul>
 * Member names sort in the order they join, so range never gives a partition back to a member that had it: any
 * A, B, A pattern in a partition's deliveries is two members delivering it at once.
 */
@Timeout(180)
class Kafka08BridgeIT {

    private static final Duration WAIT = LegacyConsumerProcess.DEFAULT_TIMEOUT;
    @RegisterExtension
    static final KafkaOnZooKeeperExtension servers = new KafkaOnZooKeeperExtension();

    @Test
    void theConsumerGroupExampleRunsUnchangedOnTheBridgeAndConsumesEverythingThroughItsStreams() throws Exception {
        String group = "bridge-example";
        String topic = group + "-t";
        int partitions = 6;
        int perPartition = 50;
        servers.broker().createTopic(topic, partitions);
        produce(topic, partitions, perPartition);

        try (ExampleProcess example = ExampleProcess.start(servers.connectString(), group, topic, 3, "c1")) {
            example.output.requireLine(0, "READY"::equals, WAIT, "READY", what -> new AssertionError(what + "\n" + example.stderrText()));
            await("all " + partitions * perPartition + " messages printed").atMost(WAIT)
                    .until(() -> example.messages().size() >= partitions * perPartition);
            List<String[]> messages = example.messages();
            assertThat(messages).hasSize(partitions * perPartition);
            assertThat(messages.stream().map(m -> m[3] + "@" + m[4]).distinct()).as("each message once").hasSize(messages.size());

            Map<Integer, Set<String>> streamsOfPartition = new TreeMap<>();
            messages.forEach(m -> streamsOfPartition.computeIfAbsent(Integer.parseInt(m[3]), p -> new HashSet<>()).add(m[1]));
            Map<Integer, String> owners = owners(group, topic);
            assertThat(owners).as("0.8.2.2 range over the example's three consumer threads")
                    .isEqualTo(Map.of(0, "c1-0", 1, "c1-0", 2, "c1-1", 3, "c1-1", 4, "c1-2", 5, "c1-2"));
            streamsOfPartition.forEach((p, streams) -> assertThat(streams).as("streams that printed partition " + p)
                    .containsExactly(owners.get(p).substring("c1-".length())));
            assertThat(messages.stream().filter(m -> m[5].equals("k") && m[6].startsWith("v" + m[3] + "-")).count())
                    .as("keys and values decoded by StringDecoder").isEqualTo(messages.size());

            example.shutdown();
        }
        Map<Integer, Long> end = new TreeMap<>();
        IntStream.range(0, partitions).forEach(p -> end.put(p, (long) perPartition));
        assertThat(committed(group, topic, partitions)).as("offsets committed at shutdown").isEqualTo(end);
    }

    @Test
    void bridgeZkGroupConsumerAnd082MembersShareAGroupWithTheRangeAssignmentOf082() throws Exception {
        String group = "bridge-mixed";
        String topic = group + "-t";
        int partitions = 8;
        servers.broker().createTopic(topic, partitions);
        long[] produced;
        DeliveryLog log;
        try (Members members = new Members(List.of(topic));
             SteadyProducer producer = SteadyProducer.start(servers.broker().bootstrapServers(), topic, partitions, 2, Duration.ofMillis(50))) {
            log = members.log;
            LegacyConsumerProcess a = members.join(member(group, "a-bridge", topic, 2).onBridge());
            awaitOwners(group, topic, "a-bridge-0", "a-bridge-0", "a-bridge-0", "a-bridge-0",
                    "a-bridge-1", "a-bridge-1", "a-bridge-1", "a-bridge-1");
            members.join(member(group, "b-legacy", topic, 1));
            awaitOwners(group, topic, "a-bridge-0", "a-bridge-0", "a-bridge-0", "a-bridge-1",
                    "a-bridge-1", "a-bridge-1", "b-legacy-0", "b-legacy-0");
            members.zk("c-zk", servers.consumerProperties(group, "c-zk", 6000));
            awaitOwners(group, topic, "a-bridge-0", "a-bridge-0", "a-bridge-1", "a-bridge-1",
                    "b-legacy-0", "b-legacy-0", "c-zk-0", "c-zk-0");
            members.join(member(group, "d-bridge", topic, 1).onBridge());
            awaitOwners(group, topic, "a-bridge-0", "a-bridge-0", "a-bridge-1", "a-bridge-1",
                    "b-legacy-0", "b-legacy-0", "c-zk-0", "d-bridge-0");
            awaitMore(log, 20 * partitions);

            assertThat(a.shutdown()).isZero();
            awaitOwners(group, topic, "b-legacy-0", "b-legacy-0", "b-legacy-0", "c-zk-0",
                    "c-zk-0", "c-zk-0", "d-bridge-0", "d-bridge-0");
            awaitMore(log, 20 * partitions);
            produced = members.drain(producer);
        }
        assertNothingLost(log, topic, produced);
        // 0.8.2.2's own race is not a hand-over defect: see legacyRecordsDeliveredAfterTheirCommit
        DeliveryLog handOvers = log.handOvers(m -> m.equals("b-legacy"), "Kafka08BridgeIT mixed");
        System.out.println("Kafka08BridgeIT mixed moves: " + handOvers.moves());
        assertThat(handOvers.moves()).as("moves").isNotEmpty().allSatisfy(h -> assertThat(h.overlap()).as(h.toString()).isZero());
        assertThat(handOvers.duplicates()).as("records delivered more than once (member#sequence)").isEmpty();
        assertThat(handOvers.interleavings(Set.of())).as("partitions delivered by two members at once").isEmpty();
        Map<Integer, Long> end = new TreeMap<>();
        IntStream.range(0, partitions).forEach(p -> end.put(p, produced[p]));
        assertThat(committed(group, topic, partitions)).as("offsets committed by the last owners").isEqualTo(end);
    }

    /**
     * A slow member's stream holds messages of every partition it owns, fetched but not handed out yet, when a rebalance
     * moves half of its partitions away: those are dropped, not handed out after the commit that let the next owner
     * start (which would be the same records delivered by two members at once). Its auto-commit interval is longer than
     * the test, so the commit before the revocation and the one at shutdown are its only commits.
     */
    @Test
    void messagesQueuedForARevokedPartitionAreNeverHandedOutAfterTheRevocation() throws Exception {
        // Whether the slow member still has chunks of partitions 2 and 3 queued when they move depends on how far it
        // got while the next member's JVM started; every attempt is judged, and one must have dropped some.
        List<Integer> dropped = new ArrayList<>();
        for (int attempt = 1; attempt <= 3; attempt++) {
            int chunks = revokeWhileSlow("bridge-revoke-" + attempt);
            dropped.add(chunks);
            if (chunks > 0) {
                break;
            }
        }
        assertThat(dropped).as("chunks fetched but not handed out at the revocation, per attempt")
                .anySatisfy(chunks -> assertThat(chunks).isPositive());
    }

    /** One slow member, a second one joins: returns how many queued chunks the revocation dropped. */
    private int revokeWhileSlow(String group) throws Exception {
        String topic = group + "-t";
        int partitions = 4;
        int perPartition = 200;
        servers.broker().createTopic(topic, partitions);
        produce(topic, partitions, perPartition);
        String slowLog;
        DeliveryLog log;
        try (Members members = new Members(List.of(topic))) {
            log = members.log;
            // 15 ms a message: it is still busy with every partition when the next member's JVM has started. Chunks of
            // 10 records and a stream that queues 2 x 512 bytes (a few chunks): its queue cycles through the partitions
            LegacyConsumerProcess slow = members.join(member(group, "a-slow", topic, 1).onBridge().pauseMs(15)
                    .property("max.poll.records", "10").property("fetch.message.max.bytes", "512")
                    .property("auto.commit.interval.ms", "600000"));
            slow.awaitMessages(50, WAIT);
            members.join(member(group, "b-next", topic, 1).onBridge());
            awaitOwners(group, topic, "a-slow-0", "a-slow-0", "b-next-0", "b-next-0");
            members.drain(partitions * perPartition);
            slowLog = slow.stderr();
        }
        java.util.regex.Matcher revoked = java.util.regex.Pattern.compile("revoked \\[" + topic + "-[23], " + topic
                + "-[23]\\]: dropped (\\d+) chunks").matcher(slowLog);
        assertThat(revoked.find()).as("the slow member's revocation of partitions 2 and 3 in its log:\n" + slowLog).isTrue();

        System.out.println("Kafka08BridgeIT revoke moves: " + log.moves());
        String slowCommits = slowLog.lines().filter(l -> l.contains("revoked") || l.contains("commit"))
                .collect(java.util.stream.Collectors.joining("\n"));
        assertThat(log.moves()).as("moves").hasSize(2)
                .allSatisfy(h -> assertThat(h.overlap()).as("handed out after the revocation's commit: " + h
                        + "; the slow member's revocations and commits:\n" + slowCommits).isZero());
        assertThat(log.size()).as("each record delivered once").isEqualTo(partitions * perPartition);
        assertThat(log.interleavings(Set.of())).as("partitions delivered by two members at once").isEmpty();
        Map<Integer, Long> end = new TreeMap<>();
        IntStream.range(0, partitions).forEach(p -> end.put(p, (long) perPartition));
        assertThat(committed(group, topic, partitions)).as("partitions 0 and 1: the slow member's commit at shutdown")
                .isEqualTo(end);
        return Integer.parseInt(revoked.group(1));
    }

    @Test
    void aKilledBridgeMemberLosesNothingItsPartitionsGoOnFromItsLastCommit() throws Exception {
        String group = "bridge-killed";
        String topic = group + "-t";
        int partitions = 4;
        servers.broker().createTopic(topic, partitions);
        Map<Integer, Long> committedAtKill = new TreeMap<>();
        long[] produced;
        DeliveryLog log;
        long started = System.nanoTime();
        try (Members members = new Members(List.of(topic));
             SteadyProducer producer = SteadyProducer.start(servers.broker().bootstrapServers(), topic, partitions, 5, Duration.ofMillis(50))) {
            log = members.log;
            LegacyConsumerProcess killed = members.join(member(group, "a-killed", topic, 1).onBridge()
                    .property("zookeeper.session.timeout.ms", "2000"));
            awaitOwners(group, topic, "a-killed-0", "a-killed-0", "a-killed-0", "a-killed-0");
            // Partitions 2 and 3 move to b-zk gracefully; the log shows that move only if a-killed delivered
            // from them first.
            await("a-killed delivers from every partition").atMost(WAIT).until(() -> IntStream.range(0, partitions)
                    .allMatch(p -> "a-killed".equals(log.lastDeliverer(new TopicPartition(topic, p)))));
            members.zk("b-zk", servers.consumerProperties(group, "b-zk", 6000));
            awaitOwners(group, topic, "a-killed-0", "a-killed-0", "b-zk-0", "b-zk-0");

            int before = killed.messages().size();
            killed.awaitMessages(before + 100, WAIT); // mid-stream
            await("the member to be killed has committed both its partitions").atMost(WAIT)
                    .until(() -> committed(group, topic, 2).keySet().containsAll(List.of(0, 1)));
            killed.kill();
            long killedAt = System.nanoTime();
            committedAtKill.putAll(committed(group, topic, 2));

            awaitOwners(group, topic, "b-zk-0", "b-zk-0", "b-zk-0", "b-zk-0");
            System.out.printf("Kafka08BridgeIT: the survivor owns everything %d ms after the kill%n",
                    (System.nanoTime() - killedAt) / 1_000_000);
            awaitMore(log, 20 * partitions);
            produced = members.drain(producer);
            System.out.printf("Kafka08BridgeIT killed: %d records, %.1f s%n", Arrays.stream(produced).sum(),
                    (System.nanoTime() - started) / 1e9);
        }
        assertNothingLost(log, topic, produced);
        System.out.println("Kafka08BridgeIT killed moves: " + log.moves() + ", committed at kill " + committedAtKill);
        List<DeliveryLog.Move> fromKilled = log.moves().stream()
                .filter(h -> h.from().equals("a-killed") && h.partition().partition() <= 1).toList();
        assertThat(fromKilled).hasSize(2).allSatisfy(h -> {
            assertThat(h.firstOfNext()).as("the survivor starts at the killed member's last commit: " + h)
                    .isEqualTo(committedAtKill.get(h.partition().partition()));
            assertThat(h.overlap()).as(h.toString()).isNotNegative();
        });
        assertThat(log.moves().stream().filter(h -> !fromKilled.contains(h)))
                .as("graceful moves").isNotEmpty().allSatisfy(h -> assertThat(h.overlap()).as(h.toString()).isZero());
        assertThat(log.interleavings(Set.of())).as("partitions delivered by two members at once").isEmpty();
    }

    /**
     * A bridge member crosses to Kafka's group coordinator beside a {@code ZkGroupConsumer} when the decision is
     * recorded (docs/cutover.md), its 0.8 program unchanged: both join Kafka's group, each partition is fetched by one
     * of them once it holds its owner znode, nothing is lost, each move of a partition starts right after its previous
     * holder's last record, and nothing is delivered twice (auto-commit commits on revoke).
     */
    @Test
    void aBridgeMemberCrossesToKafkasGroupCoordinatorWithItsProgramUnchanged() throws Exception {
        String group = "bridge-cutover";
        String topic = group + "-t";
        int partitions = 4;
        servers.broker().createTopic(topic, partitions);
        Map<String, String> crossing = Map.of("offsets.storage", "kafka", "dual.commit.enabled", "true",
                "zkgroups.advertise.capabilities", "true");
        long[] produced;
        DeliveryLog log;
        try (Members members = new Members(List.of(topic));
             SteadyProducer producer = SteadyProducer.start(servers.broker().bootstrapServers(), topic, partitions, 5, Duration.ofMillis(50))) {
            log = members.log;
            LegacyConsumerProcess.Builder bridge = member(group, "a-bridge", topic, 1).onBridge();
            crossing.forEach(bridge::property);
            members.join(bridge);
            // every partition read by the bridge first, so that the next member's join moves two of them
            await("the bridge delivers from every partition").atMost(WAIT).until(() -> log.deliveries().stream()
                    .filter(d -> d.member().equals("a-bridge")).map(DeliveryLog.Delivery::partition).distinct()
                    .count() == partitions);
            Properties zk = servers.consumerProperties(group, "b-zk", 6000);
            crossing.forEach(zk::setProperty);
            members.zk("b-zk", zk);
            awaitOwners(group, topic, "a-bridge-0", "a-bridge-0", "b-zk-0", "b-zk-0");
            awaitMore(log, 20 * partitions);

            ZkRegistry.of(servers.client()).coordination().decide(group,
                    new CoordinationDecision(Coordinator.KAFKA, System.currentTimeMillis()));
            await("both members in Kafka's group").atMost(WAIT).ignoreExceptions().until(() -> servers.broker().admin()
                    .describeConsumerGroups(List.of(group)).describedGroups().get(group).get().members().stream()
                    .filter(m -> m.clientId().endsWith(KafkaGroupMode.CLIENT_ID_SUFFIX)).count() == 2);
            await("every partition fenced by a member of Kafka's group").atMost(WAIT).ignoreExceptions()
                    .until(() -> owners(group, topic).size() == partitions
                            && Set.copyOf(owners(group, topic).values()).equals(Set.of("a-bridge-0", "b-zk-0")));
            assertThat(servers.client().checkExists().forPath("/consumers/" + group + "/ids/" + group + "_a-bridge"))
                    .as("no ZooKeeper registration once on Kafka").isNull();
            awaitMore(log, 20 * partitions);
            produced = members.drain(producer);
        }
        assertNothingLost(log, topic, produced);
        // partitions go a-bridge -> b-zk -> (the crossing) -> either: every move starts right after the previous
        // holder's last record
        assertThat(log.moves()).as("moves").isNotEmpty()
                .allSatisfy(m -> assertThat(m.overlap()).as(m.toString()).isZero());
        assertThat(log.duplicates()).as("delivered twice").isEmpty();
        assertThat(log.deliveries().stream().map(DeliveryLog.Delivery::member).distinct())
                .containsExactlyInAnyOrder("a-bridge", "b-zk");
    }

    /**
     * A slow bridge member frozen (SIGSTOP) past its ZooKeeper session, its stream full of fetched messages, hands out
     * none of them when it wakes: the survivor owns the partition by then. When it gets the partition back it starts
     * at the survivor's commit, and nothing is lost.
     */
    @Test
    void aFrozenBridgeMemberHandsOutNothingItHadQueuedOnceItsSessionIsGone() throws Exception {
        String group = "bridge-frozen";
        String topic = group + "-t";
        int partitions = 2;
        servers.broker().createTopic(topic, partitions);
        long[] produced;
        DeliveryLog log;
        TopicPartition frozenPartition = new TopicPartition(topic, 0);
        try (Members members = new Members(List.of(topic));
             SteadyProducer producer = SteadyProducer.start(servers.broker().bootstrapServers(), topic, partitions, 5, Duration.ofMillis(50))) {
            log = members.log;
            // 100 messages/s per partition, handed out at 50/s: its stream stays full
            LegacyConsumerProcess frozen = members.join(member(group, "a-frozen", topic, 1).onBridge().pauseMs(20)
                    .property("zookeeper.session.timeout.ms", "2000"));
            members.zk("b-zk", servers.consumerProperties(group, "b-zk", 6000));
            awaitOwners(group, topic, "a-frozen-0", "b-zk-0");
            frozen.awaitMessages(frozen.messages().size() + 50, WAIT);

            frozen.signal("STOP");
            try {
                awaitOwners(group, topic, "b-zk-0", "b-zk-0");
                await("the survivor delivers the frozen member's partition").atMost(WAIT)
                        .until(() -> "b-zk".equals(log.lastDeliverer(frozenPartition)));
                awaitMore(log, 50);
            } finally {
                frozen.signal("CONT");
            }
            awaitOwners(group, topic, "a-frozen-0", "b-zk-0"); // it came back with a new session
            awaitMore(log, 20 * partitions);
            produced = members.drain(producer);
        }
        assertNothingLost(log, topic, produced);
        List<DeliveryLog.Move> moves = log.moves().stream()
                .filter(h -> h.partition().equals(frozenPartition)).toList();
        System.out.println("Kafka08BridgeIT frozen moves: " + moves);
        assertThat(moves).as("to the survivor at expiry, back after the thaw").hasSizeGreaterThanOrEqualTo(2);
        assertThat(moves.get(0).to()).isEqualTo("b-zk");
        long lastBeforeFreeze = moves.get(0).lastOfPrevious();
        List<DeliveryLog.Move> back = moves.stream().filter(h -> h.to().equals("a-frozen")).toList();
        assertThat(back).as("it comes back").isNotEmpty();
        // Records the thawed member delivered at or below what the survivor had already delivered. The one record its
        // stream thread had been handed when SIGSTOP came is printed after SIGCONT: the application's processing of a
        // record handed out before the freeze, beyond any check. Nothing else it had queued may go out.
        List<Long> stale = new java.util.ArrayList<>();
        long survivorHighest = -1;
        for (DeliveryLog.Delivery d : log.deliveries()) {
            if (!d.partition().equals(frozenPartition)) {
                continue;
            }
            if (d.member().equals("b-zk")) {
                survivorHighest = Math.max(survivorHighest, d.offset());
            } else if (d.member().equals("a-frozen") && d.offset() <= survivorHighest) {
                stale.add(d.offset());
            }
        }
        assertThat(stale).as("stale records of the thawed member: only the one in hand at the freeze; moves " + moves)
                .isSubsetOf(lastBeforeFreeze + 1).doesNotHaveDuplicates();
        assertThat(back.get(back.size() - 1).overlap())
                .as("the thawed member hands out nothing fetched before its freeze: it starts after the survivor")
                .isZero();
    }

    @Test
    void commitOffsetsStoresThePositionsTheStreamsHandedOutNotTheFetchedOnes() throws Exception {
        String group = "bridge-commit";
        String topic = group + "-t";
        int partitions = 4;
        int perPartition = 30;
        servers.broker().createTopic(topic, partitions);
        produce(topic, partitions, perPartition);

        Map<Integer, Long> handedOut = new TreeMap<>();
        try (LegacyConsumerProcess limited = member(group, "a-limited", topic, 1).onBridge()
                .property("auto.commit.enable", "false").maxMessages(15).start()) {
            limited.awaitReady(WAIT);
            limited.awaitLine(0, "LIMIT 15"::equals, WAIT, "LIMIT");
            limited.messages().forEach(m -> handedOut.merge(m.partition(), m.offset() + 1, Math::max));
            assertThat(committed(group, topic, partitions)).as("nothing committed without auto-commit").isEmpty();
            limited.commit();
            assertThat(committed(group, topic, partitions)).as("commitOffsets(): one past each message handed out")
                    .isEqualTo(handedOut);
            assertThat(limited.shutdown()).isZero();
        }
        assertThat(committed(group, topic, partitions)).as("no commit at shutdown without auto-commit").isEqualTo(handedOut);
    }

    /**
     * The consumer hands out no record more than {@code zkgroups.max.uncommitted.records} past the last commit; the
     * connector's auto-commit commits what its streams handed out as soon as a partition reaches it, not at the
     * interval (ten minutes here), so a backlog many times the cap is consumed and committed on.
     */
    @Test
    void withAutoCommitTheConnectorCommitsAtTheUncommittedCapInsteadOfWaitingForTheInterval() throws Exception {
        String group = "bridge-cap";
        String topic = group + "-t";
        int perPartition = 2_000;
        servers.broker().createTopic(topic, 1);
        produce(topic, 1, perPartition);

        try (LegacyConsumerProcess capped = member(group, "a-capped", topic, 1).onBridge()
                .property("auto.commit.interval.ms", "600000")
                .property("zkgroups.max.uncommitted.records", "50").start()) {
            capped.awaitReady(WAIT);
            assertThat(capped.awaitMessages(perPartition, WAIT))
                    .as("the whole backlog, 40 times the cap, once and in order: each commit at the cap releases the "
                            + "records kept past it, while the streams wake the fetcher as they make room")
                    .extracting(LegacyConsumerProcess.ConsumedMessage::offset)
                    .containsExactlyElementsOf(LongStream.range(0, perPartition).boxed().toList());
            await("committed at the cap, long before the interval").atMost(WAIT)
                    .until(() -> committed(group, topic, 1).getOrDefault(0, 0L) >= perPartition - 50L);
            assertThat(capped.shutdown()).isZero();
        }
    }

    // --- members ---------------------------------------------------------------------------------------------------

    /** A LegacyConsumerMain member with one static subscription; on the bridge if the caller says so. */
    private static LegacyConsumerProcess.Builder member(String group, String consumerId, String topic, int streams) {
        return LegacyConsumerProcess.builder(group + "-" + consumerId)
                .zookeeperConnect(servers.connectString())
                .groupId(group)
                .consumerId(consumerId)
                .property("auto.offset.reset", "smallest")
                .property("auto.commit.enable", "true")
                .property("auto.commit.interval.ms", "100")
                .property("rebalance.backoff.ms", "300")
                .property("rebalance.max.retries", "30")
                .jvmArg("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn")
                .jvmArg("-Dorg.slf4j.simpleLogger.log.io.zkgroups=info")
                .topic(topic, streams);
    }

    /** The members a test starts, what they deliver, and their orderly end; {@code close} stops what is left. */
    private static final class Members implements AutoCloseable {
        final DeliveryLog log = new DeliveryLog();
        private final List<String> topics;
        private final List<LegacyConsumerProcess> processes = new ArrayList<>();
        private final List<Thread> forwarders = new ArrayList<>();
        private final List<ConsumerWorker> workers = new ArrayList<>();

        Members(List<String> topics) {
            this.topics = topics;
        }

        /** Starts a member, waits until it is READY and forwards its messages to the log under its consumer id. */
        LegacyConsumerProcess join(LegacyConsumerProcess.Builder builder) {
            LegacyConsumerProcess process = builder.start();
            processes.add(process);
            String id = process.awaitReady(WAIT);
            String member = id.substring(id.indexOf('_') + 1);
            Thread t = new Thread(() -> {
                int next = 0;
                try {
                    while (true) {
                        int i = process.awaitLine(next, l -> l.startsWith("MSG "), Duration.ofMinutes(10), "MSG");
                        String[] f = process.output().get(i).split(" ", 5); // MSG topic partition offset ...
                        log.record(member, new TopicPartition(f[1], Integer.parseInt(f[2])), Long.parseLong(f[3]));
                        next = i + 1;
                    }
                } catch (AssertionError exited) {
                    // stdout closed: every line has been read
                }
            }, "forward-" + member);
            t.setDaemon(true);
            t.start();
            forwarders.add(t);
            return process;
        }

        /** A ZkGroupConsumer member in this JVM. */
        void zk(String consumerId, Properties props) {
            workers.add(new ConsumerWorker(consumerId, props, topics, log));
        }

        /** Stops the producer, then {@link #drain(long)}s what it wrote; returns that, per partition. */
        long[] drain(SteadyProducer producer) throws InterruptedException {
            long[] produced = producer.stop();
            drain(Arrays.stream(produced).sum());
            return produced;
        }

        /** Waits until {@code records} distinct records were delivered, then shuts every live member down cleanly. */
        void drain(long records) throws InterruptedException {
            await("all " + records + " records delivered").atMost(WAIT).until(() -> log.distinct() >= records);
            for (ConsumerWorker worker : workers) {
                worker.close();
                assertThat(worker.failed()).isFalse();
            }
            workers.clear();
            for (LegacyConsumerProcess p : processes) {
                if (p.isAlive()) {
                    assertThat(p.shutdown()).as(p.name()).isZero();
                }
            }
            for (Thread t : forwarders) {
                t.join(10_000);
            }
        }

        @Override
        public void close() {
            processes.forEach(LegacyConsumerProcess::close);
            for (ConsumerWorker worker : workers) {
                try {
                    worker.close();
                } catch (RuntimeException e) {
                    System.err.println("after a failure: " + e.getMessage());
                }
            }
        }
    }

    private static void assertNothingLost(DeliveryLog log, String topic, long[] produced) {
        for (int p = 0; p < produced.length; p++) {
            assertThat(log.missing(new TopicPartition(topic, p), produced[p])).as("never delivered, partition " + p).isEmpty();
        }
    }

    // --- observations ----------------------------------------------------------------------------------------------

    private static void produce(String topic, int partitions, int perPartition) {
        List<io.zkgroups.embedded.EmbeddedKafka.Record> records = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            for (int i = 0; i < perPartition; i++) {
                records.add(io.zkgroups.embedded.EmbeddedKafka.Record.to(p, "k", "v" + p + "-" + i));
            }
        }
        servers.broker().produce(topic, records.toArray(io.zkgroups.embedded.EmbeddedKafka.Record[]::new));
    }

    private static void awaitMore(DeliveryLog log, int more) {
        long target = log.distinct() + more;
        await(more + " more records delivered").atMost(WAIT).until(() -> log.distinct() >= target);
    }

    /** Waits until partition i is owned by the consumer thread {@code threads[i]} ({@code <consumer.id>-<k>}). */
    private static void awaitOwners(String group, String topic, String... threads) {
        Map<Integer, String> expected = new TreeMap<>();
        IntStream.range(0, threads.length).forEach(i -> expected.put(i, threads[i]));
        await("owners " + expected).atMost(WAIT).pollInterval(Duration.ofMillis(20)).ignoreExceptions()
                .until(() -> owners(group, topic).equals(expected));
    }

    /** Partition → owning consumer thread without the group prefix ({@code <consumer.id>-<k>}), from the owner znodes. */
    private static Map<Integer, String> owners(String group, String topic) throws Exception {
        Map<Integer, String> owners = new TreeMap<>();
        String path = "/consumers/" + group + "/owners/" + topic;
        if (servers.client().checkExists().forPath(path) == null) {
            return owners;
        }
        for (String partition : servers.client().getChildren().forPath(path)) {
            String thread = new String(servers.client().getData().forPath(path + "/" + partition), StandardCharsets.UTF_8);
            owners.put(Integer.parseInt(partition), thread.substring(group.length() + 1));
        }
        return owners;
    }

    private static Map<Integer, Long> committed(String group, String topic, int partitions) {
        List<TopicAndPartition> all = IntStream.range(0, partitions).mapToObj(p -> TopicAndPartition.of(topic, p)).toList();
        Map<Integer, Long> result = new TreeMap<>();
        ZkRegistry.of(servers.client()).offsets().read(group, all).offsets().forEach((tp, o) -> result.put(tp.partition(), o));
        return result;
    }

    /** The 0.8 wiki's ConsumerGroupExample (legacy-driver, compiled against 0.8.2.2) in a child JVM on the bridge. */
    static final class ExampleProcess implements AutoCloseable {
        private final ChildJvm jvm;
        final ChildOutput output;
        private final Path stderr;

        private ExampleProcess(ChildJvm jvm, Path stderr) {
            this.jvm = jvm;
            this.stderr = stderr;
            this.output = jvm.output();
        }

        static ExampleProcess start(String zookeeperConnect, String group, String topic, int threads, String consumerId)
                throws IOException {
            return start(Path.of(System.getProperty("java.home"), "bin", "java"), zookeeperConnect, group, topic, threads,
                    consumerId);
        }

        /** As above, on the JVM of {@code java} (e.g. an older Java: the bridge and the example are Java 8 code). */
        static ExampleProcess start(Path java, String zookeeperConnect, String group, String topic, int threads,
                                    String consumerId) throws IOException {
            Path dir = Files.createDirectories(Path.of("target", "bridge-example").toAbsolutePath());
            Path stderr = dir.resolve(group + "-stderr.log");
            ChildJvm jvm = ChildJvm.builder("example-" + consumerId, "io.zkgroups.legacy.ConsumerGroupExample")
                    .java(java).classpath(LegacyConsumerProcess.classpath(true)).heapMb(128)
                    .jvmOptions(List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                            "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-Dorg.slf4j.simpleLogger.log.io.zkgroups=info"))
                    .args(List.of(zookeeperConnect, group, topic, String.valueOf(threads), consumerId))
                    .stderrTo(stderr)
                    .start();
            return new ExampleProcess(jvm, stderr);
        }

        /** MSG lines split into: MSG stream topic partition offset key value. */
        List<String[]> messages() {
            return output.lines().stream().filter(l -> l.startsWith("MSG ")).map(l -> l.split(" ", 7)).toList();
        }

        void shutdown() throws Exception {
            jvm.send("shutdown");
            jvm.closeStdin();
            output.requireLine(0, "CLOSED"::equals, WAIT, "CLOSED", what -> new AssertionError(what + "\n" + stderrText()));
            assertThat(jvm.process().waitFor()).isZero();
        }

        String stderrText() {
            return jvm.logTail(Integer.MAX_VALUE);
        }

        @Override
        public void close() {
            if (jvm.isAlive()) {
                jvm.process().destroyForcibly();
            }
        }
    }
}
