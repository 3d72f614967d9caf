package io.zkgroups.it.cli;

import io.zkgroups.testing.ChildOutput;
import io.zkgroups.tool.Main;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.LongSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code zkgroups consume} as Kafka's console consumer: {@code --property print.*}, deserializers,
 * {@code --skip-message-on-error}, {@code --timeout-ms}, and the generated group removed on every way out.
 */
@Timeout(180)
class ConsoleConsumerCliIT {

    private static CliCluster cluster;

    @BeforeAll
    static void start() {
        cluster = CliCluster.start();
        cluster.kafka.createTopic("printed", 1);
        cluster.kafka.produce("printed", io.zkgroups.embedded.EmbeddedKafka.Record.of("k0", "v0"),
                io.zkgroups.embedded.EmbeddedKafka.Record.of("k1", "v1"), io.zkgroups.embedded.EmbeddedKafka.Record.of("k2", "v2"));
        cluster.kafka.createTopic("longs", 1);
        // offsets 0, 1: longs; 2: not a long; 3: a long again
        produce("longs", new LongSerializer().serialize("longs", 10L), new LongSerializer().serialize("longs", 11L),
                "oops".getBytes(StandardCharsets.UTF_8), new LongSerializer().serialize("longs", 13L));
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    private static void produce(String topic, byte[]... values) {
        Map<String, Object> config = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.kafka.bootstrapServers());
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            for (byte[] value : values) {
                producer.send(new ProducerRecord<>(topic, 0, null, value));
            }
            producer.flush();
        }
    }

    private static List<String> consoleGroups() throws Exception {
        return cluster.curator.getChildren().forPath(CliCluster.CHROOT + "/consumers").stream()
                .filter(g -> g.startsWith("zkgroups-console-")).toList();
    }

    @Test
    void printPropertiesLayTheRecordOutAsKafkasConsoleConsumer() {
        CliCluster.Run run = cluster.cli("consume", "--group", "props-g", "--topic", "printed", "--from-beginning",
                "--max-messages", "3", "--property", "print.key=true", "--property", "print.partition=true",
                "--property", "print.offset=true", "--property", "print.timestamp=true", "--property", "key.separator=|");

        assertThat(run.code()).as(run.toString()).isZero();
        assertThat(run.out().lines().toList()).hasSize(3).allMatch(l -> l.matches("CreateTime:\\d+\\|Partition:0\\|Offset:\\d\\|k\\d\\|v\\d"));
        assertThat(run.out().lines().toList().get(2)).endsWith("|Partition:0|Offset:2|k2|v2");
        assertThat(run.err()).contains("processed a total of 3 messages");
    }

    @Test
    void aBadPropertyIsAUsageErrorNamingIt() {
        CliCluster.Run run = cluster.cli("consume", "--topic", "printed", "--property", "print.kye=true");

        assertThat(run.code()).isEqualTo(2);
        assertThat(run.err()).startsWith("zkgroups: --property print.kye: unknown");
    }

    @Test
    void aValueThatDoesNotDeserializeStopsTheCommandWithExit12AndIsNotCommitted() {
        CliCluster.Run run = cluster.cli("consume", "--group", "strict-g", "--topic", "longs", "--from-beginning",
                "--value-deserializer", "LongDeserializer", "--timeout-ms", "20000");

        assertThat(run.code()).as(run.toString()).isEqualTo(12);
        assertThat(run.out().lines()).containsExactly("10", "11");
        assertThat(run.err()).contains("zkgroups: cannot deserialize the value: LongDeserializer failed")
                .contains("record longs-0 offset 2").contains("--skip-message-on-error");
        assertThat(cluster.zkOffset("strict-g", "longs", 0)).as("committed up to the failed record").isEqualTo(2);
    }

    @Test
    void skipMessageOnErrorReportsTheRecordOnStderrAndGoesOn() {
        CliCluster.Run run = cluster.cli("consume", "--group", "skip-g", "--topic", "longs", "--from-beginning",
                "--value-deserializer", "org.apache.kafka.common.serialization.LongDeserializer", "--skip-message-on-error",
                "--max-messages", "3");

        assertThat(run.code()).as(run.toString()).isZero();
        assertThat(run.out().lines()).containsExactly("10", "11", "13");
        assertThat(run.err()).contains("zkgroups: skipped record longs-0 offset 2: cannot deserialize the value")
                .contains("processed a total of 3 messages, skipped 1");
        assertThat(cluster.zkOffset("skip-g", "longs", 0)).isEqualTo(4);
    }

    @Test
    void timeoutMsEndsTheCommandOnceNoRecordArrivesAndTheGeneratedGroupIsRemoved() throws Exception {
        CliCluster.Run run = cluster.cli("consume", "--topic", "printed", "--from-beginning", "--timeout-ms", "3000");

        assertThat(run.code()).as(run.toString()).isZero();
        assertThat(run.out().lines()).containsExactly("v0", "v1", "v2");
        assertThat(run.err()).contains("no record for 3000 ms");
        assertThat(consoleGroups()).as("generated group left in ZooKeeper").isEmpty();
    }

    @Test
    void aNamedGroupIsKeptAndAGeneratedOneIsRemovedAfterMaxMessages() throws Exception {
        CliCluster.Run named = cluster.cli("consume", "--group", "kept-g", "--topic", "printed", "--from-beginning",
                "--max-messages", "1");
        CliCluster.Run generated = cluster.cli("consume", "--topic", "printed", "--from-beginning", "--max-messages", "1");

        assertThat(named.code()).as(named.toString()).isZero();
        assertThat(generated.code()).as(generated.toString()).isZero();
        assertThat(cluster.zkOffset("kept-g", "printed", 0)).isEqualTo(1);
        assertThat(consoleGroups()).isEmpty();
    }

    /** SIGTERM (what Ctrl-C also sends through the JVM's shutdown): the generated group is gone once the process exits. */
    @Test
    void sigtermRemovesTheGeneratedGroupBeforeTheProcessExits(@TempDir Path dir) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "consume", "--topic", "printed", "--from-beginning", "--zookeeper", cluster.zookeeper()));
        Process child = new ProcessBuilder(command).redirectError(dir.resolve("stderr.txt").toFile()).start();
        ChildOutput printed = ChildOutput.start(child, "console-child-stdout");
        try {
            assertThat(printed.await(lines -> lines.size() == 3, Duration.ofSeconds(60)))
                    .as("3 records printed, got %s", printed.lines()).isTrue();
            assertThat(consoleGroups()).hasSize(1);

            child.destroy(); // SIGTERM
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).as("exited after SIGTERM").isTrue();

            assertThat(consoleGroups()).as("generated group left in ZooKeeper").isEmpty();
        } finally {
            child.destroyForcibly();
        }
    }
}
