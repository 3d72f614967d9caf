package io.zkgroups.it.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.zkgroups.it.support.LegacyConsumerProcess;
import io.zkgroups.tool.ExitCode;
import io.zkgroups.tool.Main;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static io.zkgroups.it.cli.CliCluster.tp;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code health}: every condition and its exit code on registered members and owner znodes, {@code --wait} woken
 * by ZooKeeper events, and a real 0.8.2.2 consumer (which {@code reset} refuses to touch).
 */
@Tag("older-zookeeper") // also run on ZooKeeper 3.4 and 3.5 (integration-tests/pom.xml)
@Timeout(150)
class HealthCliIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int UNREADABLE = ExitCode.HEALTH_UNREADABLE.code();
    private static CliCluster c;

    @BeforeAll
    static void start() {
        c = CliCluster.start();
        c.kafka.createTopic("h", 3);
        c.kafka.createTopic("h2", 3);
        c.kafka.createTopic("legacy", 2);
        c.kafka.createTopic("hb", 2);
        c.kafka.createTopic("hs", 4);
        c.kafka.createTopic("hset", 2);
        c.kafka.createTopic("hwho", 3);
    }

    @AfterAll
    static void stop() {
        if (c != null) {
            c.close();
        }
    }

    @Test
    void eachFailedConditionHasItsOwnExitCode() throws Exception {
        String g = "ghealth";
        CliCluster.Member c1 = c.member(g, "c1", Map.of("h", 1));
        CliCluster.Member c2 = c.member(g, "c2", Map.of("h", 1));

        CliCluster.Run unowned = c.cli("health", "--group", g);
        assertThat(unowned.code()).as(unowned.toString()).isEqualTo(ExitCode.HEALTH_UNOWNED.code());
        assertThat(unowned.out()).contains("UNHEALTHY (exit 21)").contains("3 partitions have no owner");

        // range gives h-0, h-1 to c1 and h-2 to c2; claim them the other way round
        c2.claim("h", 0, 0, 1);
        c1.claim("h", 0, 2);
        CliCluster.Run wrong = c.cli("health", "--group", g);
        assertThat(wrong.code()).isEqualTo(ExitCode.HEALTH_ASSIGNMENT.code());
        assertThat(wrong.out()).contains("h:0 owned by ghealth_c2-0, the range assignor gives it to ghealth_c1-0");

        CliCluster.Member c3 = c.member(g, "c3", Map.of("h", 1));
        assertThat(c.cli("health", "--group", g, "--expect-members", "2").code()).isEqualTo(ExitCode.HEALTH_MEMBERS.code());
        c3.registry().members().unregister(g, c3.id());

        // c2 leaves the registry but its session keeps its owner znodes: owners that are no member
        c2.registry().members().unregister(g, c2.id());
        CliCluster.Run foreign = c.cli("health", "--group", g);
        assertThat(foreign.code()).isEqualTo(ExitCode.HEALTH_FOREIGN_OWNER.code());
        assertThat(foreign.out()).contains("h:0 by 'ghealth_c2-0'");

        String rr = "grr";
        c.member(rr, "a", Map.of("h", 1, "h2", 1));
        c.member(rr, "b", Map.of("h", 1));
        CliCluster.Run refused = c.cli("health", "--group", rr, "--strategy", "roundrobin");
        assertThat(refused.code()).isEqualTo(ExitCode.HEALTH_ASSIGNOR_REFUSED.code());

        c.setZk("gempty", "h", 0, 1);
        assertThat(c.cli("health", "--group", "gempty").code()).isEqualTo(ExitCode.HEALTH_MEMBERS.code());
        assertThat(c.cli("health", "--group", "nosuchgroup").code()).isEqualTo(ExitCode.NOT_FOUND.code());
    }

    @Test
    void aStickyGroupIsHealthyWhenValidAndBalancedAndAMixedOneOnlyWhenItIsRangeExactly() throws Exception {
        String g = "gsticky";
        Map<String, String> sticky = new LinkedHashMap<>();
        sticky.put("assignor", "sticky");
        sticky.put("sticky", "1");
        sticky.put("v", "1");
        CliCluster.Member a = c.member(g, "a", Map.of("hs", 1), sticky);
        CliCluster.Member b = c.member(g, "b", Map.of("hs", 1), sticky);
        // balanced, but not range's answer (a: 0, 1; b: 2, 3)
        a.claim("hs", 0, 1, 3);
        b.claim("hs", 0, 0, 2);
        CliCluster.Run balanced = c.cli("health", "--group", g);
        assertThat(balanced.code()).as(balanced.toString()).isZero();
        assertThat(balanced.out()).contains("HEALTHY").contains("sticky");

        b.release("hs", 2);
        a.claim("hs", 0, 2);
        CliCluster.Run unbalanced = c.cli("health", "--group", g);
        assertThat(unbalanced.code()).as(unbalanced.toString()).isEqualTo(ExitCode.HEALTH_ASSIGNMENT.code());
        assertThat(unbalanced.out()).contains("hs is unbalanced: gsticky_a-0 owns 3 partitions and gsticky_b-0 owns 1");

        a.release("hs", 2);
        a.claim("hs", 1, 2); // a has one stream: thread a-1 does not exist
        CliCluster.Run invalid = c.cli("health", "--group", g);
        assertThat(invalid.code()).as(invalid.toString()).isEqualTo(ExitCode.HEALTH_ASSIGNMENT.code());
        assertThat(invalid.out()).contains("[hs,2] is owned by gsticky_a-1, which does not consume hs");

        a.release("hs", 1, 2, 3);
        b.release("hs", 0);
        a.claim("hs", 0, 0, 1);
        b.claim("hs", 0, 2, 3);
        CliCluster.Member legacy = c.member(g, "legacy", Map.of("hs", 1));
        // three members, range: a-0 hs:0,1; b-0 hs:2; legacy-0 hs:3
        CliCluster.Run mixed = c.cli("health", "--group", g);
        assertThat(mixed.code()).as(mixed.toString()).isEqualTo(ExitCode.HEALTH_ASSIGNMENT.code());
        assertThat(mixed.out()).contains("hs:3 owned by gsticky_b-0, the range assignor gives it to gsticky_legacy-0");
        b.release("hs", 3);
        legacy.claim("hs", 0, 3);
        CliCluster.Run range = c.cli("health", "--group", g);
        assertThat(range.code()).as(range.toString()).isZero();
    }

    @Test
    void unreadableZnodesOfTheGroupFailHealthNamingEachPathAndReason() throws Exception {
        String g = "gbad";
        CliCluster.Member a = c.member(g, "a", Map.of("hb", 1));
        CliCluster.Member b = c.member(g, "b", Map.of("hb", 1));
        a.claim("hb", 0, 0);
        b.claim("hb", 0, 1);
        c.setZk(g, "hb", 0, 5);
        c.setZk(g, "hb", 1, 7);
        assertThat(c.cli("health", "--group", g).code()).as("healthy before").isZero();

        // the offset b resumed from turns to garbage: b stops on that partition while it owns it
        c.setZkRaw(g, "hb", "1", "garbage");
        CliCluster.Run table = c.cli("health", "--group", g);
        assertThat(table.code()).as(table.toString()).isEqualTo(UNREADABLE);
        assertThat(table.out()).contains("UNHEALTHY (exit 26)").contains("/consumers/gbad/offsets/hb/1")
                .contains("garbage");

        c.registry.znodes().create(CliCluster.CHROOT + "/consumers/gbad/ids/gbad_junk",
                "{not json".getBytes(StandardCharsets.UTF_8), org.apache.zookeeper.CreateMode.PERSISTENT); // any server version
        CliCluster.Run json = c.cli("health", "--group", g, "--output", "json");
        assertThat(json.code()).as(json.toString()).isEqualTo(UNREADABLE);
        JsonNode doc = JSON.readTree(json.out());
        assertThat(doc.path("exitCode").asInt()).isEqualTo(UNREADABLE);
        assertThat(doc.path("unreadable").findValuesAsText("path"))
                .containsExactlyInAnyOrder("/consumers/gbad/ids/gbad_junk", "/consumers/gbad/offsets/hb/1");
        assertThat(doc.path("unreadable").findValuesAsText("reason")).allSatisfy(r -> assertThat(r).isNotBlank());
    }

    @Test
    void anUnreadableSubscribedTopicFailsHealthNamingIt() throws Exception {
        String g = "gbadtopic";
        c.kafka.createTopic("hbroken", 1);
        // a new topic znode with garbage is rewritten by the controller; a changed one stays as written
        c.curator.setData().forPath(CliCluster.CHROOT + "/brokers/topics/hbroken", "garbage".getBytes(StandardCharsets.UTF_8));
        c.member(g, "a", Map.of("hbroken", 1, "h", 1)).claim("h", 0, 0, 1, 2);

        CliCluster.Run run = c.cli("health", "--group", g, "--output", "json");
        assertThat(run.code()).as(run.toString()).isEqualTo(UNREADABLE);
        JsonNode doc = JSON.readTree(run.out());
        assertThat(doc.path("unreadable").findValuesAsText("path")).containsExactly("/brokers/topics/hbroken");
    }

    @Test
    void aStableGroupIsHealthyAndInTheDualCommitPhaseTheStoresMustAgree() throws Exception {
        String g = "gstable";
        CliCluster.Member a = c.member(g, "a", Map.of("h2", 1));
        CliCluster.Member b = c.member(g, "b", Map.of("h2", 1));
        a.claim("h2", 0, 0, 1);
        b.claim("h2", 0, 2);

        CliCluster.Run healthy = c.cli("health", "--group", g, "--expect-members", "2", "--output", "json");
        assertThat(healthy.code()).as(healthy.toString()).isZero();
        JsonNode doc = JSON.readTree(healthy.out());
        assertThat(doc.path("healthy").asBoolean()).isTrue();
        assertThat(doc.path("owned").asInt()).isEqualTo(3);

        for (int p = 0; p < 3; p++) {
            c.setZk(g, "h2", p, 10 + p);
        }
        c.setKafka(g, Map.of(tp("h2", 0), 10L, tp("h2", 1), 11L, tp("h2", 2), 9L));
        CliCluster.Run differ = c.cli("health", "--group", g);
        assertThat(differ.code()).as(differ.toString()).isEqualTo(ExitCode.HEALTH_STORES.code());
        assertThat(differ.out()).contains("phase dual-commit").contains("h2:2 zookeeper=12 kafka=9");
        assertThat(c.cli("health", "--group", g, "--store-tolerance", "3").code()).isZero();
        assertThat(c.cli("health", "--group", g, "--no-store-check").code()).isZero();

        CliCluster.Run rewind = c.cli("migrate", "rollback", "--group", g, "--allow-rewind");
        assertThat(rewind.code()).as("--allow-rewind is refused while members are registered: " + rewind)
                .isEqualTo(ExitCode.GROUP_ACTIVE.code());
        assertThat(c.zkOffset(g, "h2", 2)).isEqualTo(12L);
        assertThat(c.cli("offsets", "reset", "--group", g, "--topic", "h2:2", "--to-offset", "12", "--store", "kafka",
                "--execute").code()).isEqualTo(ExitCode.GROUP_ACTIVE.code());
        c.setKafka(g, Map.of(tp("h2", 2), 12L));
        assertThat(c.cli("health", "--group", g).code()).isZero();
    }

    @Test
    void waitReturnsAsSoonAsZooKeeperShowsTheGroupHealthy() throws Exception {
        String g = "gwait";
        CliCluster.Member a = c.member(g, "a", Map.of("legacy", 1));

        CliCluster.Run timedOut = c.cli("health", "--group", g, "--wait", "300ms");
        assertThat(timedOut.code()).isEqualTo(ExitCode.HEALTH_UNOWNED.code());

        CountDownLatch firstCheck = new CountDownLatch(1);
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        OutputStream watchingErr = new OutputStream() {
            @Override
            public synchronized void write(int b) {
                err.write(b);
                if (err.toString(StandardCharsets.UTF_8).contains("progress: health gwait 21")) {
                    firstCheck.countDown();
                }
            }
        };
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        CompletableFuture<Integer> waiting = CompletableFuture.supplyAsync(() -> Main.run(new String[]{
                "health", "--group", g, "--wait", "60s", "--progress", "--output", "json", "--zookeeper", c.zookeeper()},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(watchingErr, true, StandardCharsets.UTF_8)));
        assertThat(firstCheck.await(30, TimeUnit.SECONDS)).as("health reported the unowned partitions").isTrue();

        a.claim("legacy", 0, 0, 1);

        assertThat(waiting.get(30, TimeUnit.SECONDS)).as(err.toString(StandardCharsets.UTF_8)).isZero();
        JsonNode doc = JSON.readTree(out.toString(StandardCharsets.UTF_8));
        assertThat(doc.path("evaluations").asInt()).isGreaterThanOrEqualTo(2);
        assertThat(doc.path("elapsedMillis").asLong()).isLessThan(30_000);
    }

    @Test
    void aWaitForTheExpectedMembersNamesThoseThatLeftMeanwhile() throws Exception {
        String g = "gwho";
        CliCluster.Member a = c.member(g, "a", Map.of("hwho", 1));
        CliCluster.Member b = c.member(g, "b", Map.of("hwho", 1));
        a.claim("hwho", 0, 0);
        b.claim("hwho", 0, 1);
        ByteArrayOutputStream err = new ByteArrayOutputStream(); // its writes and reads are synchronized
        // three expected, two there (and partition 2 unowned): it waits, and sees b leave
        CompletableFuture<Integer> waiting = CompletableFuture.supplyAsync(() -> Main.run(new String[]{
                "health", "--group", g, "--expect-members", "3", "--wait", "60s", "--progress", "--zookeeper",
                c.zookeeper()}, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)));
        await().atMost(Duration.ofSeconds(30)).until(() -> err.toString(StandardCharsets.UTF_8).contains("progress: health gwho 20"));
        b.leave();

        await("b named as gone").atMost(Duration.ofSeconds(30))
                .until(() -> err.toString(StandardCharsets.UTF_8).contains("gone now: gwho_b"));
        assertThat(err.toString(StandardCharsets.UTF_8)).doesNotContain("gone now: gwho_a");
        // the restarted b and a third member come back, with the range assignment of three
        CliCluster.Member b2 = c.member(g, "b", Map.of("hwho", 1));
        CliCluster.Member c3 = c.member(g, "c", Map.of("hwho", 1));
        b2.claim("hwho", 0, 1);
        c3.claim("hwho", 0, 2);
        assertThat(waiting.get(60, TimeUnit.SECONDS)).as(err.toString(StandardCharsets.UTF_8)).isZero();
    }

    @Test
    void aSettleIsNotRestartedByTheOffsetsALiveGroupCommits() throws Exception {
        String g = "gsettle";
        CliCluster.Member a = c.member(g, "a", Map.of("hset", 1));
        a.claim("hset", 0, 0, 1);
        try (Repeating commits = new Repeating(n -> c.setZk(g, "hset", (int) (n % 2), n))) {
            commits.awaitRounds(3);
            CompletableFuture<CliCluster.Run> health = CompletableFuture.supplyAsync(
                    () -> c.cli("health", "--group", g, "--wait", "30s", "--settle", "1s"));
            CliCluster.Run settled = health.get(60, TimeUnit.SECONDS);
            assertThat(settled.code()).as(settled.toString()).isZero();
            assertThat(commits.rounds()).as("offsets were committed while it settled").isGreaterThan(3);
        }
    }

    @Test
    void aGroupThatKeepsChangingWithinTheSettleTimeFailsWhenTheWaitIsOver() throws Exception {
        String g = "gunsettled";
        CliCluster.Member a = c.member(g, "a", Map.of("hset", 1));
        a.claim("hset", 0, 0, 1);
        String registration = a.registry().layout().member(g, a.id());
        byte[] bytes = a.session().getData().forPath(registration);
        // the same bytes again: a NodeDataChanged on the registration, the group stays healthy throughout
        try (Repeating touches = new Repeating(n -> a.session().setData().forPath(registration, bytes))) {
            touches.awaitRounds(2);
            CompletableFuture<CliCluster.Run> health = CompletableFuture.supplyAsync(
                    () -> c.cli("health", "--group", g, "--wait", "2s", "--settle", "1s"));
            CliCluster.Run unsettled = health.get(60, TimeUnit.SECONDS);
            assertThat(unsettled.code()).as(unsettled.toString()).isEqualTo(ExitCode.HEALTH_ASSIGNMENT.code());
            assertThat(unsettled.out()).contains("not settled");
        }
        assertThat(c.cli("health", "--group", g, "--wait", "30s", "--settle", "1s").code())
                .as("settles once the changes stop").isZero();
    }

    /** Runs {@code step} every 100 ms (the pace of a member's commits) on a thread of its own. */
    private static final class Repeating implements AutoCloseable {
        interface Step {
            void run(long round) throws Exception;
        }

        private final AtomicLong rounds = new AtomicLong();
        private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor();

        Repeating(Step step) {
            thread.scheduleWithFixedDelay(() -> {
                try {
                    step.run(rounds.incrementAndGet());
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, 0, 100, TimeUnit.MILLISECONDS);
        }

        long rounds() {
            return rounds.get();
        }

        void awaitRounds(long n) {
            await().atMost(Duration.ofSeconds(30)).until(() -> rounds.get() >= n);
        }

        @Override
        public void close() throws InterruptedException {
            thread.shutdown();
            assertThat(thread.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void aReal082ConsumerIsHealthyAndItsGroupCannotBeReset() {
        String g = "glegacy";
        c.setZk(g, "legacy", 0, 0);
        try (LegacyConsumerProcess consumer = LegacyConsumerProcess.builder("cli-health")
                .zookeeperConnect(c.zookeeper()).groupId(g).consumerId("c1").topic("legacy", 1).noFetcher().start()) {
            assertThat(consumer.awaitReady(LegacyConsumerProcess.DEFAULT_TIMEOUT)).isEqualTo("glegacy_c1");

            CliCluster.Run health = c.cli("health", "--group", g, "--expect-members", "1", "--wait", "30s");
            assertThat(health.code()).as(health.toString()).isZero();

            CliCluster.Run reset = c.cli("offsets", "reset", "--group", g, "--all-topics", "--to-latest", "--execute");
            assertThat(reset.code()).isEqualTo(ExitCode.GROUP_ACTIVE.code());
            assertThat(reset.err()).contains("glegacy_c1");
            assertThat(c.zkOffset(g, "legacy", 0)).isZero();

            CliCluster.Run describe = c.cli("groups", "describe", "--group", g);
            assertThat(describe.out()).contains("STATE stable").containsPattern("legacy\\s+1\\s+-\\s+-\\s+0\\s+-\\s+glegacy_c1-0");
        }
        await("the consumer's registration is gone with its session").atMost(Duration.ofSeconds(30))
                .until(() -> c.cli("health", "--group", g).code() == ExitCode.HEALTH_MEMBERS.code());
    }
}
