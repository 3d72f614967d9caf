package io.zkgroups.it.consumer;

import io.zkgroups.embedded.EmbeddedKafka;
import io.zkgroups.it.support.KafkaOnZooKeeperExtension;
import io.zkgroups.it.support.LegacyConsumerProcess;
import io.zkgroups.it.support.OldJre;
import io.zkgroups.testing.ChildOutput;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
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
 * The Java 8 libraries on an older JVM ({@link OldJre}: Java 11 by default), in child JVMs, against a real ZooKeeper
 * and a real Kafka broker in this JVM: the 0.8 wiki's consumer group example, compiled against kafka_2.10:0.8.2.2,
 * runs unchanged on kafka08-bridge; a ZkGroupConsumer poll loop (consumer-driver, compiled for Java 8) consumes a
 * topic. Both get every record once and own their partitions in ZooKeeper. {@code -Dzkgroups.oldJvm.skip=true}
 * leaves the class out; without it, a runtime that cannot be provided fails the class.
 */
@Timeout(180)
class OldJvmIT {

    private static final Duration WAIT = LegacyConsumerProcess.DEFAULT_TIMEOUT;
    private static final Pattern VERSION = Pattern.compile("version \"(1\\.)?(\\d+)");
    @RegisterExtension
    static final KafkaOnZooKeeperExtension servers = new KafkaOnZooKeeperExtension();
    private static Path oldJava;

    @BeforeAll
    static void olderJava() throws Exception {
        Assumptions.assumeFalse(OldJre.skipped(), "-D" + OldJre.SKIP_PROPERTY + "=true");
        oldJava = OldJre.java();
        assertThat(featureVersion(oldJava)).as(oldJava + " -version").isBetween(8, 11);
    }

    @Test
    void anUnmodified08ProgramConsumesThroughTheBridge() throws Exception {
        String group = "old-jvm-example";
        String topic = group + "-t";
        int partitions = 4;
        int perPartition = 25;
        produce(topic, partitions, perPartition);

        try (Bridge08Example example = Bridge08Example.start(oldJava, servers.connectString(), group, topic)) {
            List<String[]> messages = example.awaitMessages(partitions * perPartition);
            assertThat(messages.stream().map(m -> m[3] + "@" + m[4]).distinct()).as("each message once")
                    .hasSize(partitions * perPartition);
            assertThat(owners(group, topic)).as("0.8.2.2 range over the example's two consumer threads")
                    .isEqualTo(Map.of(0, "c1-0", 1, "c1-0", 2, "c1-1", 3, "c1-1"));
            example.process.shutdown();
        }
    }

