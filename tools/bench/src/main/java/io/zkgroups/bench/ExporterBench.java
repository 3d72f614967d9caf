package io.zkgroups.bench;

import io.zkgroups.embedded.EmbeddedKafka;
import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.testing.TestZooKeeper;
import io.zkgroups.tool.Main;
import org.apache.curator.framework.CuratorFramework;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The cost of one {@code zkgroups exporter} scrape of G groups × P partitions: every group has an offset in ZooKeeper
 * and in Kafka for each partition (the dual-commit phase, so both stores are read and compared), and one member owning
 * everything in one group of fifty. Two exporters run in this JVM against one loopback ZooKeeper and one in-process
 * Kafka 3.9 broker: one with {@code --min-interval 0s} (every scrape reads ZooKeeper and Kafka: the figure that matters),
 * one with {@code --min-interval 1h} (a cached scrape: rendering only). Scrapes go over loopback HTTP, one at a time.
 * Usage: {@code ExporterBench [--groups N] [--partitions N] [--scrapes N]}.
 */
public final class ExporterBench {

    private static final Pattern LISTENING = Pattern.compile("listening on http://127\\.0\\.0\\.1:(\\d+)/metrics");

    @Command(name = "ExporterBench", mixinStandardHelpOptions = true, sortOptions = false,
            description = "The cost of one zkgroups exporter scrape of G groups x P partitions.")
    static final class Options {
        @Option(names = "--groups",
                description = "Groups, each with offsets in ZooKeeper and Kafka (default: ${DEFAULT-VALUE}).")
        int groups = 1000;

        @Option(names = "--partitions", description = "Partitions of the one topic (default: ${DEFAULT-VALUE}).")
        int partitions = 50;

        @Option(names = "--scrapes", description = "Scrapes per exporter (default: ${DEFAULT-VALUE}).")
        int scrapes = 7;

        @Option(names = "--records", description = "Records per partition, before every group's offset 0, so that lag in "
                + "seconds reads a record (default: ${DEFAULT-VALUE}).")
        int records;
    }

    public static void main(String[] args) throws Exception {
        Options options = BenchCommand.parse(new Options(), args);
        int groups = options.groups;
        int partitions = options.partitions;
        int scrapes = options.scrapes;
        System.out.printf("ExporterBench: %d groups x %d partitions = %d partition series per metric, %d scrapes%n",
                groups, partitions, groups * partitions, scrapes);

        try (TestZooKeeper zk = TestZooKeeper.start();
             EmbeddedKafka kafka = EmbeddedKafka.startZooKeeperMode(zk.connectString() + "/bench")) {
            createTopic(kafka, partitions);
            if (options.records > 0) { // a backlog, so that lag in seconds reads the record at each committed offset
                List<EmbeddedKafka.Record> records = new ArrayList<>();
                for (int p = 0; p < partitions; p++) {
                    for (int i = 0; i < options.records; i++) {
                        records.add(EmbeddedKafka.Record.to(p, "k", "v"));
                    }
                }
                kafka.produce("bench", records.toArray(EmbeddedKafka.Record[]::new));
            }
            CuratorFramework curator = zk.newClient(30_000);
            ZkRegistry registry = new ZkRegistry(curator, ZkLayout.withChroot("/bench"));
            Admin admin = kafka.admin();
            long t0 = System.nanoTime();
            Deque<KafkaFuture<Void>> inFlight = new ArrayDeque<>();
            List<CuratorFramework> members = new ArrayList<>();
            for (int g = 0; g < groups; g++) {
                String name = String.format("bench-%04d", g);
                Map<TopicAndPartition, Long> offsets = new TreeMap<>();
                Map<TopicPartition, OffsetAndMetadata> kafkaOffsets = new HashMap<>();
                for (int p = 0; p < partitions; p++) {
                    offsets.put(new TopicAndPartition("bench", p), 0L);
                    kafkaOffsets.put(new TopicPartition("bench", p), new OffsetAndMetadata(0L));
                }
                registry.offsets().commit(name, offsets);
                if (inFlight.size() == 8) {
                    inFlight.removeFirst().get(30, TimeUnit.SECONDS);
                }
                inFlight.addLast(admin.alterConsumerGroupOffsets(name, kafkaOffsets).all());
                if (g % 50 == 0) { // a session each: ZooKeeper allows 60 connections per address
                    members.add(member(zk, name, partitions));
                }
            }
            for (KafkaFuture<Void> f : inFlight) {
                f.get(30, TimeUnit.SECONDS);
            }
            System.out.printf("seeded in %.1f s (%d groups with a member)%n", (System.nanoTime() - t0) / 1e9, members.size());

            String zkConnect = zk.connectString() + "/bench";
            HttpClient http = HttpClient.newHttpClient();
            for (String minInterval : List.of("0s", "1h")) {
                ByteArrayOutputStream err = new ByteArrayOutputStream();
                Thread serving = new Thread(() -> Main.run(new String[]{"exporter", "--port", "0", "--min-interval", minInterval,
                        "--zookeeper", zkConnect, "--timeout", "30s"}, new PrintStream(OutputStream.nullOutputStream()),
                        new PrintStream(err, true, StandardCharsets.UTF_8)), "exporter-" + minInterval);
                long start = System.nanoTime();
                serving.start();
                int port = awaitPort(err, serving);
                System.out.printf("exporter --min-interval %s: started (first read included) in %.2f s%n", minInterval,
                        (System.nanoTime() - start) / 1e9);
                URI uri = URI.create("http://127.0.0.1:" + port + "/metrics");
                List<Double> millis = new ArrayList<>();
                int bytes = 0;
                long lines = 0;
                for (int i = 0; i < scrapes; i++) {
                    Map<String, Long> before = RequestCounts.read();
                    long s = System.nanoTime();
                    HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
                    millis.add((System.nanoTime() - s) / 1e6);
                    System.out.printf("  scrape %d: %.0f ms, requests %s%n", i + 1, millis.get(millis.size() - 1),
                            RequestCounts.since(before, RequestCounts.read()));
                    if (r.statusCode() != 200) {
                        throw new IllegalStateException("scrape answered " + r.statusCode());
                    }
                    bytes = r.body().length();
                    lines = r.body().lines().filter(l -> !l.startsWith("#")).count();
                }
                Collections.sort(millis);
                System.out.printf("| --min-interval %s | median %.0f ms | min %.0f ms | max %.0f ms | %d series, %.1f MB |%n",
                        minInterval, millis.get(millis.size() / 2), millis.get(0), millis.get(millis.size() - 1), lines,
                        bytes / 1e6);
                serving.interrupt();
                serving.join(30_000);
            }
            members.forEach(CuratorFramework::close);
        }
    }

