package io.zkgroups.it.cli;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code offsets export --format csv --no-header} writes the file {@code kafka-consumer-groups --reset-offsets
 * --from-file} reads (Kafka's layout: no header, {@code topic,partition,offset} for one group), and our own
 * {@code reset --from-file} and {@code import} read it back, with or without a header.
 */
@Timeout(120)
class KafkaCsvOffsetsCliIT {

    private static CliCluster c;

    @BeforeAll
    static void start() {
        c = CliCluster.start();
        c.kafka.createTopic("csv", 3);
        c.fill("csv", 3, 10);
        c.setZk("csv-a", "csv", 0, 3);
        c.setZk("csv-a", "csv", 2, 9);
        c.setZk("csv-b", "csv", 1, 4);
    }

    @AfterAll
    static void stop() {
        if (c != null) {
            c.close();
        }
    }

    @Test
    void noHeaderWritesKafkasLayoutForOneGroupAndKafkasMultiGroupLayoutForSeveral() {
        CliCluster.Run one = c.cli("offsets", "export", "--group", "csv-a", "--format", "csv", "--no-header");
        CliCluster.Run several = c.cli("offsets", "export", "--group", "csv-a", "--group", "csv-b", "--format", "csv",
                "--no-header");
        CliCluster.Run withHeader = c.cli("offsets", "export", "--group", "csv-a", "--format", "csv");

        assertThat(one.code()).as(one.toString()).isZero();
        assertThat(one.out().lines()).containsExactly("csv,0,3", "csv,2,9");
        assertThat(several.out().lines()).containsExactly("csv-a,csv,0,3", "csv-a,csv,2,9", "csv-b,csv,1,4");
        assertThat(withHeader.out().lines()).containsExactly("group,topic,partition,offset", "csv-a,csv,0,3", "csv-a,csv,2,9");
    }

    @Test
    void noHeaderIsOnlyForCsv() {
        CliCluster.Run run = c.cli("offsets", "export", "--group", "csv-a", "--no-header");

        assertThat(run.code()).isEqualTo(2);
        assertThat(run.err()).contains("--no-header goes with --format csv");
    }

    @Test
    void resetFromFileReadsTheKafkaFileAndOurHeaderFile(@TempDir Path dir) throws Exception {
        Path kafkaFile = dir.resolve("kafka.csv");
        Path oursFile = dir.resolve("ours.csv");
        assertThat(c.cli("offsets", "export", "--group", "csv-a", "--format", "csv", "--no-header", "--file",
                kafkaFile.toString()).code()).isZero();
        assertThat(c.cli("offsets", "export", "--group", "csv-a", "--format", "csv", "--file", oursFile.toString()).code())
                .isZero();
        assertThat(Files.readAllLines(kafkaFile)).containsExactly("csv,0,3", "csv,2,9");
        for (String g : new String[]{"csv-r1", "csv-r2"}) { // groups whose offsets the files move back
            c.setZk(g, "csv", 0, 0);
            c.setZk(g, "csv", 2, 0);
        }

        CliCluster.Run fromKafka = c.cli("offsets", "reset", "--group", "csv-r1", "--from-file", kafkaFile.toString(),
                "--execute");
        Files.writeString(oursFile, Files.readString(oursFile).replace("csv-a,", "csv-r2,"));
        CliCluster.Run fromOurs = c.cli("offsets", "reset", "--group", "csv-r2", "--from-file", oursFile.toString(),
                "--execute");

        assertThat(fromKafka.code()).as(fromKafka.toString()).isZero();
        assertThat(fromOurs.code()).as(fromOurs.toString()).isZero();
        for (String g : new String[]{"csv-r1", "csv-r2"}) {
            assertThat(c.zkOffset(g, "csv", 0)).as(g).isEqualTo(3);
            assertThat(c.zkOffset(g, "csv", 2)).as(g).isEqualTo(9);
        }
    }

    @Test
    void importReadsKafkasThreeColumnsForTheGroupGivenAndSaysWhenNoneIs(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("kafka.csv");
        Files.writeString(file, "csv,1,7\n");

        CliCluster.Run withoutGroup = c.cli("offsets", "import", "--file", file.toString(), "--execute");
        CliCluster.Run withGroup = c.cli("offsets", "import", "--file", file.toString(), "--group", "csv-i", "--execute");

        assertThat(withoutGroup.code()).isEqualTo(6);
        assertThat(withoutGroup.err()).contains(file + ":1:").contains("topic,partition,offset lines need --group");
        assertThat(withGroup.code()).as(withGroup.toString()).isZero();
        assertThat(c.zkOffset("csv-i", "csv", 1)).isEqualTo(7);
    }
}