    @Test
    void aZkGroupConsumerPollLoopConsumesItsPartitions() throws Exception {
        String group = "old-jvm-poll";
        String topic = group + "-t";
        int partitions = 3;
        int perPartition = 20;
        produce(topic, partitions, perPartition);

        Properties props = servers.consumerProperties(group, "z1", 6000);
        List<String> command = new ArrayList<>(List.of(oldJava.toString(), "-Xmx128m", "-XX:+UseSerialGC",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-cp", driverClasspath(),
                "io.zkgroups.driver.ZkGroupConsumerMain", topic));
        props.stringPropertyNames().forEach(k -> command.add(k + "=" + props.getProperty(k)));
        Path stderr = Files.createDirectories(Path.of("target", "old-jvm").toAbsolutePath()).resolve(group + "-stderr.log");
        Process process = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
        try {
            ChildOutput out = ChildOutput.start(process, "poll-loop-stdout");
            out.requireLine(0, l -> l.startsWith("STARTED "), WAIT, "STARTED", what -> failure(what, out, stderr));
            assertThat(out.lines().get(0)).as("the child's Java").matches("JAVA (1\\.8|11)\\..*");
            out.require(lines -> records(lines).size() >= partitions * perPartition, WAIT,
                    partitions * perPartition + " records", what -> failure(what, out, stderr));
            List<String> records = records(out.lines());
            assertThat(records).as("each record once").doesNotHaveDuplicates().hasSize(partitions * perPartition);
            assertThat(records).allSatisfy(r -> assertThat(r.split(" ")[3]).startsWith("v" + r.split(" ")[1] + "-"));
            assertThat(owners(group, topic)).as("the group's only member owns every partition")
                    .isEqualTo(Map.of(0, "z1-0", 1, "z1-0", 2, "z1-0"));

            try (Writer in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.US_ASCII)) {
                in.write("close\n");
            }
            out.requireLine(0, "CLOSED"::equals, WAIT, "CLOSED", what -> failure(what, out, stderr));
            assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(process.exitValue()).isZero();
            assertThat(servers.client().checkExists().forPath("/consumers/" + group + "/ids/" + group + "_z1"))
                    .as("deregistered").isNull();
        } finally {
            process.destroyForcibly();
        }
    }

    private static List<String> records(List<String> lines) {
        return lines.stream().filter(l -> l.startsWith("REC ")).toList();
    }

    private static AssertionError failure(String what, ChildOutput out, Path stderr) {
        String err;
        try {
            err = Files.readString(stderr);
        } catch (IOException e) {
            err = "(no stderr: " + e + ")";
        }
        return new AssertionError(what + "\nstdout: " + out.lines() + "\nstderr:\n" + err);
    }

    /** consumer-driver's classes, its runtime classpath (the libraries and theirs) and slf4j-simple for its log. */
    private static String driverClasspath() throws Exception {
        String classes = System.getProperty("driver.classes");
        String classpathFile = System.getProperty("driver.classpathFile");
        if (classes == null || classpathFile == null || !Files.isRegularFile(Path.of(classpathFile))) {
            throw new IllegalStateException("consumer-driver is not built (driver.classes=" + classes
                    + ", driver.classpathFile=" + classpathFile + "): run 'mvn verify' with it in the reactor (-am)");
        }
        String slf4jSimple = Path.of(org.slf4j.simple.SimpleLogger.class.getProtectionDomain().getCodeSource()
                .getLocation().toURI()).toString();
        return String.join(java.io.File.pathSeparator, classes,
                Files.readString(Path.of(classpathFile), StandardCharsets.UTF_8).trim(), slf4jSimple);
    }

    private static int featureVersion(Path java) throws Exception {
        Process p = new ProcessBuilder(java.toString(), "-version").redirectErrorStream(true).start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).as(java + " -version exits").isTrue();
        Matcher m = VERSION.matcher(text);
        assertThat(m.find()).as(java + " -version printed: " + text).isTrue();
        return Integer.parseInt(m.group(2));
    }

    private static void produce(String topic, int partitions, int perPartition) {
        servers.broker().createTopic(topic, partitions);
        List<EmbeddedKafka.Record> records = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            for (int i = 0; i < perPartition; i++) {
                records.add(EmbeddedKafka.Record.to(p, "k", "v" + p + "-" + i));
            }
        }
        servers.broker().produce(topic, records.toArray(EmbeddedKafka.Record[]::new));
    }

    private static Map<Integer, String> owners(String group, String topic) throws Exception {
        Map<Integer, String> owners = new TreeMap<>();
        String path = "/consumers/" + group + "/owners/" + topic;
        if (servers.client().checkExists().forPath(path) != null) {
            for (String partition : servers.client().getChildren().forPath(path)) {
                String thread = new String(servers.client().getData().forPath(path + "/" + partition), StandardCharsets.UTF_8);
                owners.put(Integer.parseInt(partition), thread.substring(group.length() + 1));
            }
        }
        return owners;
    }

    /** Kafka08BridgeIT's example process with two consumer threads, waited for until READY. */
    private record Bridge08Example(Kafka08BridgeIT.ExampleProcess process) implements AutoCloseable {

        static Bridge08Example start(Path java, String zookeeper, String group, String topic) throws IOException {
            Bridge08Example example = new Bridge08Example(Kafka08BridgeIT.ExampleProcess.start(java, zookeeper, group,
                    topic, 2, "c1"));
            example.process.output.requireLine(0, "READY"::equals, WAIT, "READY",
                    what -> new AssertionError(what + "\n" + example.process.stderrText()));
            return example;
        }

        List<String[]> awaitMessages(int count) {
            await(count + " messages printed").atMost(WAIT).until(() -> process.messages().size() >= count);
            return process.messages();
        }

        @Override
        public void close() {
            process.close();
        }
    }
}
