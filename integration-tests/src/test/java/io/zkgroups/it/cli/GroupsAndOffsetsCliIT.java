package io.zkgroups.it.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.zkgroups.tool.ExitCode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static io.zkgroups.it.cli.CliCluster.tp;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code groups list|describe|delete} and {@code offsets reset|export|import} against a real ZooKeeper and a real
 * Kafka 3.9 broker in ZooKeeper mode (the CLI finds the broker through /brokers/ids), every exit code included.
 */
@Tag("older-zookeeper") // also run on ZooKeeper 3.4 and 3.5 (integration-tests/pom.xml)
@Timeout(120)
class GroupsAndOffsetsCliIT {

    private static CliCluster c;

    @BeforeAll
    static void start() {
        c = CliCluster.start();
        c.kafka.createTopic("orders", 3);
        c.fill("orders", 3, 10); // offsets 0..9 in each partition, log end 10
    }

    @AfterAll
    static void stop() {
        if (c != null) {
            c.close();
        }
    }

    @Test
    void describeShowsOffsetsInBothStoresLagOwnersHostsStateAndPhase() throws Exception {
        String g = "gdesc";
        c.setZk(g, "orders", 0, 4);
        c.setZk(g, "orders", 1, 5);
        c.setZk(g, "orders", 2, 6);
        CliCluster.Member c1 = c.member(g, "host1-1795988905284-59cb08f9", Map.of("orders", 1));
        CliCluster.Member c2 = c.member(g, "c2", Map.of("orders", 1));
        // range over [c2-0, host1...-0] (String order: "gdesc_c2" < "gdesc_host1..."): c2 gets 0,1; host1 gets 2
        c2.claim("orders", 0, 0, 1);
        c1.claim("orders", 0, 2);

        CliCluster.Run run = c.cli("groups", "describe", "--group", g, "--output", "json");

        assertThat(run.code()).as(run.toString()).isZero();
        JsonNode d = run.json();
        assertThat(d.path("state").asText()).isEqualTo("stable");
        assertThat(d.path("phase").asText()).isEqualTo("zookeeper-only");
        assertThat(d.path("strategy").asText()).isEqualTo("range");
        JsonNode p0 = d.path("partitions").get(0);
        assertThat(p0.path("topic").asText()).isEqualTo("orders");
        assertThat(p0.path("zookeeperOffset").asLong()).isEqualTo(4);
        assertThat(p0.path("kafkaOffset").isNull()).isTrue();
        assertThat(p0.path("logEndOffset").asLong()).isEqualTo(10);
        assertThat(p0.path("lag").asLong()).isEqualTo(6);
        assertThat(p0.path("owner").asText()).isEqualTo("gdesc_c2-0");
        JsonNode p2 = d.path("partitions").get(2);
        assertThat(p2.path("owner").asText()).isEqualTo("gdesc_host1-1795988905284-59cb08f9-0");
        assertThat(p2.path("host").asText()).isEqualTo("host1");
        assertThat(run.err()).isEmpty();

        // a third member registers: the owners no longer match the assignment, and it owns nothing yet
        c.member(g, "c3", Map.of("orders", 1));
        CliCluster.Run table = c.cli("groups", "describe", "--group", g);
        assertThat(table.code()).as(table.toString()).isZero();
        assertThat(table.out()).contains("STATE rebalancing").contains("PHASE zookeeper-only")
                .contains("MEMBERS WITHOUT PARTITIONS").contains("gdesc_c3");
        assertThat(table.out()).containsPattern("orders\\s+0\\s+4\\s+-\\s+10\\s+6\\s+gdesc_c2-0");

        CliCluster.Run list = c.cli("groups", "list", "--output", "json");
        assertThat(list.code()).isZero();
        assertThat(list.json().path("groups").findValuesAsText("group")).contains(g);
        assertThat(c.cli("groups", "list").out()).containsPattern("gdesc\\s+active\\s+3\\s+orders");
    }

