package io.zkgroups.it.consumer;

import io.zkgroups.it.support.KafkaOnZooKeeperExtension;
import io.zkgroups.it.support.LegacyConsumerProcess;
import io.zkgroups.testing.SteadyProducer;
import org.apache.kafka.common.TopicPartition;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Restarts by session hand-over (docs/restarts.md) with every process a child JVM on a real broker and ZooKeeper: a
 * member {@code a-restart} stops with {@code closeForRestart()} and its successor (same {@code consumer.id} and
 * hand-over file) resumes its ZooKeeper session. Next to it a zkgroups member {@code b-steady}, and in the mixed group a
 * real 0.8.2.2 consumer {@code c-legacy}. Either process is killed (SIGKILL) at each step of the hand-over
 * ({@code test.handover.pause}); whatever happens, no record is skipped and the group ends with the successor owning
 * what the restarted member owned.
 */
@Timeout(300)
class RestartHandoverIT {

    private static final int PARTITIONS = 6;
    private static final Duration WAIT = Duration.ofSeconds(60);
    /** The restarting member's session when its successor must resume it: the default grace is two thirds of it. */
    private static final int RESUMABLE_SESSION_MS = 8000;
    /** Its session when the hand-over is cut short and the session must expire: short, to keep the test short. */
    private static final int EXPIRING_SESSION_MS = 3000;
    private static final int NEIGHBOUR_SESSION_MS = 10000;
    private static final String RESTARTING = "a-restart";
    private static final String NEIGHBOUR = "b-steady";
    private static final String LEGACY = "c-legacy";

    @RegisterExtension
    static final KafkaOnZooKeeperExtension servers = new KafkaOnZooKeeperExtension();

    @TempDir
    Path dir;

    private final List<ChildConsumer> children = new ArrayList<>();
    private final List<AutoCloseable> resources = new ArrayList<>();

    @AfterEach
    void stopEverything() throws Exception {
        children.forEach(ChildConsumer::destroy);
        for (AutoCloseable resource : resources) {
            resource.close();
        }
    }

    @Tag("older-zookeeper") // also run on ZooKeeper 3.4 and 3.5 (integration-tests/pom.xml)
    @Test
    void aMemberRestartedWithinTheGraceResumesItsSessionAndNoMemberOfTheMixedGroupSeesAChange() throws Exception {
        Group g = new Group("resume", RESUMABLE_SESSION_MS, true, null);
        Map<String, List<Long>> before = g.znodes();
        int legacyRebalances = g.legacyRebalances();
        assertThat(legacyRebalances).as("the 0.8.2.2 consumer logs its rebalances").isPositive();
        int neighbourEvents = g.neighbour.events().size();

        g.restartCleanly();
        ChildConsumer successor = g.successor("a-successor", Map.of());
        successor.awaitLine(0, "STEP SESSION_RESUMED"::equals, WAIT, "the session resumed");
        successor.awaitLine(0, ("ASSIGNED " + g.names(RESTARTING))::equals, WAIT, "its partitions adopted");
        g.awaitDelivering("a-successor", NEIGHBOUR, LEGACY);

        assertThat(g.znodes()).as("registrations and owner znodes: czxid, mzxid, session").isEqualTo(before);
        assertThat(g.neighbour.events().subList(neighbourEvents, g.neighbour.events().size()))
                .as("the zkgroups neighbour's rebalance listener").noneMatch(l -> l.startsWith("REVOKED")
                        || l.startsWith("ASSIGNED") || l.startsWith("LOST"));
        assertThat(g.legacyRebalances()).as("rebalances logged by the 0.8.2.2 consumer").isEqualTo(legacyRebalances);
        g.assertContinuedExactly("a-successor");
        assertThat(g.handoverFile).as("a ticket is used once").doesNotExist();
    }