    /**
     * Creates the topic; on a loaded machine the broker may take longer than the request timeout to create a thousand
     * partitions, so a timed-out request is followed by waiting (bounded) until every partition has a leader.
     */
    private static void createTopic(EmbeddedKafka kafka, int partitions) throws Exception {
        try {
            kafka.createTopic("bench", partitions);
            return;
        } catch (IllegalStateException e) {
            System.out.println("creating the topic: " + e.getMessage() + "; waiting for its partitions");
        }
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
        while (System.nanoTime() < deadline) {
            try {
                var d = kafka.admin().describeTopics(List.of("bench")).allTopicNames().get(30, TimeUnit.SECONDS).get("bench");
                if (d.partitions().size() == partitions && d.partitions().stream().allMatch(p -> p.leader() != null)) {
                    return;
                }
            } catch (java.util.concurrent.ExecutionException e) {
                // not there yet
            }
            Thread.sleep(1_000); // a bench polling a broker that is still creating partitions: bounded, not a test
        }
        throw new IllegalStateException("topic bench has not got its " + partitions + " partitions within 10 minutes");
    }

    /** A member of {@code group} in its own session, owning every partition. */
    private static CuratorFramework member(TestZooKeeper zk, String group, int partitions) {
        CuratorFramework session = zk.newClient(30_000);
        ZkRegistry r = new ZkRegistry(session, ZkLayout.withChroot("/bench"));
        io.zkgroups.registry.model.ConsumerId id = io.zkgroups.registry.model.ConsumerId.ofOverride(group, "m");
        r.members().register(group, id, io.zkgroups.registry.model.MemberRegistration.of(
                io.zkgroups.registry.model.Subscription.topics(Map.of("bench", 1)), System.currentTimeMillis()),
                java.time.Duration.ZERO);
        Map<TopicAndPartition, io.zkgroups.registry.model.ThreadId> claims = new TreeMap<>();
        for (int p = 0; p < partitions; p++) {
            claims.put(new TopicAndPartition("bench", p), id.thread(0));
        }
        r.owners().claim(group, id, claims);
        return session;
    }

    private static int awaitPort(ByteArrayOutputStream err, Thread serving) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (System.nanoTime() < deadline) {
            Matcher m = LISTENING.matcher(err.toString(StandardCharsets.UTF_8));
            if (m.find()) {
                return Integer.parseInt(m.group(1));
            }
            if (!serving.isAlive()) {
                throw new IllegalStateException("the exporter ended: " + err.toString(StandardCharsets.UTF_8));
            }
            serving.join(50); // a bench command polling a child's output: bounded, not a test
        }
        throw new IllegalStateException("the exporter did not start: " + err.toString(StandardCharsets.UTF_8));
    }
}