    @Test
    void badInputGivesOneLineAndADocumentedExitCode() {
        CliCluster.Run unknown = c.cli("groups", "describe", "--group", "nosuchgroup");
        assertThat(unknown.code()).isEqualTo(ExitCode.NOT_FOUND.code());
        assertThat(unknown.err()).isEqualTo("zkgroups: group nosuchgroup not found: no /consumers/nosuchgroup in ZooKeeper "
                + "and no offsets in Kafka" + System.lineSeparator());

        CliCluster.Run noZk = CliCluster.raw("groups", "list", "--zookeeper", "127.0.0.1:1", "--timeout", "1s");
        assertThat(noZk.code()).isEqualTo(ExitCode.UNREACHABLE.code());
        assertThat(noZk.err()).contains("cannot connect to ZooKeeper at 127.0.0.1:1 within 1 s").doesNotContain("Exception");
        assertThat(noZk.err().lines()).hasSize(1);

        c.setZk("gnokafka", "orders", 0, 1);
        CliCluster.Run noKafka = c.cli("groups", "describe", "--group", "gnokafka", "--bootstrap-server", "127.0.0.1:1",
                "--timeout", "2s");
        assertThat(noKafka.code()).as("the ZooKeeper half is printed: " + noKafka).isEqualTo(ExitCode.KAFKA_PARTIAL.code());
        assertThat(noKafka.err()).contains("Kafka at 127.0.0.1:1 did not answer within 2 s");
        assertThat(noKafka.err().lines()).hasSize(1);
        assertThat(noKafka.out()).containsPattern("orders\\s+0\\s+1\\s+-");

        CliCluster.Run usage = c.cli("offsets", "reset", "--group", "g", "--all-topics", "--bogus");
        assertThat(usage.code()).isEqualTo(ExitCode.USAGE.code());
        assertThat(usage.err()).contains("Unknown option: '--bogus'");
        CliCluster.Run noZone = c.cli("offsets", "reset", "--group", "gnokafka", "--all-topics", "--to-datetime",
                "2024-05-01T10:00:00");
        assertThat(noZone.code()).isEqualTo(ExitCode.USAGE.code());
        assertThat(noZone.err()).contains("has no zone");
        CliCluster.Run missingTopic = c.cli("offsets", "reset", "--group", "gnokafka", "--topic", "nosuchtopic", "--to-earliest");
        assertThat(missingTopic.code()).isEqualTo(ExitCode.NOT_FOUND.code());
        assertThat(missingTopic.err()).contains("topic nosuchtopic does not exist");
        CliCluster.Run missingPartition = c.cli("offsets", "reset", "--group", "gnokafka", "--topic", "orders:7", "--to-earliest");
        assertThat(missingPartition.code()).isEqualTo(ExitCode.NOT_FOUND.code());
        assertThat(missingPartition.err()).contains("topic orders has no partition 7");
        assertThat(c.cli("--help").code()).isZero();
        assertThat(c.cli("migrate", "execute", "--help").out()).contains("--allow-rewind").contains("--zookeeper");
    }

    @Test
    void unreadableOffsetZnodesAreReportedWithTheirPathAndNothingIsWritten() {
        String g = "gcorrupt";
        c.setZk(g, "orders", 0, 3);
        c.setZkRaw(g, "orders", "1", "not-a-number");

        CliCluster.Run describe = c.cli("groups", "describe", "--group", g);
        assertThat(describe.code()).isEqualTo(ExitCode.UNREADABLE_ZNODE.code());
        assertThat(describe.err()).contains("/consumers/gcorrupt/offsets/orders/1").contains("is not a decimal number");

        CliCluster.Run reset = c.cli("offsets", "reset", "--group", g, "--all-topics", "--to-latest", "--execute");
        assertThat(reset.code()).as(reset.toString()).isEqualTo(ExitCode.UNREADABLE_ZNODE.code());
        assertThat(reset.err()).doesNotContain("\tat ");
        assertThat(c.zkOffset(g, "orders", 0)).isEqualTo(3L);
    }