    @Test
    void aSuccessorStartedBeforeItsPredecessorStopsWaitsForTheTicketAndResumesWithoutAChange() throws Exception {
        Group g = new Group("prestarted", RESUMABLE_SESSION_MS, true, null);
        Map<String, List<Long>> before = g.znodes();
        int legacyRebalances = g.legacyRebalances();
        ChildConsumer successor = g.successor("a-successor", Map.of("zkgroups.restart.handover.await.ms", "60000"));
        successor.awaitLine(0, "STEP AWAITING_TICKET"::equals, WAIT, "waiting for the ticket");
        assertThat(g.znodes()).as("nothing registered or claimed while it waits").isEqualTo(before);

        g.restartCleanly();
        successor.awaitLine(0, "STEP SESSION_RESUMED"::equals, WAIT, "the session resumed");
        successor.awaitLine(0, ("ASSIGNED " + g.names(RESTARTING))::equals, WAIT, "its partitions adopted");
        g.awaitDelivering("a-successor", NEIGHBOUR, LEGACY);
        assertThat(g.znodes()).as("registrations and owner znodes: czxid, mzxid, session").isEqualTo(before);
        assertThat(g.legacyRebalances()).as("rebalances logged by the 0.8.2.2 consumer").isEqualTo(legacyRebalances);
        g.assertContinuedExactly("a-successor");
    }

    @ParameterizedTest
    @ValueSource(strings = {"FENCED", "DISCONNECTED"})
    void aMemberKilledBeforeItsTicketIsWrittenLetsItsSessionExpireAndItsSuccessorJoinsAnew(String step) throws Exception {
        Group g = new Group("kill-old-" + step.toLowerCase(), EXPIRING_SESSION_MS, false, step);
        long registeredBefore = g.registrationCzxid();
        g.restarting.send("restart");
        g.restarting.awaitLine(0, ("PAUSED " + step)::equals, WAIT, "paused at " + step);
        g.restarting.kill();
        assertThat(g.handoverFile).as("no ticket before FILE_WRITTEN").doesNotExist();

        ChildConsumer successor = g.successor("a-successor", Map.of());
        successor.awaitLine(0, ("ASSIGNED " + g.names(RESTARTING))::equals, WAIT, "its partitions claimed");
        g.awaitDelivering("a-successor", NEIGHBOUR);
        assertThat(successor.events()).noneMatch(l -> l.startsWith("STEP "));
        assertThat(g.registrationCzxid()).as("a new registration").isNotEqualTo(registeredBefore);
        g.assertContinuedExactly("a-successor"); // the commits were done before the fence step
    }

    @Test
    void aMemberKilledAfterWritingItsTicketIsResumedByItsSuccessorWithoutAChange() throws Exception {
        Group g = new Group("kill-old-written", RESUMABLE_SESSION_MS, true, "FILE_WRITTEN");
        Map<String, List<Long>> before = g.znodes();
        int legacyRebalances = g.legacyRebalances();
        g.restarting.send("restart");
        g.restarting.awaitLine(0, "PAUSED FILE_WRITTEN"::equals, WAIT, "paused with the ticket written");
        g.restarting.kill();

        ChildConsumer successor = g.successor("a-successor", Map.of());
        successor.awaitLine(0, "STEP SESSION_RESUMED"::equals, WAIT, "the session resumed");
        g.awaitDelivering("a-successor", NEIGHBOUR, LEGACY);
        assertThat(g.znodes()).isEqualTo(before);
        assertThat(g.legacyRebalances()).isEqualTo(legacyRebalances);
        g.assertContinuedExactly("a-successor");
    }

    @ParameterizedTest
    @ValueSource(strings = {"FILE_TAKEN", "SESSION_RESUMED"})
    void aSuccessorKilledWhileTakingOverLeavesTheSessionToExpireAndTheNextProcessJoinsAnew(String step) throws Exception {
        // resumable: at SESSION_RESUMED the successor must have resumed the session (within the grace) before it dies
        Group g = new Group("kill-new-" + step.toLowerCase(), RESUMABLE_SESSION_MS, false, null);
        long registeredBefore = g.registrationCzxid();
        g.restartCleanly();
        ChildConsumer killed = g.successor("a-killed", Map.of("test.handover.pause", step));
        killed.awaitLine(0, ("PAUSED " + step)::equals, WAIT, "paused at " + step);
        assertThat(g.handoverFile).as("taken").doesNotExist();
        killed.kill();

        ChildConsumer third = g.successor("a-third", Map.of());
        third.awaitLine(0, ("ASSIGNED " + g.names(RESTARTING))::equals, WAIT, "its partitions claimed");
        g.awaitDelivering("a-third", NEIGHBOUR);
        assertThat(third.events()).as("no ticket left for a second taker").noneMatch(l -> l.startsWith("STEP "));
        assertThat(g.registrationCzxid()).as("a new registration").isNotEqualTo(registeredBefore);
        g.assertNothingSkipped();
    }

