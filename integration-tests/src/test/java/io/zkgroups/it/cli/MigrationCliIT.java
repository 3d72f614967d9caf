package io.zkgroups.it.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.tool.ExitCode;
import io.zkgroups.tool.Main;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.zkgroups.it.cli.CliCluster.tp;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code migrate plan|execute|verify|rollback} between a real ZooKeeper and a real Kafka broker: the offset
 * convention, idempotence, no rewinds, and a run killed with SIGKILL midway and resumed to a clean verify.
 */
@Timeout(150)
class MigrationCliIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static CliCluster c;

    @BeforeAll
    static void start() {
        c = CliCluster.start();
        c.kafka.createTopic("m", 2);
        c.kafka.createTopic("conv", 1);
        c.kafka.createTopic("big", 8);
        c.fill("conv", 1, 10);
    }

    @AfterAll
    static void stop() {
        if (c != null) {
            c.close();
        }
    }

    @Test
    void planExecuteVerifyAndRollbackRoundTrip() throws Exception {
        String g = "gmig";
        c.setZk(g, "m", 0, 3);
        c.setZk(g, "m", 1, 5);

        CliCluster.Run plan = c.cli("migrate", "plan", "--group", g, "--output", "json");
        assertThat(plan.code()).as(plan.toString()).isZero();
        JsonNode doc = JSON.readTree(plan.out());
        assertThat(doc.path("executed").asBoolean()).isFalse();
        assertThat(doc.path("totals").path("COPY").asInt()).isEqualTo(2);
        assertThat(c.kafkaOffsets(g)).isEmpty();

        CliCluster.Run diverged = c.cli("migrate", "verify", "--group", g);
        assertThat(diverged.code()).isEqualTo(ExitCode.DIVERGENCE.code());
        assertThat(diverged.out()).containsPattern("gmig\\s+m\\s+0\\s+3\\s+-\\s+-\\s+missing").contains("DIVERGED: 2 of 2");

        CliCluster.Run execute = c.cli("migrate", "execute", "--group", g);
        assertThat(execute.code()).as(execute.toString()).isZero();
        assertThat(execute.out()).contains("Wrote 2 offsets to kafka");
        assertThat(c.kafkaOffsets(g)).containsExactlyInAnyOrderEntriesOf(Map.of(tp("m", 0), 3L, tp("m", 1), 5L));

        CliCluster.Run verified = c.cli("migrate", "verify", "--group", g);
        assertThat(verified.code()).as(verified.toString()).isZero();
        assertThat(verified.out()).contains("OK: 0 of 2 partitions");

        CliCluster.Run again = c.cli("migrate", "execute", "--group", g);
        assertThat(again.code()).isZero();
        assertThat(again.out()).contains("Wrote 0 offsets to kafka").contains("2 already in sync");
        assertThat(c.cli("groups", "describe", "--group", g, "--output", "json").out()).contains("\"phase\" : \"dual-commit\"");

        // members now commit to Kafka only; the way back copies Kafka into ZooKeeper
        c.setKafka(g, Map.of(tp("m", 0), 7L));
        assertThat(c.cli("migrate", "verify", "--group", g, "--rollback").code()).isEqualTo(ExitCode.DIVERGENCE.code());
        CliCluster.Run rollback = c.cli("migrate", "rollback", "--group", g);
        assertThat(rollback.code()).as(rollback.toString()).isZero();
        assertThat(c.zkOffset(g, "m", 0)).isEqualTo(7L);
        assertThat(c.zkOffset(g, "m", 1)).isEqualTo(5L);
        assertThat(c.cli("migrate", "verify", "--group", g, "--rollback").code()).isZero();
    }

    @Test
    void neverMovesAnOffsetBackwardsUnlessAllowedOnAnInactiveGroup() throws Exception {
        String g = "grewind";
        c.setZk(g, "m", 0, 5);
        c.setKafka(g, Map.of(tp("m", 0), 9L));

        CliCluster.Run skipped = c.cli("migrate", "execute", "--group", g);
        assertThat(skipped.code()).isEqualTo(ExitCode.REWIND_SKIPPED.code());
        assertThat(skipped.out()).contains("SKIP_REWIND");
        assertThat(skipped.err()).contains("kafka is ahead of zookeeper");
        assertThat(c.kafkaOffsets(g)).containsEntry(tp("m", 0), 9L);

        CliCluster.Member member = c.member(g, "m1", Map.of("m", 1));
        CliCluster.Run refused = c.cli("migrate", "execute", "--group", g, "--allow-rewind");
        assertThat(refused.code()).isEqualTo(ExitCode.GROUP_ACTIVE.code());
        assertThat(refused.err()).contains("grewind_m1");
        member.leave();

        assertThat(c.cli("migrate", "execute", "--group", g, "--allow-rewind").code()).isZero();
        assertThat(c.kafkaOffsets(g)).containsEntry(tp("m", 0), 5L);
    }

    @Test
    void bothStoresHoldTheNextOffsetToConsumeSoAMigratedGroupResumesAtTheFirstUnconsumedRecord() throws Exception {
        String g = "gconv";
        c.setZk(g, "conv", 0, 4); // a 0.8.2.2 member consumed offsets 0..3

        assertThat(c.cli("migrate", "execute", "--group", g).code()).isZero();

        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, c.kafka.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, g,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none"), new StringDeserializer(), new StringDeserializer())) {
            TopicPartition conv0 = tp("conv", 0);
            consumer.assign(List.of(conv0));
            assertThat(consumer.committed(Set.of(conv0)).get(conv0).offset()).isEqualTo(4);
            List<ConsumerRecord<String, String>> records = new ArrayList<>();
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
                return !records.isEmpty();
            });
            assertThat(records.get(0).offset()).isEqualTo(4);
            assertThat(records.get(0).value()).isEqualTo("v4");
        }
    }

    @Test
    void kafkaRefusingAGroupWithKafkaProtocolMembersIsReportedClearly() throws Exception {
        String g = "gforeign";
        c.setZk(g, "m", 0, 1);
        try (KafkaConsumer<String, String> joined = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, c.kafka.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, g,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false), new StringDeserializer(), new StringDeserializer())) {
            joined.subscribe(List.of("m"));
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                joined.poll(Duration.ofMillis(100));
                return !joined.assignment().isEmpty();
            });

            CliCluster.Run run = c.cli("migrate", "execute", "--group", g);

            assertThat(run.code()).as(run.toString()).isEqualTo(ExitCode.KAFKA_REFUSED.code());
            assertThat(run.err()).contains("through Kafka's own group protocol").contains("stopped after 0 of 1 groups");
        }
    }

    @Test
    void aMigrationKilledMidwayIsFinishedByRunningItAgain() throws Exception {
        int groups = 300;
        int partitions = 8;
        List<String> names = new ArrayList<>();
        for (int i = 0; i < groups; i++) {
            String g = String.format("gkill-%03d", i);
            names.add(g);
            Map<TopicAndPartition, Long> offsets = new TreeMap<>();
            for (int p = 0; p < partitions; p++) {
                offsets.put(new TopicAndPartition("big", p), 1000L * i + p);
            }
            c.registry.offsets().commit(g, offsets);
        }
        List<String> args = new ArrayList<>(List.of("migrate", "execute", "--zookeeper", c.zookeeper(), "--progress",
                "--parallelism", "1", "--batch-size", "5"));
        names.forEach(g -> args.addAll(List.of("--group", g)));

        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(args);
        Process child = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        Pattern progress = Pattern.compile("progress: migrated groups (\\d+)/" + groups);
        CompletableFuture<Integer> reported = new CompletableFuture<>();
        List<String> stderr = new ArrayList<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getErrorStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    synchronized (stderr) {
                        stderr.add(line);
                    }
                    Matcher m = progress.matcher(line);
                    if (m.find() && Integer.parseInt(m.group(1)) >= 15) {
                        child.destroyForcibly(); // SIGKILL, right after it reported progress
                        reported.complete(Integer.parseInt(m.group(1)));
                    }
                }
                reported.complete(-1);
            } catch (Exception e) {
                reported.completeExceptionally(e);
            }
        }, "migrate-child-stderr");
        reader.setDaemon(true);
        reader.start();
        int doneWhenKilled = reported.get(90, TimeUnit.SECONDS);
        assertThat(doneWhenKilled).as("the child reported progress before finishing; stderr: %s", stderr).isPositive();
        assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(child.exitValue()).as("killed by SIGKILL").isEqualTo(137);

        Map<String, Integer> migratedBefore = kafkaPartitionCounts(names);
        long complete = migratedBefore.values().stream().filter(n -> n == partitions).count();
        assertThat(complete).as("some groups were migrated before the kill").isGreaterThanOrEqualTo(doneWhenKilled);
        assertThat(complete).as("the kill left groups to do").isLessThan(groups);
        assertThat(migratedBefore.values()).as("each group is all or nothing").allMatch(n -> n == 0 || n == partitions);

        List<String> rerun = new ArrayList<>(List.of("migrate", "execute"));
        names.forEach(g -> rerun.addAll(List.of("--group", g)));
        CliCluster.Run resumed = c.cli(rerun.toArray(String[]::new));
        assertThat(resumed.code()).as(resumed.toString()).isZero();
        assertThat(resumed.out()).contains("Wrote " + (groups - complete) * partitions + " offsets to kafka")
                .contains((complete * partitions) + " already in sync");

        List<String> verify = new ArrayList<>(List.of("migrate", "verify", "--output", "json"));
        names.forEach(g -> verify.addAll(List.of("--group", g)));
        CliCluster.Run verified = c.cli(verify.toArray(String[]::new));
        assertThat(verified.code()).as(verified.toString()).isZero();
        JsonNode doc = JSON.readTree(verified.out());
        assertThat(doc.path("partitions").asInt()).isEqualTo(groups * partitions);
        assertThat(doc.path("divergentPartitions").asInt()).isZero();
        assertThat(c.kafkaOffsets("gkill-123")).containsEntry(tp("big", 7), 123007L);
    }

    /** Number of Kafka offsets of each group, read in one batched request. */
    private static Map<String, Integer> kafkaPartitionCounts(List<String> groups) throws Exception {
        Map<String, ListConsumerGroupOffsetsSpec> specs = new LinkedHashMap<>();
        groups.forEach(g -> specs.put(g, new ListConsumerGroupOffsetsSpec()));
        Map<String, Map<TopicPartition, OffsetAndMetadata>> all =
                c.kafka.admin().listConsumerGroupOffsets(specs).all().get(60, TimeUnit.SECONDS);
        Map<String, Integer> counts = new TreeMap<>();
        groups.forEach(g -> counts.put(g, (int) all.getOrDefault(g, Map.of()).values().stream().filter(o -> o != null).count()));
        return counts;
    }
}