    @Test
    void resetPrintsThePlanAndWritesOnlyWithExecute() {
        String g = "greset";
        for (int p = 0; p < 3; p++) {
            c.setZk(g, "orders", p, 5);
        }
        CliCluster.Run plan = c.cli("offsets", "reset", "--group", g, "--all-topics", "--to-earliest");
        assertThat(plan.code()).as(plan.toString()).isZero();
        assertThat(plan.out()).contains("Reset plan for group greset: to-earliest, phase zookeeper-only")
                .contains("Nothing written");
        assertThat(c.zkOffset(g, "orders", 0)).isEqualTo(5L);

        assertThat(c.cli("offsets", "reset", "--group", g, "--all-topics", "--to-earliest", "--execute").code()).isZero();
        assertThat(List.of(c.zkOffset(g, "orders", 0), c.zkOffset(g, "orders", 1), c.zkOffset(g, "orders", 2)))
                .containsOnly(0L);

        assertThat(c.cli("offsets", "reset", "--group", g, "--topic", "orders:1", "--to-latest", "--execute").code()).isZero();
        assertThat(c.zkOffset(g, "orders", 1)).isEqualTo(10L);
        assertThat(c.zkOffset(g, "orders", 0)).isZero();

        assertThat(c.cli("offsets", "reset", "--group", g, "--topic", "orders:1", "--shift-by", "-3", "--execute").code()).isZero();
        assertThat(c.zkOffset(g, "orders", 1)).isEqualTo(7L);

        assertThat(c.cli("offsets", "reset", "--group", g, "--topic", "orders:1", "--to-offset", "99", "--execute").out())
                .contains("clamped");
        assertThat(c.zkOffset(g, "orders", 1)).isEqualTo(10L);

        // every record was produced moments ago: an hour back is the log start, a future time the log end
        assertThat(c.cli("offsets", "reset", "--group", g, "--topic", "orders:1", "--by-duration", "1h", "--execute").code()).isZero();
        assertThat(c.zkOffset(g, "orders", 1)).isZero();
        assertThat(c.cli("offsets", "reset", "--group", g, "--topic", "orders:1", "--to-datetime", "2999-01-01T00:00:00+02:00",
                "--execute").code()).isZero();
        assertThat(c.zkOffset(g, "orders", 1)).isEqualTo(10L);
        assertThat(c.cli("offsets", "reset", "--group", g, "--topic", "orders", "--to-current", "--execute").code()).isZero();
        assertThat(c.zkOffset(g, "orders", 1)).isEqualTo(10L);
    }

    @Test
    void resetFromAFileTakesTheFilesPartitions(@TempDir Path dir) throws Exception {
        String g = "gresetfile";
        c.setZk(g, "orders", 0, 1);
        Path file = dir.resolve("offsets.csv");
        Files.writeString(file, "topic,partition,offset\norders,0,7\norders,2,8\n");

        CliCluster.Run run = c.cli("offsets", "reset", "--group", g, "--from-file", file.toString(), "--execute");

        assertThat(run.code()).as(run.toString()).isZero();
        assertThat(c.zkOffset(g, "orders", 0)).isEqualTo(7L);
        assertThat(c.zkOffset(g, "orders", 1)).isNull();
        assertThat(c.zkOffset(g, "orders", 2)).isEqualTo(8L);
    }

    @Test
    void resetIsRefusedOnAnActiveGroupAndNamesTheMembers() {
        String g = "gactive";
        c.setZk(g, "orders", 0, 5);
        CliCluster.Member member = c.member(g, "worker-1", Map.of("orders", 1));

        CliCluster.Run run = c.cli("offsets", "reset", "--group", g, "--all-topics", "--to-earliest", "--execute");

        assertThat(run.code()).isEqualTo(ExitCode.GROUP_ACTIVE.code());
        assertThat(run.err()).contains("group gactive is active").contains("gactive_worker-1");
        assertThat(c.zkOffset(g, "orders", 0)).isEqualTo(5L);
        CliCluster.Run planOnly = c.cli("offsets", "reset", "--group", g, "--all-topics", "--to-earliest");
        assertThat(planOnly.code()).isZero();
        assertThat(planOnly.err()).contains("--execute will be refused");

        member.leave();
        assertThat(c.cli("offsets", "reset", "--group", g, "--all-topics", "--to-earliest", "--execute").code()).isZero();
        assertThat(c.zkOffset(g, "orders", 0)).isZero();
    }

    @Test
    void inTheDualCommitPhaseResetWritesBothStoresAndSaysWhy() throws Exception {
        String g = "gdual";
        for (int p = 0; p < 3; p++) {
            c.setZk(g, "orders", p, 8);
        }
        c.setKafka(g, Map.of(tp("orders", 0), 8L, tp("orders", 1), 8L, tp("orders", 2), 8L));

        CliCluster.Run run = c.cli("offsets", "reset", "--group", g, "--all-topics", "--to-offset", "2", "--execute");

        assertThat(run.code()).as(run.toString()).isZero();
        assertThat(run.out()).contains("phase dual-commit").contains("writing both ZooKeeper and Kafka")
                .contains("zookeeper+kafka").contains("Wrote 3 offsets to ZooKeeper and 3 to Kafka");
        assertThat(c.zkOffset(g, "orders", 2)).isEqualTo(2L);
        assertThat(c.kafkaOffsets(g)).containsEntry(tp("orders", 0), 2L).containsEntry(tp("orders", 2), 2L);
    }