    @Test
    void aSuccessorStartedAfterTheGraceJoinsAsANewMember() throws Exception {
        Group g = new Group("late", EXPIRING_SESSION_MS, false, null);
        long registeredBefore = g.registrationCzxid();
        g.restartCleanly();
        ChildConsumer late = g.successor("a-late", Map.of("zkgroups.restart.grace.ms", "1"));
        late.awaitLine(0, ("ASSIGNED " + g.names(RESTARTING))::equals, WAIT, "its partitions claimed");
        g.awaitDelivering("a-late", NEIGHBOUR);
        assertThat(late.events()).contains("STEP FILE_TAKEN").doesNotContain("STEP SESSION_RESUMED");
        assertThat(g.registrationCzxid()).as("a new registration").isNotEqualTo(registeredBefore);
        assertThat(g.handoverFile).doesNotExist();
        g.assertContinuedExactly("a-late");
    }

    /** One group on its own topic: the restarting member, a zkgroups neighbour, maybe a 0.8.2.2 consumer. */
    private final class Group {
        final String group;
        final String topic;
        final int sessionMs;
        final Path handoverFile;
        final DeliveryLog log = new DeliveryLog();
        final ChildConsumer restarting;
        final ChildConsumer neighbour;
        final LegacyConsumerProcess legacy;
        final List<String> members;

        /** {@code restartingPause}: the hand-over step at which the restarting member stops for good (null: none). */
        Group(String group, int sessionMs, boolean withLegacy, String restartingPause) {
            this.group = group;
            this.topic = group + "-t";
            this.sessionMs = sessionMs;
            this.handoverFile = dir.resolve(group + ".handover");
            servers.broker().createTopic(topic, PARTITIONS);
            resources.add(SteadyProducer.start(servers.broker().bootstrapServers(), topic, PARTITIONS, 5, Duration.ofMillis(50)));
            restarting = child(RESTARTING, RESTARTING, sessionMs,
                    restartingPause == null ? Map.of() : Map.of("test.handover.pause", restartingPause));
            neighbour = child(NEIGHBOUR, NEIGHBOUR, NEIGHBOUR_SESSION_MS, Map.of());
            members = withLegacy ? List.of(RESTARTING, NEIGHBOUR, LEGACY) : List.of(RESTARTING, NEIGHBOUR);
            legacy = withLegacy ? LegacyConsumerProcess.builder(group + "-" + LEGACY)
                    .zookeeperConnect(servers.connectString()).groupId(group).consumerId(LEGACY).topic(topic, 1)
                    .property("zookeeper.session.timeout.ms", Integer.toString(NEIGHBOUR_SESSION_MS))
                    .property("rebalance.backoff.ms", "250").property("rebalance.max.retries", "40")
                    .property("auto.commit.enable", "false").noFetcher()
                    .jvmArg("-Dlegacy.driver.logLevel=INFO").start() : null;
            if (legacy != null) {
                resources.add(legacy);
                legacy.awaitReady(WAIT);
            }
            awaitOwners(members.toArray(String[]::new));
            awaitDelivering(members.toArray(String[]::new));
            if (legacy != null) {
                // the 0.8.2.2 consumer may still be in a rebalance the last join started (owners released, not yet
                // claimed again): the tests compare znodes and rebalance counts from here on
                await("the 0.8.2.2 consumer's last rebalance ended").atMost(WAIT).pollInterval(Duration.ofMillis(20))
                        .until(() -> legacyLogCount("end rebalancing consumer") == legacyRebalances());
                awaitOwners(members.toArray(String[]::new));
            }
        }

        ChildConsumer child(String name, String consumerId, int session, Map<String, String> extra) {
            Map<String, String> p = new LinkedHashMap<>();
            servers.consumerProperties(group, consumerId, session).forEach((k, v) -> p.put(k.toString(), v.toString()));
            p.put("zkgroups.restart.handover.file", handoverFile.toString());
            p.putAll(extra);
            ChildConsumer child = ChildConsumer.start(name, topic, p, log);
            children.add(child);
            return child;
        }

        /** A next process of the restarting member: same consumer.id, session timeout and hand-over file. */
        ChildConsumer successor(String name, Map<String, String> extra) {
            return child(name, RESTARTING, sessionMs, extra);
        }

