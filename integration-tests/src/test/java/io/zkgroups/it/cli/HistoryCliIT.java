package io.zkgroups.it.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.zkgroups.it.support.LegacyConsumerProcess;
import io.zkgroups.rebalancer.consumer.ZkGroupConsumer;
import io.zkgroups.tool.ExitCode;
import io.zkgroups.tool.Main;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code history} and the audit journal after a scripted sequence on a mixed group — a 0.8.2.2 consumer joins, a
 * zkgroups consumer joins, the 0.8.2.2 one is killed with SIGKILL, the zkgroups one leaves, the offsets are reset and
 * then migrated to Kafka — with a watcher ({@code history --record}) running: every step appears, in order, with the
 * right attribution, and every write with its offsets before and after.
 */
@Timeout(240)
class HistoryCliIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static CliCluster c;

    @BeforeAll
    static void start() {
        c = CliCluster.start();
    }

    @AfterAll
    static void stop() {
        if (c != null) {
            c.close();
        }
    }

    @Test
    void aScriptedSequenceAppearsInHistoryInOrderWithWhoDidWhat() throws Exception {
        String g = "ghist";
        c.kafka.createTopic("hist", 2);
        c.fill("hist", 2, 10);
        c.setZk(g, "hist", 0, 10);
        c.setZk(g, "hist", 1, 10);

        ByteArrayOutputStream recorded = new ByteArrayOutputStream();
        PrintStream recordedOut = new PrintStream(recorded, true, StandardCharsets.UTF_8);
        ByteArrayOutputStream recorderErr = new ByteArrayOutputStream();
        Thread recorder = new Thread(() -> Main.run(new String[]{"history", "--group", g, "--record", "--interval", "200ms",
                "--output", "json", "--zookeeper", c.zookeeper()}, recordedOut,
                new PrintStream(recorderErr, true, StandardCharsets.UTF_8)), "history-record");
        recorder.start();
        String legacyId;
        try {
            await("the watcher took its baseline").atMost(WAIT)
                    .until(() -> recorderErr.toString(StandardCharsets.UTF_8).contains("zkgroups: recording the history"));
            try (LegacyConsumerProcess legacy = LegacyConsumerProcess.builder("history").zookeeperConnect(c.zookeeper())
                    .groupId(g).consumerId("legacy").topic("hist", 1).noFetcher()
                    .property("zookeeper.session.timeout.ms", "3000").start()) {
                legacyId = legacy.awaitReady(LegacyConsumerProcess.DEFAULT_TIMEOUT);
                await().atMost(WAIT).until(() -> c.cli("health", "--group", g, "--expect-members", "1").code() == 0);

                try (ZkGroupConsumer<String, String> member = new ZkGroupConsumer<>(props(g), new StringDeserializer(),
                        new StringDeserializer())) {
                    member.subscribe(List.of("hist"));
                    await("the zkgroups member joined and owns a partition").atMost(WAIT).until(() -> {
                        member.poll(Duration.ofMillis(100));
                        return c.cli("health", "--group", g, "--expect-members", "2").code() == 0;
                    });
                    assertThat(legacy.kill()).as("SIGKILL").isEqualTo(137);
                    await("the killed member's session expired and the zkgroups member took over").atMost(WAIT).until(() -> {
                        member.poll(Duration.ofMillis(100));
                        return c.cli("health", "--group", g, "--expect-members", "1").code() == 0;
                    });
                    // the recorder looks every 200 ms: the take-over's end is recorded before the member leaves
                    await("the recorder saw the take-over end").atMost(WAIT).until(() -> {
                        member.poll(Duration.ofMillis(100));
                        return recorded.toString(StandardCharsets.UTF_8).contains("member " + legacyId + " left;");
                    });
                }
            }
            await("the zkgroups member left").atMost(WAIT)
                    .until(() -> c.cli("health", "--group", g).code() == ExitCode.HEALTH_MEMBERS.code());
            // as above: the leaving is recorded before the offsets move, or their events could come first
            await("the recorder saw the zkgroups member leave").atMost(WAIT)
                    .until(() -> occurrences(recorded.toString(StandardCharsets.UTF_8), "member-left") >= 2);
            CliCluster.Run reset = c.cli("offsets", "reset", "--group", g, "--all-topics", "--to-earliest", "--execute");
            assertThat(reset.code()).as(reset.toString()).isZero();
            CliCluster.Run migrate = c.cli("migrate", "execute", "--group", g);
            assertThat(migrate.code()).as(migrate.toString()).isZero();
            await("the watcher saw the offsets move back").atMost(WAIT)
                    .until(() -> recorded.toString(StandardCharsets.UTF_8).contains("offset-rewound"));
        } finally {
            recorder.interrupt();
            recorder.join(10_000);
        }

        CliCluster.Run run = c.cli("history", "--group", g, "--output", "json");
        assertThat(run.code()).as(run.toString()).isZero();
        List<JsonNode> events = new ArrayList<>();
        run.json().path("events").forEach(events::add);
        String all = run.out();

        int legacyJoined = index(events, e -> is(e, "member-joined", "watcher") && legacyId.equals(e.path("member").asText()));
        int memberJoined = index(events, e -> is(e, "member-joined", "watcher") && !legacyId.equals(e.path("member").asText()));
        int legacyLeft = index(events, e -> is(e, "member-left", "watcher") && legacyId.equals(e.path("member").asText()));
        int memberLeft = index(events, e -> is(e, "member-left", "watcher") && !legacyId.equals(e.path("member").asText()));
        int resetWritten = index(events, e -> is(e, "offsets-written", "audit") && e.path("detail").asText().startsWith("reset:"));
        int migrated = index(events, e -> is(e, "offsets-written", "audit") && e.path("detail").asText().startsWith("migrate:"));
        assertThat(List.of(legacyJoined, memberJoined, legacyLeft, memberLeft, resetWritten, migrated)).as(all).isSorted();
        assertThat(events.get(memberJoined).path("host").asText()).as("a zkgroups member's id carries its host").isNotEmpty();

        JsonNode takeover = events.get(index(events, e -> is(e, "rebalance-ended", "watcher")
                && e.path("detail").asText().startsWith("member " + legacyId + " left")));
        assertThat(takeover.path("durationMs").asLong()).as(all).isGreaterThanOrEqualTo(0);
        index(events, e -> is(e, "ownership-moved", "watcher") && e.path("from").asText().startsWith(legacyId));

        JsonNode resetEntry = events.get(resetWritten);
        assertThat(resetEntry.path("attribution").asText()).isEqualTo(System.getProperty("user.name") + "@"
                + java.net.InetAddress.getLocalHost().getHostName());
        assertThat(resetEntry.path("detail").asText()).contains("zkgroups offsets reset --group ghist --all-topics --to-earliest");
        assertThat(resetEntry.path("changes").findValuesAsText("before")).containsExactly("10", "10");
        assertThat(resetEntry.path("changes").findValuesAsText("after")).containsExactly("0", "0");
        assertThat(resetEntry.path("changes").findValuesAsText("store")).containsOnly("zookeeper");
        JsonNode migrateEntry = events.get(migrated);
        assertThat(migrateEntry.path("changes").findValuesAsText("store")).containsOnly("kafka");
        assertThat(migrateEntry.path("changes").findValuesAsText("after")).containsExactly("0", "0");
        assertThat(migrateEntry.path("changes").get(0).path("before").isNull()).as("Kafka had no offset").isTrue();

        JsonNode rewound = events.get(index(events, e -> is(e, "offset-rewound", "watcher")));
        assertThat(rewound.path("before").asLong()).isEqualTo(10);
        assertThat(rewound.path("after").asLong()).isZero();
        assertThat(rewound.path("attribution").asText()).as("the reset's audit entry wrote that value")
                .startsWith(System.getProperty("user.name") + "@").contains("offsets reset");

        CliCluster.Run text = c.cli("history", "--group", g, "--since", "1h");
        assertThat(text.code()).as(text.toString()).isZero();
        assertThat(text.out()).contains("member-joined  " + legacyId).contains("offsets-written")
                .contains("hist:0 zookeeper 10 -> 0");
    }

    @Test
    void withoutAWatcherTheHistoryIsRebuiltFromTheZnodesStats() throws Exception {
        String g = "ghist-stats";
        c.kafka.createTopic("hist-stats", 1);
        c.setZk(g, "hist-stats", 0, 3);
        CliCluster.Member member = c.member(g, "m", java.util.Map.of("hist-stats", 1));
        member.claim("hist-stats", 0, 0);
        CliCluster.Run run = c.cli("history", "--group", g, "--output", "json");
        assertThat(run.code()).as(run.toString()).isZero();
        List<JsonNode> events = new ArrayList<>();
        run.json().path("events").forEach(events::add);
        int joined = index(events, e -> is(e, "member-joined", "znode-stats") && e.path("member").asText().equals(g + "_m"));
        int claimed = index(events, e -> is(e, "partition-claimed", "znode-stats") && e.path("member").asText().equals(g + "_m-0"));
        index(events, e -> is(e, "last-commit", "znode-stats") && e.path("after").asLong() == 3);
        assertThat(joined).isLessThan(claimed);
        member.leave();
    }

    private static boolean is(JsonNode e, String type, String source) {
        return e.path("type").asText().equals(type) && e.path("source").asText().equals(source);
    }

    private static int index(List<JsonNode> events, Predicate<JsonNode> p) {
        for (int i = 0; i < events.size(); i++) {
            if (p.test(events.get(i))) {
                return i;
            }
        }
        throw new AssertionError("no such event in " + events);
    }

    private static Properties props(String group) {
        Properties p = new Properties();
        p.setProperty("zookeeper.connect", c.zookeeper());
        p.setProperty("group.id", group);
        p.setProperty("auto.offset.reset", "smallest");
        p.setProperty("auto.commit.enable", "false");
        p.setProperty("zkgroups.metrics.legacy.mbeans", "false");
        return p;
    }

    private static int occurrences(String text, String word) {
        int count = 0;
        for (int at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + word.length())) {
            count++;
        }
        return count;
    }
}