    @Test
    void exportWritesTheExportZkOffsetsFormatAndImportReadsItBack(@TempDir Path dir) throws Exception {
        c.setZk("gexp", "orders", 0, 3);
        c.setZk("gexp", "orders", 2, 9);

        CliCluster.Run export = c.cli("offsets", "export", "--group", "gexp");
        assertThat(export.code()).isZero();
        assertThat(export.out().lines()).containsExactly("/consumers/gexp/offsets/orders/0:3", "/consumers/gexp/offsets/orders/2:9");

        Path csv = dir.resolve("gexp.csv");
        assertThat(c.cli("offsets", "export", "--group", "gexp", "--format", "csv", "--file", csv.toString()).code()).isZero();
        assertThat(Files.readAllLines(csv)).containsExactly("group,topic,partition,offset", "gexp,orders,0,3", "gexp,orders,2,9");

        Path file = dir.resolve("import.txt");
        Files.writeString(file, export.out().replace("gexp", "gimp"));
        CliCluster.Run plan = c.cli("offsets", "import", "--file", file.toString());
        assertThat(plan.code()).as(plan.toString()).isZero();
        assertThat(plan.out()).contains("Nothing written");
        assertThat(c.zkOffset("gimp", "orders", 0)).isNull();

        CliCluster.Run imported = c.cli("offsets", "import", "--file", file.toString(), "--execute");
        assertThat(imported.code()).as(imported.toString()).isZero();
        assertThat(c.zkOffset("gimp", "orders", 0)).isEqualTo(3L);
        assertThat(c.zkOffset("gimp", "orders", 2)).isEqualTo(9L);
    }

    @Test
    void importChecksTheWholeFileFirstAndReportsEveryBadLine(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("bad.txt");
        Files.writeString(file, String.join("\n",
                "/consumers/gbadimp/offsets/orders/0:1",
                "/consumers/gbadimp/offsets/orders/x:1",
                "gbadimp,orders,1,minus",
                "/consumers/gbadimp/offsets/orders/2:3"));

        CliCluster.Run run = c.cli("offsets", "import", "--file", file.toString(), "--execute");

        assertThat(run.code()).isEqualTo(ExitCode.BAD_INPUT_FILE.code());
        assertThat(run.err()).contains(file + ":2: partition 'x' is not a number").contains(file + ":3: offset 'minus'")
                .contains("2 bad lines, nothing written");
        assertThat(c.zkOffset("gbadimp", "orders", 0)).isNull();

        Path missing = dir.resolve("missing.txt");
        Files.writeString(missing, "/consumers/gbadimp/offsets/orders/0:1\n/consumers/gbadimp/offsets/orders/5:1\n");
        CliCluster.Run noPartition = c.cli("offsets", "import", "--file", missing.toString(), "--execute");
        assertThat(noPartition.code()).isEqualTo(ExitCode.NOT_FOUND.code());
        assertThat(noPartition.err()).contains(missing + ":2: topic orders has no partition 5");
        assertThat(c.zkOffset("gbadimp", "orders", 0)).isNull();

        assertThat(c.cli("offsets", "import", "--file", dir.resolve("nothere").toString()).code())
                .isEqualTo(ExitCode.BAD_INPUT_FILE.code());
    }

    @Test
    void deleteRemovesAnInactiveGroupOnlyWithExecute() {
        String g = "gdel";
        c.setZk(g, "orders", 0, 1);
        c.setZk(g, "other", 0, 1);
        CliCluster.Member member = c.member(g, "m1", Map.of("orders", 1));

        CliCluster.Run refused = c.cli("groups", "delete", "--group", g, "--execute");
        assertThat(refused.code()).isEqualTo(ExitCode.GROUP_ACTIVE.code());
        assertThat(refused.err()).contains("gdel_m1");
        member.leave();

        CliCluster.Run plan = c.cli("groups", "delete", "--group", g, "--topic", "other");
        assertThat(plan.code()).as(plan.toString()).isZero();
        assertThat(plan.out()).contains("Would delete topic other of group gdel").contains("/consumers/gdel/offsets/other/0");
        assertThat(c.zkOffset(g, "other", 0)).isEqualTo(1L);

        assertThat(c.cli("groups", "delete", "--group", g, "--topic", "other", "--execute").code()).isZero();
        assertThat(c.zkOffset(g, "other", 0)).isNull();
        assertThat(c.zkOffset(g, "orders", 0)).isEqualTo(1L);

        assertThat(c.cli("groups", "delete", "--group", g, "--execute").code()).isZero();
        assertThat(c.registry.znodes().exists(c.registry.layout().group(g))).isFalse();
        assertThat(c.cli("groups", "delete", "--group", g).code()).isEqualTo(ExitCode.NOT_FOUND.code());
    }
}