        void restartCleanly() {
            restarting.send("restart");
            restarting.awaitLine(0, "RESTARTED"::equals, WAIT, "RESTARTED");
            assertThat(restarting.awaitExit(WAIT)).isZero();
            assertThat(restarting.events()).containsSubsequence("STEP FENCED", "STEP DISCONNECTED", "STEP FILE_WRITTEN");
        }

        /** The partitions of {@code member} as the listener prints them, in a group of {@link #members}. */
        String names(String member) {
            int index = members.indexOf(member);
            int each = PARTITIONS / members.size();
            return IntStream.range(index * each, (index + 1) * each).mapToObj(p -> topic + "-" + p)
                    .collect(Collectors.joining(","));
        }

        /** Range over {@code owners} in order: partitions split evenly. */
        void awaitOwners(String... owners) {
            Map<Integer, String> expected = new TreeMap<>();
            int each = PARTITIONS / owners.length;
            IntStream.range(0, PARTITIONS).forEach(p -> expected.put(p, owners[p / each]));
            await("owners " + expected).atMost(WAIT).pollInterval(Duration.ofMillis(20)).ignoreExceptions()
                    .until(() -> owners().equals(expected));
        }

        /** Each zkgroups member named (child names; LEGACY fetches nothing) delivered the latest record of its partitions. */
        void awaitDelivering(String... deliverers) {
            int each = PARTITIONS / members.size();
            await("latest deliveries by " + List.of(deliverers)).atMost(WAIT).pollInterval(Duration.ofMillis(20))
                    .until(() -> IntStream.range(0, PARTITIONS).filter(p -> !deliverers[p / each].equals(LEGACY))
                            .allMatch(p -> deliverers[p / each].equals(log.lastDeliverer(new TopicPartition(topic, p)))));
        }

        /** The restarting member's partitions went to {@code next} exactly where it stopped: no duplicate, no gap. */
        void assertContinuedExactly(String next) {
            List<DeliveryLog.Move> moves = log.moves().stream()
                    .filter(h -> h.from().equals(RESTARTING) && h.partition().partition() < PARTITIONS / members.size())
                    .toList();
            assertThat(moves).as("moves from " + RESTARTING).isNotEmpty()
                    .allSatisfy(h -> assertThat(h.firstOfNext()).as(h.toString()).isEqualTo(h.lastOfPrevious() + 1));
            assertNothingSkipped();
        }

        void assertNothingSkipped() {
            assertThat(log.moves()).allSatisfy(h ->
                    assertThat(h.firstOfNext()).as(h.toString()).isLessThanOrEqualTo(h.lastOfPrevious() + 1));
        }

        /** Partition → owner's consumer.id, from the owner znodes. */
        Map<Integer, String> owners() throws Exception {
            Map<Integer, String> owners = new TreeMap<>();
            String path = "/consumers/" + group + "/owners/" + topic;
            for (String partition : servers.client().getChildren().forPath(path)) {
                String thread = new String(servers.client().getData().forPath(path + "/" + partition), StandardCharsets.UTF_8);
                owners.put(Integer.parseInt(partition), thread.substring(group.length() + 1, thread.lastIndexOf('-')));
            }
            return owners;
        }

        /** Every registration and owner znode: path → czxid, mzxid, ephemeral owner. */
        Map<String, List<Long>> znodes() throws Exception {
            Map<String, List<Long>> all = new TreeMap<>();
            for (String parent : List.of("/consumers/" + group + "/ids", "/consumers/" + group + "/owners/" + topic)) {
                for (String child : servers.client().getChildren().forPath(parent)) {
                    Stat stat = servers.client().checkExists().forPath(parent + "/" + child);
                    all.put(parent + "/" + child, List.of(stat.getCzxid(), stat.getMzxid(), stat.getEphemeralOwner()));
                }
            }
            return all;
        }

        long registrationCzxid() throws Exception {
            Stat stat = servers.client().checkExists().forPath("/consumers/" + group + "/ids/" + group + "_" + RESTARTING);
            return stat == null ? -1 : stat.getCzxid();
        }

        int legacyRebalances() throws Exception {
            return legacyLogCount("begin rebalancing consumer");
        }

        /** Lines of the 0.8.2.2 consumer's log that contain {@code text}. */
        int legacyLogCount(String text) throws Exception {
            String err = Files.readString(legacy.stderrFile(), StandardCharsets.UTF_8);
            return (int) err.lines().filter(l -> l.contains(text)).count();
        }
    }
}
