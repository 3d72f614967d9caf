package io.zkgroups.it.consumer;

import io.zkgroups.embedded.EmbeddedKafka;
import io.zkgroups.it.support.LegacyConsumerProcess;
import io.zkgroups.rebalancer.consumer.ZkGroupConsumer;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.BrokerInfo;
import io.zkgroups.registry.model.CoordinationDecision;
import io.zkgroups.registry.model.Coordinator;
import io.zkgroups.registry.model.TopicRegistration;
import io.zkgroups.testing.ChildKafkaBroker;
import io.zkgroups.testing.GroupWorker;
import io.zkgroups.testing.HoldMonitor;
import io.zkgroups.testing.SteadyProducer;
import io.zkgroups.testing.TcpProxy;
import io.zkgroups.testing.TestZooKeeper;
import io.zkgroups.tool.Main;
import org.apache.curator.framework.CuratorFramework;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code zkgroups migrate coordination} on a live group of ZkGroupConsumers under a running producer (docs/cutover.md):
 * every member crosses to Kafka's group coordinator in its own process, no partition is held by two members at once
 * (per-record times against the members' listener callbacks), nothing is lost and, with commit on revoke, nothing is
 * delivered twice; then the roll to plain KafkaConsumers; a member killed or frozen in the middle; and the guard rails:
 * the refusal while a real 0.8.2.2 consumer is registered, while the group's offsets are in ZooKeeper only, while the
 * group rebalances, while Kafka's group of the same id has members, and of the way back while a plain KafkaConsumer
 * is in Kafka's group.
 */
@Timeout(600)
class CoordinationCutoverIT {

    private static final String TOPIC = "cutover-orders";
    private static final int PARTITIONS = 8;
    /** The killed member's zkgroups.max.uncommitted.records: well above what auto-commit every 100 ms leaves. */
    private static final int KILLED_MAX_UNCOMMITTED = 60;

    private TestZooKeeper zk;
    private final DeliveryLog log = new DeliveryLog();
    private final HoldMonitor monitor = new HoldMonitor();
    /** The broker's address when it is not registered in ZooKeeper (KRaft): given to members and the CLI. */
    private String bootstrap;
    private final List<GroupWorker> members = new ArrayList<>();

    @Test
    void aLiveFourMemberGroupCrossesToKafkaThenRollsToPlainKafkaConsumersLosingNothing() throws Exception {
        String group = "cutover";
        try (TestZooKeeper server = (zk = TestZooKeeper.start());
             EmbeddedKafka kafka = EmbeddedKafka.startZooKeeperMode(server.connectString());
             SteadyProducer producer = producerOnNewTopic(kafka)) {
            startGroup(group, 4);
            Run plan = cli("migrate", "coordination", "--group", group, "--to", "kafka");
            assertThat(plan.out).contains("Would move group " + group + " from zookeeper to kafka");

            long switched = System.nanoTime();
            Run execute = cli("migrate", "coordination", "--group", group, "--to", "kafka", "--execute");
            assertThat(execute.code).as(execute.toString()).isZero();
            long[] fetchedAgain = new long[1];
            await().atMost(Duration.ofSeconds(120)).until(() -> {
                boolean allOnKafka = members.stream().allMatch(m -> ((ZkGroupConsumer<?, ?>) m.consumer).coordinator()
                        .equals("kafka"));
                fetchedAgain[0] = allOnKafka ? monitor.allFetchedAgainAfter(switched, partitions()) : -1;
                return fetchedAgain[0] > 0;
            });
            System.out.printf("cutover pause (switch -> every partition fetched again): %d ms%n",
                    TimeUnit.NANOSECONDS.toMillis(fetchedAgain[0] - switched));
            assertThat(members).noneMatch(GroupWorker::failed);
            assertThat(cli("migrate", "coordination", "--group", group, "--to", "kafka").out)
                    .contains("is coordinated by kafka already");
            // health and describe read the group on Kafka's coordinator: its members there, the owner znodes as fences
            Run health = cli("health", "--group", group, "--expect-members", "4", "--wait", "60s", "--no-store-check");
            assertThat(health.code).as(health.toString()).isZero();
            assertThat(health.out).contains("coordinator kafka (group stable, coordinator broker ");
            Run state = cli("groups", "describe", "--group", group, "--state");
            assertThat(state.code).as(state.toString()).isZero();
            assertThat(state.out).containsPattern(group + " +stable +4 +kafka:\\S+ .* kafka \\S+:\\d+ \\(fences: /consumers/"
                    + group + "/owners\\)");
            Run described = cli("groups", "describe", "--group", group, "--members", "--output", "json");
            assertThat(described.code).as(described.toString()).isZero();
            // one row per member of Kafka's group (their client ids are all the same), together assigned everything
            com.fasterxml.jackson.databind.JsonNode kafkaMembers = new com.fasterxml.jackson.databind.ObjectMapper()
                    .readTree(described.out).path("members");
            assertThat(kafkaMembers).as(described.out).hasSize(4);
            Set<String> assignedToMembers = new HashSet<>();
            kafkaMembers.forEach(m -> m.path("assignment").path(TOPIC).forEach(p -> assignedToMembers.add(p.asText())));
            assertThat(assignedToMembers).as(described.out).hasSize(PARTITIONS);
            Run lag = cli("lag", "--group", group);
            assertThat(lag.out).as(lag.toString())
                    .containsPattern("GROUP " + group + " .* MEMBERS 4 .*COORDINATOR kafka")
                    .doesNotContain("(not a member)");
            aForgotten0822ConsumerClaimsNothingAndIsNamed(group);

            // a member started after the switch follows the decision: it joins Kafka's group directly
            members.add(zkGroupMember(group, "zk5"));
            await().atMost(Duration.ofSeconds(60)).until(() -> monitor.allFetchedAgainAfter(switched, partitions()) > 0
                    && ((ZkGroupConsumer<?, ?>) members.get(4).consumer).coordinator().equals("kafka"));

            // afterwards, plain Kafka: a rolling restart replaces every zkgroups member by a plain KafkaConsumer
            int size = members.size();
            for (int i = 0; i < size; i++) {
                members.remove(0).close();
                members.add(plainMember(kafka, group, "plain" + (i + 1)));
                if (i == 0) {
                    theWayBackIsRefusedWhileAPlainKafkaConsumerIsInTheGroup(kafka, group, "plain1");
                }
            }
            long rolled = System.nanoTime();
            await().atMost(Duration.ofSeconds(120)).until(() -> monitor.allFetchedAgainAfter(rolled, partitions()) > 0);

            finish(producer);
        }
    }

    /**
     * A 0.8.2.2 consumer started in a group on Kafka registers, is given every partition by its own assignor (it sees no
     * other registration) and claims none, since the zkgroups members keep their owner znodes; health and describe name
     * it, and health passes again once it is gone.
     */
    private void aForgotten0822ConsumerClaimsNothingAndIsNamed(String group) throws Exception {
        String id = group + "_forgotten";
        try (LegacyConsumerProcess forgotten = LegacyConsumerProcess.builder(group + "-forgotten")
                .zookeeperConnect(zk.connectString()).groupId(group).consumerId("forgotten")
                .property("auto.offset.reset", "smallest").property("zookeeper.session.timeout.ms", "4000")
                // it keeps trying, registered, instead of giving up after 0.8.2.2's 4 tries
                .property("rebalance.max.retries", "1000").property("rebalance.backoff.ms", "500")
                .topic(TOPIC, 1).jvmArg("-Dlegacy.driver.logLevel=INFO").start()) {
            // its log tells when a rebalance ended; two more than the file held at its start (it is appended to
            // across runs of the test) mean the first failed to claim
            long endedBefore = rebalancesEnded(forgotten, id);
            await().atMost(Duration.ofSeconds(60)).until(() -> rebalancesEnded(forgotten, id) >= endedBefore + 2);
            assertThat(ownerZnodeValues(group)).as("owner znodes").hasSize(PARTITIONS)
                    .noneMatch(owner -> owner.startsWith(id));
            assertThat(forgotten.output()).as("nothing delivered, never READY")
                    .noneMatch(line -> line.startsWith("MSG ") || line.startsWith("READY "));

            Run health = cli("health", "--group", group, "--expect-members", "4", "--no-store-check");
            assertThat(health.code).as(health.toString()).isEqualTo(20);
            assertThat(health.out).contains("1 consumers are registered in ZooKeeper (/consumers/" + group + "/ids)")
                    .contains(id + " (a 0.8.2.2 or kafka-node consumer");
            Run described = cli("groups", "describe", "--group", group);
            assertThat(described.code).as(described.toString()).isZero();
            assertThat(described.err).contains("registered in ZooKeeper").contains(id);
            forgotten.kill();
        }
        gate(group, 4); // its registration goes with its session
    }

    /** {@code --to zookeeper} is refused, naming the plain consumer, while one is in Kafka's group; nothing is written. */
    private void theWayBackIsRefusedWhileAPlainKafkaConsumerIsInTheGroup(EmbeddedKafka kafka, String group,
                                                                          String plainClientId) throws Exception {
        await().atMost(Duration.ofSeconds(60)).until(() -> kafka.admin().describeConsumerGroups(List.of(group))
                .describedGroups().get(group).get(10, TimeUnit.SECONDS).members().stream()
                .anyMatch(m -> m.clientId().equals(plainClientId)));
        byte[] decision = zk.newClient(10_000).getData().forPath("/consumers/" + group + "/zkgroups-coordination");
        Run back = cli("migrate", "coordination", "--group", group, "--to", "zookeeper", "--execute");
        assertThat(back.code).as(back.toString()).isEqualTo(13);
        assertThat(back.err).contains("kafka-members").contains("not zkgroups members")
                .contains("client.id " + plainClientId);
        assertThat(back.out).contains("nothing was written");
        assertThat(zk.newClient(10_000).getData().forPath("/consumers/" + group + "/zkgroups-coordination"))
                .isEqualTo(decision);
        assertThat(members).filteredOn(m -> m.consumer instanceof ZkGroupConsumer)
                .allSatisfy(m -> assertThat(((ZkGroupConsumer<?, ?>) m.consumer).coordinator()).isEqualTo("kafka"));
    }

    /** How many rebalances of consumer {@code id} the 0.8.2.2 consumer's log (at INFO) says have ended. */
    private static long rebalancesEnded(LegacyConsumerProcess legacy, String id) {
        return legacy.stderr().lines().filter(line -> line.contains("end rebalancing consumer " + id + " try #")).count();
    }

    /** The values of the group's owner znodes: the thread ids that hold the partitions. */
    private List<String> ownerZnodeValues(String group) throws Exception {
        var client = zk.newClient(10_000);
        String topicOwners = "/consumers/" + group + "/owners/" + TOPIC;
        List<String> values = new ArrayList<>();
        for (String partition : client.getChildren().forPath(topicOwners)) {
            values.add(new String(client.getData().forPath(topicOwners + "/" + partition), StandardCharsets.UTF_8));
        }
        return values;
    }

    @Test
    void theSwitchIsRefusedWhileA0822ConsumerIsRegisteredNothingIsWrittenAndTheGroupDeliversOn() {
        String group = "cutover-legacy";
        try (TestZooKeeper server = (zk = TestZooKeeper.start());
             EmbeddedKafka kafka = EmbeddedKafka.startZooKeeperMode(server.connectString());
             SteadyProducer producer = producerOnNewTopic(kafka);
             LegacyConsumerProcess legacy = LegacyConsumerProcess.builder(group + "-legacy")
                     .zookeeperConnect(server.connectString()).groupId(group).consumerId("legacy")
                     .property("offsets.storage", "kafka").property("dual.commit.enabled", "true")
                     .property("auto.offset.reset", "smallest").property("auto.commit.interval.ms", "1000")
                     .property("rebalance.backoff.ms", "300").property("rebalance.max.retries", "30")
                     .property("offsets.channel.backoff.ms", "200").topic(TOPIC, 1).start()) {
            legacy.awaitReady(LegacyConsumerProcess.DEFAULT_TIMEOUT);
            Thread followed = log.follow(legacy, "legacy");
            // it has delivered from every partition: the ones the zkgroups member takes next are a hand-over to check
            await().atMost(Duration.ofSeconds(60)).until(() -> log.deliveries().stream()
                    .map(DeliveryLog.Delivery::partition).distinct().count() == PARTITIONS);
            members.add(zkGroupMember(group, "zk1"));
            gate(group, 2);

            assertThat(refusedToKafka(group).err).contains("members that cannot cross are registered")
                    .contains(legacy.consumerId())
                    .contains("0.8.2.2");
            assertThat(((ZkGroupConsumer<?, ?>) members.get(0).consumer).coordinator()).isEqualTo("zookeeper");

            // the group goes on as before: both deliver after the refusal, every record once, no overlap
            long refusedAt = log.deliveries().size();
            await().atMost(Duration.ofSeconds(60)).until(() -> log.deliveries().stream()
                    .filter(d -> d.sequence() > refusedAt).map(DeliveryLog.Delivery::member).distinct().count() == 2);
            long[] produced = producer.stop();
            await().atMost(Duration.ofSeconds(60)).until(() -> missing(produced) == 0);
            members.remove(0).close();
            assertThat(legacy.shutdown()).isZero();
            followed.join(10_000);
            assertThat(monitor.violations()).isEmpty();
            // 0.8.2.2's own race (a record handed out after its release commit) is not a hand-over defect
            DeliveryLog handOvers = log.handOvers("legacy"::equals, "theSwitchIsRefusedWhileA0822ConsumerIsRegistered");
            assertThat(handOvers.duplicates()).as("moves %s", handOvers.moves()).isEmpty();
            assertThat(handOvers.interleavings(Set.of())).isEmpty();
            assertThat(handOvers.moves()).isNotEmpty()
                    .allSatisfy(move -> assertThat(move.overlap()).as(move.toString()).isZero());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void theSwitchIsRefusedWhileTheGroupRebalancesOrWhileKafkasGroupOfTheSameIdHasMembers() throws Exception {
        String group = "cutover-unstable";
        try (TestZooKeeper server = (zk = TestZooKeeper.start());
             EmbeddedKafka kafka = EmbeddedKafka.startZooKeeperMode(server.connectString());
             SteadyProducer producer = producerOnNewTopic(kafka)) {
            startGroup(group, 2);
            // a member that does not poll cannot release what the assignor moves to a third one: the group is
            // rebalancing for as long as it does not poll (up to zkgroups.revoke.timeout.ms, 5 minutes)
            GroupWorker slow = members.get(1);
            slow.pausePolling();
            await().atMost(Duration.ofSeconds(10)).until(slow::parked);
            members.add(zkGroupMember(group, "zk3"));
            await().atMost(Duration.ofSeconds(60)).until(() -> zk.newClient(10_000).getChildren()
                    .forPath("/consumers/" + group + "/ids").size() == 3);

            assertThat(refusedToKafka(group).err).contains("state: group rebalancing");
            assertThat(members).allSatisfy(m -> assertThat(((ZkGroupConsumer<?, ?>) m.consumer).coordinator())
                    .isEqualTo("zookeeper"));

            slow.resumePolling();
            awaitSwitchable(group, 3);
            finish(producer);

            // a consumer of Kafka's own protocol with the same group.id: refused, naming it
            try (GroupWorker foreign = plainMember(kafka, group, "foreign")) {
                await().atMost(Duration.ofSeconds(60)).until(() -> kafka.admin().describeConsumerGroups(List.of(group))
                        .describedGroups().get(group).get(10, TimeUnit.SECONDS).members().stream()
                        .anyMatch(m -> m.clientId().equals("foreign")));
                assertThat(refusedToKafka(group).err)
                        .contains("kafka: Kafka's group " + group + " has members already: foreign@");
            }

            // Kafka cannot store the group's commits: fewer replicas in sync than min.insync.replicas
            ConfigResource offsetsTopic = new ConfigResource(ConfigResource.Type.TOPIC, "__consumer_offsets");
            alterConfig(kafka, offsetsTopic, new AlterConfigOp(new ConfigEntry("min.insync.replicas", "2"),
                    AlterConfigOp.OpType.SET));
            try {
                assertThat(refusedToKafka(group).err).contains("kafka-writable: __consumer_offsets-")
                        .contains("1 of 1 replicas in sync (min.insync.replicas 2)");
            } finally {
                alterConfig(kafka, offsetsTopic, new AlterConfigOp(new ConfigEntry("min.insync.replicas", ""),
                        AlterConfigOp.OpType.DELETE));
            }
        }
    }

    private static void alterConfig(EmbeddedKafka kafka, ConfigResource resource, AlterConfigOp op) throws Exception {
        kafka.admin().incrementalAlterConfigs(Map.of(resource, List.of(op))).all().get(30, TimeUnit.SECONDS);
    }

    @Test
    void theSwitchIsRefusedWhileTheGroupsOffsetsAreInZooKeeperOnly() throws Exception {
        String group = "cutover-zk-offsets";
        try (TestZooKeeper server = (zk = TestZooKeeper.start());
             EmbeddedKafka kafka = EmbeddedKafka.startZooKeeperMode(server.connectString());
             SteadyProducer producer = producerOnNewTopic(kafka)) {
            members.add(zkGroupMember(group, "zk1", Map.of("offsets.storage", "zookeeper",
                    "dual.commit.enabled", "false")));
            gate(group, 1);
            // once it has committed, the phase is zookeeper-only: Kafka holds nothing the members could start from
            await().atMost(Duration.ofSeconds(60)).until(() -> !zooKeeperOffsets(group).isEmpty());

            assertThat(refusedToKafka(group).err).contains("offsets: phase zookeeper-only")
                    .contains("move the offsets to Kafka first");
            assertThat(((ZkGroupConsumer<?, ?>) members.get(0).consumer).coordinator()).isEqualTo("zookeeper");
            finish(producer);
        }
    }

    @Test
    void aMemberSlowToCrossKeepsItsPartitionsUntilItLetsGoAndNobodyFetchesThemMeanwhile() throws Exception {
        String group = "cutover-slow";
        try (TestZooKeeper server = (zk = TestZooKeeper.start());
             EmbeddedKafka kafka = EmbeddedKafka.startZooKeeperMode(server.connectString());
             SteadyProducer producer = producerOnNewTopic(kafka)) {
            startGroup(group, 4);
            GroupWorker slow = members.get(3);
            slow.pausePolling();
            await().atMost(Duration.ofSeconds(10)).until(slow::parked);
            Set<TopicPartition> slowHolds = monitor.heldBy(slow.name);
            assertThat(slowHolds).isNotEmpty();

            long switched = System.nanoTime();
            assertThat(cli("migrate", "coordination", "--group", group, "--to", "kafka", "--execute").code).isZero();
            // the three others are in Kafka's group, which assigns every partition among them ...
            await().atMost(Duration.ofSeconds(60)).until(() -> onKafka(members.subList(0, 3))
                    && kafkaAssignment(kafka, group).size() == PARTITIONS);
            // ... but the slow member still holds its owner znodes: nobody fetches its partitions
            assertThat(monitor.heldBy(slow.name)).isEqualTo(slowHolds);
            for (GroupWorker m : members.subList(0, 3)) {
                assertThat(monitor.heldBy(m.name)).doesNotContainAnyElementsOf(slowHolds);
            }
            slow.resumePolling();
            await().atMost(Duration.ofSeconds(120)).until(() -> onKafka(members)
                    && monitor.allFetchedAgainAfter(switched, partitions()) > 0);

            finish(producer);
        }
    }

    @Test
    void aGroupOnKafkaComesBackToZooKeeperLosingNothing() {
        String group = "cutover-back";
        try (TestZooKeeper server = (zk = TestZooKeeper.start());
             EmbeddedKafka kafka = EmbeddedKafka.startZooKeeperMode(server.connectString());
             SteadyProducer producer = producerOnNewTopic(kafka)) {
            startGroup(group, 3);
            long switched = System.nanoTime();
            assertThat(cli("migrate", "coordination", "--group", group, "--to", "kafka", "--execute").code).isZero();
            await().atMost(Duration.ofSeconds(120)).until(() -> onKafka(members)
                    && monitor.allFetchedAgainAfter(switched, partitions()) > 0);

            Run plan = cli("migrate", "coordination", "--group", group, "--to", "zookeeper");
            assertThat(plan.code).as(plan.toString()).isZero();
            assertThat(plan.out).contains("3 members in Kafka's group, all zkgroups members");
            long back = System.nanoTime();
            Run rollback = cli("migrate", "coordination", "--group", group, "--to", "zookeeper", "--execute");
            assertThat(rollback.code).as(rollback.toString()).isZero();
            await().atMost(Duration.ofSeconds(120)).until(() -> members.stream().noneMatch(
                    m -> ((ZkGroupConsumer<?, ?>) m.consumer).coordinator().equals("kafka"))
                    && monitor.allFetchedAgainAfter(back, partitions()) > 0);
            gate(group, 3);
            // both decisions are in the audit journal, so in the group's history
            Run history = cli("history", "--group", group);
            assertThat(history.code).as(history.toString()).isZero();
            assertThat(history.out).contains("coordination zookeeper -> kafka: zkgroups migrate coordination")
                    .contains("coordination kafka -> zookeeper: zkgroups migrate coordination");
            System.out.printf("rollback pause (switch -> every partition fetched again): %d ms%n",
                    TimeUnit.NANOSECONDS.toMillis(monitor.allFetchedAgainAfter(back, partitions()) - back));

            finish(producer);
        }
    }

    @ParameterizedTest
    @EnumSource(Broker.class)
    void aMemberKilledInTheMiddleOfTheSwitchLeavesNothingLostAndNothingFetchedTwiceAtOnce(Broker broker) throws Exception {
        String group = "cutover-kill";
        try (TestZooKeeper server = (zk = TestZooKeeper.start());
             TestBroker kafka = start(broker, server);
             SteadyProducer producer = producerOnNewTopic(kafka)) {
            for (int i = 1; i <= 3; i++) {
                members.add(zkGroupMember(group, "zk" + i));
            }
            Map<String, String> killedProps = childProperties(group, "killed");
            killedProps.put("zkgroups.max.uncommitted.records", Integer.toString(KILLED_MAX_UNCOMMITTED));
            ChildConsumer killed = ChildConsumer.start("killed", TOPIC, killedProps, log);
            try {
                awaitSwitchable(group, 4);
                int before = killed.delivered();
                killed.awaitDelivered(before + 1, Duration.ofSeconds(60));

                long switched = System.nanoTime();
                long sequenceAtSwitch = log.deliveries().size();
                assertThat(cli("migrate", "coordination", "--group", group, "--to", "kafka", "--execute").code).isZero();
                killed.kill();
                // what it held and had committed when it died: nobody else commits those partitions before its
                // session has expired (their owner znodes are its), a later write can only raise an offset
                // (its owner znodes, not its listener's output: a partition it had begun to revoke when it died is
                // released only once its commit is done and its owner znode deleted)
                Set<TopicPartition> heldAtKill = ownedBy(group, group + "_killed-0");
                long sequenceAtKill = log.deliveries().size(); // every line it wrote has been read
                Map<TopicPartition, Long> committedAtKill = zooKeeperOffsets(group);
                // its partitions are fetched again once its ZooKeeper session has expired and its owner znodes are gone
                await().atMost(Duration.ofSeconds(120)).until(() -> onKafka(members)
                        && monitor.allFetchedAgainAfter(switched, partitions()) > 0);

                long[] produced = producer.stop();
                await().atMost(Duration.ofSeconds(60)).until(() -> missing(produced) == 0);
                for (GroupWorker m : members) {
                    m.close();
                }
                assertThat(monitor.violations()).isEmpty();
                // no partition was fetched by another member before the killed one's last delivery of it
                Map<TopicPartition, Long> lastOfKilled = new HashMap<>();
                log.deliveries().stream().filter(d -> d.member().equals("killed"))
                        .forEach(d -> lastOfKilled.merge(d.partition(), d.sequence(), Math::max));
                assertThat(log.deliveries()).filteredOn(d -> !d.member().equals("killed")
                                && d.sequence() > sequenceAtSwitch && lastOfKilled.containsKey(d.partition()))
                        .allSatisfy(d -> assertThat(d.sequence()).as(d.toString())
                                .isGreaterThan(lastOfKilled.get(d.partition())));
                // duplicates only where the killed member had delivered and not committed
                assertThat(log.moves()).filteredOn(move -> !move.from().equals("killed"))
                        .allSatisfy(move -> assertThat(move.overlap()).as(move.toString()).isZero());
                List<DeliveryLog.Move> fromKilled = log.moves().stream().filter(m -> m.from().equals("killed")).toList();
                assertThat(fromKilled).as("moves away from the killed member").isNotEmpty();
                fromKilled.forEach(move -> System.out.printf("after the kill: %s re-delivered %d records (held at the "
                        + "kill: %s)%n", move.partition(), move.overlap(), heldAtKill.contains(move.partition())));
                // per partition, at most its zkgroups.max.uncommitted.records (docs/fence.md)
                assertThat(fromKilled).allSatisfy(move -> assertThat(move.overlap()).as(move.toString())
                        .isLessThanOrEqualTo(KILLED_MAX_UNCOMMITTED));
                // what it released before the kill it released with its commit
                assertThat(fromKilled).filteredOn(move -> !heldAtKill.contains(move.partition()))
                        .allSatisfy(move -> assertThat(move.overlap()).as(move.toString()).isZero());
                // what it held at the kill, the next owner re-delivers at most what it had delivered and not committed:
                // it starts at or after the offset committed then (docs/cutover.md)
                for (TopicPartition tp : heldAtKill) {
                    DeliveryLog.Delivery firstAfter = log.deliveries().stream()
                            .filter(d -> d.partition().equals(tp) && d.sequence() > sequenceAtKill)
                            .min(Comparator.comparingLong(DeliveryLog.Delivery::sequence)).orElseThrow();
                    assertThat(firstAfter.offset()).as(firstAfter + " after the kill")
                            .isGreaterThanOrEqualTo(committedAtKill.getOrDefault(tp, 0L));
                }
            } finally {
                killed.destroy();
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Broker.class)
    void aMemberFrozenPastItsSessionInTheMiddleOfTheSwitchFollowsItWhenItThaws(Broker broker) throws Exception {
        String group = "cutover-frozen";
        try (TestZooKeeper server = (zk = TestZooKeeper.start());
             TestBroker kafka = start(broker, server);
             SteadyProducer producer = producerOnNewTopic(kafka)) {
            for (int i = 1; i <= 3; i++) {
                members.add(zkGroupMember(group, "zk" + i));
            }
            ChildConsumer frozen = ChildConsumer.start("frozen", TOPIC, childProperties(group, "frozen"), log);
            try {
                awaitSwitchable(group, 4);
                frozen.awaitDelivered(frozen.delivered() + 1, Duration.ofSeconds(60));

                long switched = System.nanoTime();
                assertThat(cli("migrate", "coordination", "--group", group, "--to", "kafka", "--execute").code).isZero();
                frozen.signal("STOP");
                // what it had committed when it froze: its next owner may re-deliver from there, not from earlier
                Map<TopicPartition, Long> committedAtFreeze = zooKeeperOffsets(group);
                // Kafka's group fetches every partition once the frozen member's session has expired
                await().atMost(Duration.ofSeconds(120)).until(() -> onKafka(members)
                        && monitor.allFetchedAgainAfter(switched, partitions()) > 0);
                assertThat(zk.newClient(10_000).getChildren().forPath("/consumers/" + group + "/ids")).isEmpty();

                int eventsAtThaw = frozen.events().size();
                frozen.signal("CONT");
                // it follows the decision: it joins Kafka's group and is assigned partitions there
                frozen.awaitLine(eventsAtThaw, line -> line.matches("ASSIGNED \\S+"), Duration.ofSeconds(120),
                        "an assignment after the thaw");
                await().atMost(Duration.ofSeconds(60)).until(() -> kafka.admin().describeConsumerGroups(List.of(group))
                        .describedGroups().get(group).get(10, TimeUnit.SECONDS).members().size() == 4);
                int deliveredAfterThaw = frozen.delivered();
                frozen.awaitDelivered(deliveredAfterThaw + 1, Duration.ofSeconds(60));

                long[] produced = producer.stop();
                await().atMost(Duration.ofSeconds(60)).until(() -> missing(produced) == 0);
                for (GroupWorker m : members) {
                    m.close();
                }
                frozen.close();
                assertThat(monitor.violations()).isEmpty();
                // a move away from the frozen member re-delivers at most what it had delivered and not committed: its
                // next owner starts at that commit or later, or right after the frozen member's last record (when the
                // member had crossed to Kafka's group before it froze, ZooKeeper's offsets are no longer the ones used)
                assertThat(log.moves()).filteredOn(move -> move.from().equals("frozen"))
                        .allSatisfy(move -> assertThat(move.firstOfNext()).as(move.toString())
                                .isGreaterThanOrEqualTo(Math.min(committedAtFreeze.getOrDefault(move.partition(), 0L),
                                        move.lastOfPrevious() + 1)));
                // every other move (to the thawed member included) starts right where the previous holder stopped:
                // after the thaw it delivered nothing it had fetched before it froze
                assertThat(log.moves()).filteredOn(move -> !move.from().equals("frozen"))
                        .allSatisfy(move -> assertThat(move.overlap()).as(move.toString()).isZero());
                log.moves().stream().filter(move -> move.from().equals("frozen")).forEach(move ->
                        System.out.printf("after the freeze: %s re-delivered %d records%n", move.partition(),
                                move.overlap()));
            } finally {
                frozen.destroy();
            }
        }
    }

    /** The committed offsets of {@code group} in ZooKeeper, per partition of the topic. */
    /** The partitions whose owner znode names {@code thread}. */
    private Set<TopicPartition> ownedBy(String group, String thread) throws Exception {
        Set<TopicPartition> owned = new HashSet<>();
        var client = zk.newClient(10_000);
        for (TopicPartition tp : partitions()) {
            String path = "/consumers/" + group + "/owners/" + tp.topic() + "/" + tp.partition();
            if (thread.equals(dataOf(client, path))) {
                owned.add(tp);
            }
        }
        return owned;
    }

    private Map<TopicPartition, Long> zooKeeperOffsets(String group) throws Exception {
        Map<TopicPartition, Long> offsets = new HashMap<>();
        var client = zk.newClient(10_000);
        for (TopicPartition tp : partitions()) {
            String path = "/consumers/" + group + "/offsets/" + tp.topic() + "/" + tp.partition();
            String offset = dataOf(client, path);
            if (offset != null) {
                offsets.put(tp, Long.parseLong(offset));
            }
        }
        return offsets;
    }

    /** The znode's data, null when it does not exist (one read: a znode can go between an exists and a read). */
    private static String dataOf(CuratorFramework client, String path) throws Exception {
        try {
            return new String(client.getData().forPath(path), StandardCharsets.UTF_8);
        } catch (KeeperException.NoNodeException gone) {
            return null;
        }
    }

    /** A zkgroups member in a child JVM, set up as {@link #zkGroupMember} is. */
    private Map<String, String> childProperties(String group, String name) {
        Map<String, String> props = new HashMap<>();
        props.put("zookeeper.connect", zk.connectString());
        props.put("group.id", group);
        props.put("consumer.id", name);
        props.put("auto.offset.reset", "smallest");
        props.put("auto.commit.interval.ms", "100");
        props.put("offsets.storage", "kafka");
        props.put("dual.commit.enabled", "true");
        props.put("zkgroups.advertise.capabilities", "true");
        props.put("zookeeper.session.timeout.ms", "4000");
        if (bootstrap != null) {
            props.put("bootstrap.servers", bootstrap);
        }
        return props;
    }

    /**
     * Faults in the middle of a crossing end on the side the decision names, losing nothing: Kafka stops answering as
     * the decision to go to Kafka is recorded (the members hand over in ZooKeeper, leave the ZooKeeper group and wait
     * for Kafka's coordinator), and ZooKeeper restarts as the decision to come back is recorded. The broker (KRaft,
     * registered in ZooKeeper by hand) is reached through a proxy that black-holes it.
     */
    @Test
    void crossingsFinishThroughAKafkaOutageAndAZooKeeperRestartLosingNothing() throws Exception {
        String group = "cutover-faults";
        int brokerPort = EmbeddedKafka.freeLoopbackPort();
        try (TestZooKeeper server = (zk = TestZooKeeper.startInProcess()); // restarted below
             TcpProxy proxy = TcpProxy.start("kafka", brokerPort);
             EmbeddedKafka kafka = EmbeddedKafka.startKRaftMode(brokerPort, proxy.port())) {
            ZkRegistry registry = ZkRegistry.of(server.newClient(10_000));
            registry.brokers().register(BrokerInfo.v1(kafka.brokerId(), "127.0.0.1", proxy.port(), -1,
                    System.currentTimeMillis()));
            registry.topics().create(TOPIC, TopicRegistration.v1(PARTITIONS, List.of(kafka.brokerId())));
            try (SteadyProducer producer = producerOnNewTopic(kafka)) {
                startGroup(group, 3);

                proxy.blackhole();
                registry.coordination().decide(group, new CoordinationDecision(Coordinator.KAFKA, System.currentTimeMillis()));
                await("every member left the ZooKeeper group for Kafka's").atMost(Duration.ofSeconds(60)).until(() ->
                        server.newClient(10_000).getChildren().forPath("/consumers/" + group + "/ids").isEmpty());
                // a bounce gate on the group waits for Kafka rather than failing while Kafka does not answer
                ByteArrayOutputStream progress = new ByteArrayOutputStream();
                CompletableFuture<Run> gate = CompletableFuture.supplyAsync(() -> cli(progress, "health", "--group", group,
                        "--expect-members", "3", "--wait", "120s", "--no-store-check", "--timeout", "2s", "--progress"));
                await("the gate has found Kafka silent").atMost(Duration.ofSeconds(60)).until(() -> gate.isDone()
                        || progress.toString().contains("Kafka's group cannot be read"));
                long healed = System.nanoTime();
                proxy.heal();
                await().atMost(Duration.ofSeconds(120)).until(() -> onKafka(members)
                        && monitor.allFetchedAgainAfter(healed, partitions()) > 0);
                Run passed = gate.get(120, TimeUnit.SECONDS);
                assertThat(passed.code).as(passed.toString()).isZero();
                assertThat(progress.toString()).as("each look while Kafka was silent, with the code it would end with")
                        .contains("progress: health " + group + " 5 kafka-unreadable: Kafka's group cannot be read");

                long back = System.nanoTime();
                registry.coordination().decide(group, new CoordinationDecision(Coordinator.ZOOKEEPER, System.currentTimeMillis()));
                server.server().restart();
                await().atMost(Duration.ofSeconds(120)).until(() -> members.stream().noneMatch(
                        m -> ((ZkGroupConsumer<?, ?>) m.consumer).coordinator().equals("kafka"))
                        && monitor.allFetchedAgainAfter(back, partitions()) > 0);
                gate(group, 3);
                assertThat(members).noneMatch(GroupWorker::failed);
                finish(producer);
            }
        }
    }

    /** The stop-the-group way, for comparison: stop every member, start plain KafkaConsumers at Kafka's offsets. */
    @Test
    void stopTheGroupMigrationForComparison() {
        String group = "cutover-stop";
        try (TestZooKeeper server = (zk = TestZooKeeper.start());
             EmbeddedKafka kafka = EmbeddedKafka.startZooKeeperMode(server.connectString());
             SteadyProducer producer = producerOnNewTopic(kafka)) {
            startGroup(group, 4);
            long stopped = System.nanoTime();
            List<GroupWorker> old = new ArrayList<>(members);
            members.clear();
            old.parallelStream().forEach(GroupWorker::close);
            for (int i = 1; i <= 4; i++) {
                members.add(plainMember(kafka, group, "plain" + i));
            }
            await().atMost(Duration.ofSeconds(120)).until(() -> monitor.allFetchedAgainAfter(stopped, partitions()) > 0);
            System.out.printf("stop-the-group pause (stop -> every partition fetched again): %d ms%n",
                    TimeUnit.NANOSECONDS.toMillis(monitor.allFetchedAgainAfter(stopped, partitions()) - stopped));

            finish(producer);
        }
    }

    /**
     * Starts {@code n} zkgroups members, waits for a healthy group whose offsets the switch accepts (once the
     * dual-committing members have committed to Kafka).
     */
    private void startGroup(String group, int n) {
        for (int i = 1; i <= n; i++) {
            members.add(zkGroupMember(group, "zk" + i));
        }
        awaitSwitchable(group, n);
    }

    /** Waits for {@code n} members in a healthy group whose offsets the switch accepts. */
    private void awaitSwitchable(String group, int n) {
        gate(group, n);
        await().atMost(Duration.ofSeconds(60)).until(() -> cli("migrate", "coordination", "--group", group,
                "--to", "kafka").code == 0);
    }

    /** Stops the producer, waits for every record, closes the members, and checks the invariants. */
    private void finish(SteadyProducer producer) {
        long[] produced = producer.stop();
        await().atMost(Duration.ofSeconds(60)).until(() -> missing(produced) == 0);
        for (GroupWorker m : members) {
            m.close();
        }
        assertThat(monitor.violations()).isEmpty();
        assertThat(log.moves()).allSatisfy(move -> assertThat(move.overlap()).as(move.toString()).isZero());
    }

    private static boolean onKafka(List<GroupWorker> workers) {
        return workers.stream().allMatch(m -> ((ZkGroupConsumer<?, ?>) m.consumer).coordinator().equals("kafka"));
    }

    /** The partitions Kafka's group assigns now, over all its members. */
    private static Set<TopicPartition> kafkaAssignment(EmbeddedKafka kafka, String group) throws Exception {
        Set<TopicPartition> assigned = new HashSet<>();
        kafka.admin().describeConsumerGroups(List.of(group)).describedGroups().get(group).get(10, TimeUnit.SECONDS)
                .members().forEach(m -> assigned.addAll(m.assignment().topicPartitions()));
        return assigned;
    }

    private static SteadyProducer producerOnNewTopic(EmbeddedKafka kafka) {
        kafka.createTopic(TOPIC, PARTITIONS);
        return SteadyProducer.start(kafka.bootstrapServers(), TOPIC, PARTITIONS, 5, Duration.ofMillis(50));
    }

    private static SteadyProducer producerOnNewTopic(TestBroker kafka) throws Exception {
        kafka.createTopic(TOPIC, PARTITIONS);
        return SteadyProducer.start(kafka.bootstrapServers(), TOPIC, PARTITIONS, 5, Duration.ofMillis(50));
    }

    /** The brokers the cases with a member killed or frozen in the middle run on. */
    enum Broker {
        /** Kafka 3.9 in ZooKeeper mode, in this JVM: members and the CLI find it in /brokers. */
        KAFKA_3_9_ZOOKEEPER_MODE,
        /** Kafka 4.4 in KRaft mode, in a child JVM: nothing in /brokers, members and the CLI are given its address. */
        KAFKA_4_4_KRAFT
    }

    /** A running broker of either kind: what the cases need of it. */
    private interface TestBroker extends AutoCloseable {
        String bootstrapServers();

        void createTopic(String topic, int partitions) throws Exception;

        org.apache.kafka.clients.admin.Admin admin();

        @Override
        void close();
    }

    /** Starts {@code broker}; for a KRaft one, members and the CLI are given its address ({@link #bootstrap}). */
    private TestBroker start(Broker broker, TestZooKeeper server) throws Exception {
        if (broker == Broker.KAFKA_3_9_ZOOKEEPER_MODE) {
            EmbeddedKafka kafka = EmbeddedKafka.startZooKeeperMode(server.connectString());
            return new TestBroker() {
                public String bootstrapServers() {
                    return kafka.bootstrapServers();
                }

                public void createTopic(String topic, int partitions) {
                    kafka.createTopic(topic, partitions);
                }

                public org.apache.kafka.clients.admin.Admin admin() {
                    return kafka.admin();
                }

                public void close() {
                    kafka.close();
                }
            };
        }
        ChildKafkaBroker kafka = ChildKafkaBroker.kafka4();
        bootstrap = kafka.bootstrapServers();
        return new TestBroker() {
            public String bootstrapServers() {
                return kafka.bootstrapServers();
            }

            public void createTopic(String topic, int partitions) throws Exception {
                kafka.createTopic(topic, partitions);
            }

            public org.apache.kafka.clients.admin.Admin admin() {
                return kafka.admin();
            }

            public void close() {
                kafka.close();
            }
        };
    }

    private static List<TopicPartition> partitions() {
        List<TopicPartition> all = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            all.add(new TopicPartition(TOPIC, p));
        }
        return all;
    }

    private GroupWorker zkGroupMember(String group, String name) {
        return zkGroupMember(group, name, Map.of());
    }

    /** A zkgroups member as above, with {@code overrides} of its properties. */
    private GroupWorker zkGroupMember(String group, String name, Map<String, String> overrides) {
        Properties props = new Properties();
        props.setProperty("zookeeper.connect", zk.connectString());
        props.setProperty("group.id", group);
        props.setProperty("consumer.id", name);
        props.setProperty("auto.offset.reset", "smallest");
        props.setProperty("auto.commit.interval.ms", "100");
        props.setProperty("offsets.storage", "kafka");
        props.setProperty("dual.commit.enabled", "true");
        props.setProperty("zkgroups.advertise.capabilities", "true");
        if (bootstrap != null) {
            props.setProperty("bootstrap.servers", bootstrap); // partitions from Kafka: nothing in /brokers
        }
        overrides.forEach(props::setProperty);
        return new GroupWorker(name, new ZkGroupConsumer<>(props, new StringDeserializer(), new StringDeserializer()),
                List.of(TOPIC), monitor, (tp, offset) -> log.record(name, tp, offset));
    }

    private GroupWorker plainMember(EmbeddedKafka kafka, String group, String name) {
        Properties props = new Properties();
        props.setProperty("bootstrap.servers", kafka.bootstrapServers());
        props.setProperty("group.id", group);
        props.setProperty("client.id", name);
        props.setProperty("auto.offset.reset", "earliest");
        props.setProperty("auto.commit.interval.ms", "100");
        return new GroupWorker(name, new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer()),
                List.of(TOPIC), monitor, (tp, offset) -> log.record(name, tp, offset));
    }

    private long missing(long[] produced) {
        long missing = 0;
        for (int p = 0; p < produced.length; p++) {
            missing += log.missing(new TopicPartition(TOPIC, p), produced[p]).size();
        }
        return missing;
    }

    private void gate(String group, int expected) {
        Run run = cli("health", "--group", group, "--expect-members", Integer.toString(expected), "--wait", "60s",
                "--no-store-check");
        assertThat(run.code).as(run.toString()).isZero();
    }

    /**
     * Runs {@code migrate coordination --to kafka --execute} and checks that it was refused (exit 13) with nothing
     * written: the decision znode is absent. Returns the run, whose stderr gives the reason.
     */
    private Run refusedToKafka(String group) throws Exception {
        Run refused = cli("migrate", "coordination", "--group", group, "--to", "kafka", "--execute");
        assertThat(refused.code).as(refused.toString()).isEqualTo(13);
        assertThat(refused.out).contains("nothing was written");
        assertThat(zk.newClient(10_000).checkExists().forPath("/consumers/" + group + "/zkgroups-coordination"))
                .isNull();
        return refused;
    }

    private Run cli(String... args) {
        return cli(new ByteArrayOutputStream(), args);
    }

    /** As {@link #cli(String...)}, writing stderr to {@code err} as it goes (another thread may read it meanwhile). */
    private Run cli(ByteArrayOutputStream err, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--zookeeper", zk.connectString()));
        if (bootstrap != null) {
            all.addAll(List.of("--bootstrap-server", bootstrap));
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = Main.run(all.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private record Run(int code, String out, String err) {
    }
}
