package io.zkgroups.it.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.zkgroups.it.support.PrometheusText;
import io.zkgroups.rebalancer.consumer.ZkGroupConsumer;
import io.zkgroups.tool.ExitCode;
import io.zkgroups.tool.Main;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.zkgroups.it.cli.CliCluster.tp;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code lag}, {@code exporter}, {@code health --max-stall}, and {@code describe}/{@code health} without Kafka, on groups
 * driven into each state: consuming, falling behind a producer, stopped with a backlog, a member that holds its
 * partitions without progress, and an offset behind the log start.
 */
@Timeout(120)
class MonitoringCliIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration WAIT = Duration.ofSeconds(30);
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

    private static Properties consumerProps(String group) {
        Properties p = new Properties();
        p.setProperty("zookeeper.connect", c.zookeeper());
        p.setProperty("group.id", group);
        p.setProperty("auto.offset.reset", "smallest");
        p.setProperty("auto.commit.enable", "false");
        p.setProperty("zkgroups.metrics.legacy.mbeans", "false");
        return p;
    }

    /** A real consumer that reads what is there and commits it. */
    private static ZkGroupConsumer<String, String> consumeAll(String group, String topic, int expected) {
        ZkGroupConsumer<String, String> consumer = new ZkGroupConsumer<>(consumerProps(group), new StringDeserializer(),
                new StringDeserializer());
        consumer.subscribe(List.of(topic));
        int[] seen = {0};
        await().atMost(WAIT).until(() -> (seen[0] += consumer.poll(Duration.ofMillis(50)).count()) >= expected);
        consumer.commitSync();
        return consumer;
    }

    private static JsonNode lagJson(String... args) throws Exception {
        CliCluster.Run run = c.cli(concat(args, "--output", "json"));
        assertThat(run.code()).as(run.toString()).isZero();
        return JSON.readTree(run.out());
    }

    private static String groupStatus(JsonNode doc, String group) {
        for (JsonNode g : doc.path("groups")) {
            if (g.path("group").asText().equals(group)) {
                return g.path("status").asText();
            }
        }
        throw new AssertionError("no group " + group + " in " + doc);
    }

    @Test
    void aGroupThatConsumedEverythingIsOkWithZeroLag() throws Exception {
        c.kafka.createTopic("lag-ok", 2);
        c.fill("lag-ok", 2, 10);
        try (ZkGroupConsumer<String, String> consumer = consumeAll("gok", "lag-ok", 20)) {
            JsonNode doc = lagJson("lag", "--group", "gok", "--samples", "2", "--interval", "200ms");
            JsonNode g = doc.path("groups").get(0);
            assertThat(g.path("status").asText()).as(doc.toString()).isEqualTo("OK");
            assertThat(g.path("totalLag").asLong()).isZero();
            assertThat(g.path("members").asInt()).isEqualTo(1);
            assertThat(g.path("partitions").findValuesAsText("status")).containsExactly("OK", "OK");
            assertThat(g.path("partitions").findValuesAsText("zookeeperOffset")).containsExactly("10", "10");

            CliCluster.Run table = c.cli("lag", "--group", "gok", "--samples", "1");
            assertThat(table.code()).as(table.toString()).isZero();
            assertThat(table.out()).contains("GROUP gok  STATUS OK  PHASE zookeeper-only  MEMBERS 1  LAG 0")
                    .contains("ZK-OFFSET").contains("KAFKA-LAG");
        }
    }

    @Test
    void aGroupFallingBehindItsProducerIsAWarningAsWatched() throws Exception {
        c.kafka.createTopic("lag-warn", 1);
        CliCluster.Member member = c.member("gwarn", "a", Map.of("lag-warn", 1));
        member.claim("lag-warn", 0, 0);
        c.fill("lag-warn", 1, 20);
        c.setZk("gwarn", "lag-warn", 0, 0);
        LineCounter out = new LineCounter();
        Thread watching = new Thread(() -> Main.run(new String[]{"lag", "--group", "gwarn", "--watch", "--interval", "300ms",
                "--samples", "5", "--output", "json", "--zookeeper", c.zookeeper()}, out.stream(), new PrintStream(
                new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)), "lag-watch");
        watching.start();
        try {
            long committed = 0;
            for (int evaluation = 1; evaluation <= 4; evaluation++) {
                int seen = evaluation;
                await().atMost(WAIT).until(() -> out.lines().size() >= seen);
                c.fill("lag-warn", 1, 20); // the producer first, then the slower consumer's commit
                committed += 5;
                c.setZk("gwarn", "lag-warn", 0, committed);
            }
            await().atMost(WAIT).until(() -> out.lines().size() >= 5);
            JsonNode fifth = JSON.readTree(out.lines().get(4));
            assertThat(groupStatus(fifth, "gwarn")).as(fifth.toString()).isEqualTo("WARN");
            assertThat(fifth.path("groups").get(0).path("partitions").get(0).path("reason").asText()).contains("lag grew");
        } finally {
            watching.interrupt();
            watching.join(10_000);
        }
        assertThat(watching.isAlive()).as("--watch ends when interrupted").isFalse();
    }

    @Test
    void aGroupWithBacklogAndNoMembersIsStopped() throws Exception {
        c.kafka.createTopic("lag-stop", 1);
        c.fill("lag-stop", 1, 10);
        c.setZk("gstop", "lag-stop", 0, 4);
        await().atMost(WAIT).untilAsserted(() ->
                assertThat(groupStatus(lagJson("lag", "--group", "gstop", "--samples", "1", "--idle-after", "1s"), "gstop"))
                        .isEqualTo("STOP"));
        JsonNode p = lagJson("lag", "--group", "gstop", "--samples", "1", "--idle-after", "1s")
                .path("groups").get(0).path("partitions").get(0);
        assertThat(p.path("lag").asLong()).isEqualTo(6);
        assertThat(p.path("reason").asText()).contains("owned by no live member");
    }

    @Test
    void aMemberHoldingItsPartitionsWithoutProgressIsStalledAndFailsHealthMaxStall() throws Exception {
        c.kafka.createTopic("lag-stall", 2);
        c.fill("lag-stall", 2, 5);
        try (ZkGroupConsumer<String, String> stuck = consumeAll("gstall", "lag-stall", 10)) {
            CliCluster.Run healthy = c.cli("health", "--group", "gstall", "--max-stall", "1s");
            assertThat(healthy.code()).as("no backlog yet: " + healthy).isZero();

            c.fill("lag-stall", 2, 7); // the application never polls again: the member keeps both partitions
            await().atMost(WAIT).untilAsserted(() ->
                    assertThat(groupStatus(lagJson("lag", "--group", "gstall", "--samples", "1", "--idle-after", "1s"), "gstall"))
                            .isEqualTo("STALL"));
            CliCluster.Run stalled = c.cli("health", "--group", "gstall", "--max-stall", "1s");
            assertThat(stalled.code()).as(stalled.toString()).isEqualTo(ExitCode.HEALTH_STALLED.code());
            assertThat(stalled.out()).contains("stalled (27)").contains("lag-stall:0 at offset 5 with 7 records behind");
            assertThat(c.cli("health", "--group", "gstall", "--max-stall", "1h").code()).isZero();
        }
    }

    @Test
    void anOffsetBehindTheLogStartIsAnError() throws Exception {
        c.kafka.createTopic("lag-err", 1);
        c.fill("lag-err", 1, 10);
        c.setZk("gerr", "lag-err", 0, 2);
        c.kafka.admin().deleteRecords(Map.of(tp("lag-err", 0), RecordsToDelete.beforeOffset(6))).all().get(30, TimeUnit.SECONDS);
        JsonNode doc = lagJson("lag", "--group", "gerr", "--samples", "1");
        assertThat(groupStatus(doc, "gerr")).isEqualTo("ERR");
        assertThat(doc.path("groups").get(0).path("partitions").get(0).path("reason").asText())
                .contains("4 records were deleted before they were consumed");
    }

    @Test
    void lagOfAnUnknownGroupIsNotFound() {
        assertThat(c.cli("lag", "--group", "nosuchgroup", "--samples", "1").code()).isEqualTo(ExitCode.NOT_FOUND.code());
    }

    @Test
    void theExporterServesEveryGroupInStrictPrometheusTextAndReadsOncePerInterval() throws Exception {
        c.kafka.createTopic("exp", 2);
        c.fill("exp", 2, 10);
        CliCluster.Member member = c.member("gexp", "m", Map.of("exp", 1));
        member.claim("exp", 0, 0, 1);
        c.setZk("gexp", "exp", 0, 3);
        c.setZk("gexp", "exp", 1, 10);
        c.setKafka("gexp", Map.of(tp("exp", 0), 5L, tp("exp", 1), 10L)); // fresh ZooKeeper offsets, Kafka ahead: dual commit
        c.setZk("gexp-idle", "exp", 1, 8); // no member: exported too, every group under /consumers is

        ByteArrayOutputStream err = new ByteArrayOutputStream();
        CompletableFuture<Integer> exporter = new CompletableFuture<>();
        Thread serving = new Thread(() -> exporter.complete(Main.run(new String[]{"exporter", "--port", "0",
                "--min-interval", "1h", "--zookeeper", c.zookeeper()}, new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8))), "exporter");
        serving.start();
        try {
            Pattern listening = Pattern.compile("listening on http://127\\.0\\.0\\.1:(\\d+)/metrics");
            await().atMost(WAIT).until(() -> listening.matcher(err.toString(StandardCharsets.UTF_8)).find());
            Matcher m = listening.matcher(err.toString(StandardCharsets.UTF_8));
            assertThat(m.find()).isTrue();
            URI uri = URI.create("http://127.0.0.1:" + m.group(1) + "/metrics");
            HttpClient http = HttpClient.newHttpClient();
            HttpResponse<String> first = http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(first.statusCode()).isEqualTo(200);
            Map<String, Double> metrics = PrometheusText.parse(first.body());

            Map<String, String> p0 = Map.of("group", "gexp", "topic", "exp", "partition", "0");
            assertThat(metrics.get(series("zkgroups_partition_lag", p0))).as(first.body()).isEqualTo(5.0);
            assertThat(metrics.get(series("zkgroups_partition_offset", p0, "store", "zookeeper"))).isEqualTo(3.0);
            assertThat(metrics.get(series("zkgroups_partition_offset", p0, "store", "kafka"))).isEqualTo(5.0);
            assertThat(metrics.get(series("zkgroups_partition_store_divergence", p0))).isEqualTo(2.0);
            assertThat(metrics.get(series("zkgroups_partition_status", p0))).as("0: OK").isEqualTo(0.0);
            assertThat(metrics.get(series("zkgroups_topic_log_end_offset", Map.of("topic", "exp", "partition", "0")))).isEqualTo(10.0);
            assertThat(metrics.get(series("zkgroups_partition_owner_info", p0, "owner", "gexp_m-0", "live", "true"))).isEqualTo(1.0);
            assertThat(metrics.get(series("zkgroups_group_phase", Map.of("group", "gexp"), "zkgroups_group_phase", "dual-commit")))
                    .isEqualTo(1.0);
            assertThat(metrics.get(series("zkgroups_group_members", Map.of("group", "gexp")))).isEqualTo(1.0);
            assertThat(metrics.get(series("zkgroups_group_lag", Map.of("group", "gexp")))).isEqualTo(5.0);
            assertThat(metrics.get(series("zkgroups_group_status", Map.of("group", "gexp"), "zkgroups_group_status", "OK")))
                    .isEqualTo(1.0);
            assertThat(metrics.get(series("zkgroups_exporter_kafka_up", Map.of()))).isEqualTo(1.0);
            assertThat(metrics.get(series("zkgroups_group_members", Map.of("group", "gexp-idle")))).isEqualTo(0.0);
            assertThat(metrics.get(series("zkgroups_partition_lag", Map.of("group", "gexp-idle", "topic", "exp", "partition", "1"))))
                    .isEqualTo(2.0);
            assertThat(metrics.get(series("zkgroups_group_phase", Map.of("group", "gexp-idle"), "zkgroups_group_phase",
                    "zookeeper-only"))).isEqualTo(1.0);

            c.setZk("gexp", "exp", 0, 9);
            HttpResponse<String> second = http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(PrometheusText.parse(second.body()).get(series("zkgroups_partition_offset", p0, "store", "zookeeper")))
                    .as("a scrape within --min-interval is served from the last read").isEqualTo(3.0);
        } finally {
            serving.interrupt();
            serving.join(10_000);
        }
        assertThat(exporter.get(5, TimeUnit.SECONDS)).isZero();
    }

    @Test
    void describeAndHealthPrintTheZooKeeperHalfWhenKafkaDoesNotAnswer() throws Exception {
        c.kafka.createTopic("dead", 2);
        CliCluster.Member member = c.member("gdead", "m", Map.of("dead", 1));
        member.claim("dead", 0, 0, 1);
        c.setZk("gdead", "dead", 0, 3);
        c.setZk("gdead", "dead", 1, 4);
        String dead = "127.0.0.1:" + freePort();

        CliCluster.Run describe = c.cli("groups", "describe", "--group", "gdead", "--bootstrap-server", dead, "--timeout", "1s");
        assertThat(describe.code()).as(describe.toString()).isEqualTo(ExitCode.KAFKA_PARTIAL.code());
        assertThat(describe.err()).contains("warning").contains(dead).contains("ZooKeeper half");
        assertThat(describe.out()).contains("gdead_m-0").containsPattern("dead\\s+0\\s+3\\s+-").containsPattern("dead\\s+1\\s+4\\s+-");

        CliCluster.Run health = c.cli("health", "--group", "gdead", "--bootstrap-server", dead, "--timeout", "1s");
        assertThat(health.code()).as(health.toString()).isEqualTo(ExitCode.KAFKA_PARTIAL.code());
        assertThat(health.out()).contains("ZOOKEEPER HALF HEALTHY");
        assertThat(health.err()).contains(dead);

        CliCluster.Run lag = c.cli("lag", "--group", "gdead", "--samples", "1", "--bootstrap-server", dead, "--timeout", "1s");
        assertThat(lag.code()).as(lag.toString()).isEqualTo(ExitCode.KAFKA_PARTIAL.code());
        assertThat(lag.out()).contains("LAG -").containsPattern("dead\\s+0\\s+-\\s+3\\s+-");

        CliCluster.Run unhealthy = c.cli("health", "--group", "gdead", "--expect-members", "2", "--bootstrap-server", dead,
                "--timeout", "1s");
        assertThat(unhealthy.code()).as("a failure of the ZooKeeper half still names itself: " + unhealthy)
                .isEqualTo(ExitCode.HEALTH_MEMBERS.code());
    }

    private static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** The key {@link PrometheusText#parse} gives a series. */
    private static String series(String name, Map<String, String> labels, String... more) {
        Map<String, String> all = new TreeMap<>(labels);
        for (int i = 0; i < more.length; i += 2) {
            all.put(more[i], more[i + 1]);
        }
        return name + all;
    }

    private static String[] concat(String[] args, String... more) {
        String[] all = java.util.Arrays.copyOf(args, args.length + more.length);
        System.arraycopy(more, 0, all, args.length, more.length);
        return all;
    }

    /** Collects what a command prints, line by line, as it prints it. */
    private static final class LineCounter {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        PrintStream stream() {
            return new PrintStream(bytes, true, StandardCharsets.UTF_8);
        }

        synchronized List<String> lines() {
            String text;
            synchronized (bytes) {
                text = bytes.toString(StandardCharsets.UTF_8);
            }
            int complete = text.lastIndexOf('\n');
            return complete < 0 ? List.of() : List.of(text.substring(0, complete).split("\n"));
        }
    }
}
