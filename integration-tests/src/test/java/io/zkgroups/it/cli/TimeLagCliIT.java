package io.zkgroups.it.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.zkgroups.it.support.LegacyConsumerProcess;
import io.zkgroups.it.support.PrometheusText;
import io.zkgroups.rebalancer.consumer.ZkGroupConsumer;
import io.zkgroups.tool.ExitCode;
import io.zkgroups.tool.Main;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
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
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Lag in seconds in {@code lag}, {@code groups describe}, {@code health --max-lag-seconds} and the exporter, against
 * records produced with known timestamps: the truth is the time of the run minus the timestamp of the record at the
 * committed offset, and the tool must be within max(1 s, 10 %) of it — for a stopped group (whose lag keeps growing),
 * an empty partition (0), and a running mixed group of a zkgroups consumer and a real 0.8.2.2 consumer.
 */
@Timeout(240)
class TimeLagCliIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static CliCluster c;
    private static KafkaProducer<String, String> producer;

    @BeforeAll
    static void start() {
        c = CliCluster.start();
        Properties p = new Properties();
        p.setProperty("bootstrap.servers", c.kafka.bootstrapServers());
        producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
    }

    @AfterAll
    static void stop() {
        if (producer != null) {
            producer.close();
        }
        if (c != null) {
            c.close();
        }
    }

    /** Produces {@code n} records to one partition, all stamped {@code timestampMs}. */
    private static void produce(String topic, int partition, long timestampMs, int n) throws Exception {
        for (int i = 0; i < n; i++) {
            producer.send(new ProducerRecord<>(topic, partition, timestampMs, "k" + i, "v" + i)).get(30, TimeUnit.SECONDS);
        }
    }

    /** A tool's lag in seconds, measured between {@code beforeMs} and {@code afterMs}, against a record stamped {@code ts}. */
    private static void assertTrueLag(double actual, long ts, long beforeMs, long afterMs) {
        double low = (beforeMs - ts) / 1000.0;
        double high = (afterMs - ts) / 1000.0;
        double tolerance = Math.max(1.0, 0.1 * high);
        assertThat(actual).as("lag in seconds against the truth %.3f..%.3f s (tolerance %.1f s)", low, high, tolerance)
                .isBetween(low - tolerance, high + tolerance);
    }

    /** Runs the CLI with {@code --output json}; returns the document and the wall-clock bounds of the run. */
    private record Timed(JsonNode doc, long beforeMs, long afterMs) {
    }

    private static Timed json(String... args) throws Exception {
        String[] all = java.util.Arrays.copyOf(args, args.length + 2);
        all[args.length] = "--output";
        all[args.length + 1] = "json";
        long before = System.currentTimeMillis();
        CliCluster.Run run = c.cli(all);
        long after = System.currentTimeMillis();
        assertThat(run.code()).as(run.toString()).isZero();
        return new Timed(run.json(), before, after);
    }

    private static JsonNode partition(JsonNode group, int partition) {
        for (JsonNode p : group.path("partitions")) {
            if (p.path("partition").asInt() == partition) {
                return p;
            }
        }
        throw new AssertionError("no partition " + partition + " in " + group);
    }

    @Test
    void aStoppedGroupIsAsFarBehindAsItsNextRecordIsOldAndFallsFurtherBehindWhileNobodyCommits() throws Exception {
        c.kafka.createTopic("tl-stop", 2);
        long base = System.currentTimeMillis() - 200_000;
        for (int i = 0; i < 10; i++) {
            produce("tl-stop", 0, base + i * 10_000L, 1); // record i was written at base + 10 i s
        }
        c.setZk("gtl-stop", "tl-stop", 0, 4);
        c.setZk("gtl-stop", "tl-stop", 1, 0); // partition 1 is empty: nothing to consume
        long ts4 = base + 40_000;

        Timed first = json("lag", "--group", "gtl-stop", "--samples", "1");
        JsonNode g = first.doc().path("groups").get(0);
        JsonNode p0 = partition(g, 0);
        assertThat(p0.path("lagSecondsSource").asText()).as(g.toString()).isEqualTo("timestamp");
        assertTrueLag(p0.path("lagSeconds").asDouble(), ts4, first.beforeMs(), first.afterMs());
        assertThat(p0.path("commitAgeSeconds").asDouble()).isBetween(0.0, 60.0);
        JsonNode p1 = partition(g, 1);
        assertThat(p1.path("lagSeconds").asDouble()).isZero();
        assertThat(p1.path("lagSecondsSource").asText()).isEqualTo("caught-up");
        assertThat(g.path("maxLagSeconds").asDouble()).isEqualTo(p0.path("lagSeconds").asDouble());

        double firstLag = p0.path("lagSeconds").asDouble();
        await("the lag of a group nobody commits for grows").atMost(WAIT).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            Timed later = json("lag", "--group", "gtl-stop", "--samples", "1");
            JsonNode q0 = partition(later.doc().path("groups").get(0), 0);
            assertThat(q0.path("lagSeconds").asDouble()).isGreaterThanOrEqualTo(firstLag + 2);
            assertTrueLag(q0.path("lagSeconds").asDouble(), ts4, later.beforeMs(), later.afterMs());
        });

        Timed described = json("groups", "describe", "--group", "gtl-stop");
        JsonNode d0 = partition(described.doc(), 0);
        assertTrueLag(d0.path("lagSeconds").asDouble(), ts4, described.beforeMs(), described.afterMs());
        assertThat(partition(described.doc(), 1).path("lagSeconds").asDouble()).isZero();
        CliCluster.Run table = c.cli("groups", "describe", "--group", "gtl-stop");
        assertThat(table.out()).contains("LAG-TIME").contains("COMMITTED");
    }

    @Test
    void aRunningMixedGroupLagsByTheAgeOfTheRecordsItHasNotCommitted() throws Exception {
        String g = "gtl-run";
        c.kafka.createTopic("tl-run", 2);
        produce("tl-run", 0, System.currentTimeMillis(), 3);
        produce("tl-run", 1, System.currentTimeMillis(), 3);
        Properties props = new Properties();
        props.setProperty("zookeeper.connect", c.zookeeper());
        props.setProperty("group.id", g);
        props.setProperty("auto.offset.reset", "smallest");
        props.setProperty("auto.commit.enable", "false");
        props.setProperty("zkgroups.metrics.legacy.mbeans", "false");
        try (ZkGroupConsumer<String, String> member = new ZkGroupConsumer<>(props, new StringDeserializer(), new StringDeserializer());
             LegacyConsumerProcess legacy = LegacyConsumerProcess.builder("time-lag").zookeeperConnect(c.zookeeper())
                     .groupId(g).consumerId("legacy").topic("tl-run", 1)
                     .property("auto.commit.enable", "false").property("auto.offset.reset", "smallest").start()) {
            legacy.awaitReady(LegacyConsumerProcess.DEFAULT_TIMEOUT); // before the zkgroups member polls: 0.8.2.2 joins alone
            member.subscribe(List.of("tl-run"));
            int[] seen = {0};
            await("both members own a partition and the zkgroups member has read its own").atMost(WAIT).until(() -> {
                seen[0] += member.poll(Duration.ofMillis(100)).count();
                return seen[0] == 3 && c.cli("health", "--group", g, "--expect-members", "2").code() == 0;
            });
            int mine = member.assignment().iterator().next().partition();
            int theirs = 1 - mine;
            await("the 0.8.2.2 member has read its partition").atMost(WAIT)
                    .until(() -> delivered(legacy, theirs, 0) == 3);
            member.commitSync();
            legacy.commit();
            JsonNode caughtUp = json("lag", "--group", g, "--samples", "1").doc().path("groups").get(0);
            assertThat(caughtUp.path("maxLagSeconds").asDouble()).as(caughtUp.toString()).isZero();

            long old = System.currentTimeMillis() - 120_000;
            produce("tl-run", 0, old, 3);
            produce("tl-run", 1, old, 3);
            await("the 0.8.2.2 member read the new records (and did not commit them)").atMost(WAIT)
                    .until(() -> delivered(legacy, theirs, 3) == 3);

            Timed lagging = json("lag", "--group", g, "--samples", "1");
            JsonNode group = lagging.doc().path("groups").get(0);
            for (int p = 0; p < 2; p++) {
                JsonNode row = partition(group, p);
                assertThat(row.path("lag").asLong()).as(group.toString()).isEqualTo(3);
                assertThat(row.path("lagSecondsSource").asText()).isEqualTo("timestamp");
                assertTrueLag(row.path("lagSeconds").asDouble(), old, lagging.beforeMs(), lagging.afterMs());
            }

            long before = System.currentTimeMillis();
            CliCluster.Run over = c.cli("health", "--group", g, "--max-lag-seconds", "60");
            assertThat(over.code()).as(over.toString()).isEqualTo(ExitCode.HEALTH_LAGGING.code());
            assertThat(over.out()).contains("lagging (28): tl-run:0 at offset 3");
            assertThat(c.cli("health", "--group", g, "--max-lag-seconds", "3600").code()).isZero();

            Map<String, Double> metrics = scrapeExporter();
            long after = System.currentTimeMillis();
            for (int p = 0; p < 2; p++) {
                Map<String, String> labels = Map.of("group", g, "topic", "tl-run", "partition", Integer.toString(p));
                assertTrueLag(metrics.get(series("zkgroups_partition_lag_seconds", labels)), old, before, after);
                assertThat(metrics.get(series("zkgroups_partition_commit_age_seconds", labels))).isGreaterThanOrEqualTo(0.0);
            }
            assertTrueLag(metrics.get(series("zkgroups_group_max_lag_seconds", Map.of("group", g))), old, before, after);
            assertThat(metrics.get(series("zkgroups_group_membership_changes_total", Map.of("group", g, "change", "joined"))))
                    .as("the history series are served, counted from the exporter's start").isZero();
            assertThat(metrics.get(series("zkgroups_group_rebalances_total", Map.of("group", g)))).isZero();
            assertThat(metrics.get(series("zkgroups_group_audit_events_total", Map.of("group", g)))).isZero();

            int[] more = {0};
            await().atMost(WAIT).until(() -> (more[0] += member.poll(Duration.ofMillis(100)).count()) == 3);
            member.commitSync();
            legacy.commit();
            JsonNode committed = json("lag", "--group", g, "--samples", "1").doc().path("groups").get(0);
            assertThat(committed.path("maxLagSeconds").asDouble()).as(committed.toString()).isZero();
        }
    }

    /** Records of {@code partition} at offsets from {@code from} on that the 0.8.2.2 consumer delivered. */
    private static long delivered(LegacyConsumerProcess legacy, int partition, long from) {
        return legacy.messages().stream().filter(m -> m.partition() == partition && m.offset() >= from)
                .map(LegacyConsumerProcess.ConsumedMessage::offset).distinct().count();
    }

    /** Starts {@code zkgroups exporter} in this JVM, scrapes it once, stops it. */
    private static Map<String, Double> scrapeExporter() throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Thread serving = new Thread(() -> Main.run(new String[]{"exporter", "--port", "0", "--group", "gtl-run",
                "--zookeeper", c.zookeeper()}, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)), "exporter");
        serving.start();
        try {
            Pattern listening = Pattern.compile("listening on http://127\\.0\\.0\\.1:(\\d+)/metrics");
            await().atMost(WAIT).until(() -> listening.matcher(err.toString(StandardCharsets.UTF_8)).find());
            Matcher m = listening.matcher(err.toString(StandardCharsets.UTF_8));
            assertThat(m.find()).isTrue();
            HttpResponse<String> scraped = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + m.group(1) + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(scraped.statusCode()).isEqualTo(200);
            return PrometheusText.parse(scraped.body());
        } finally {
            serving.interrupt();
            serving.join(10_000);
        }
    }

    private static String series(String name, Map<String, String> labels) {
        return name + new TreeMap<>(labels);
    }
}
