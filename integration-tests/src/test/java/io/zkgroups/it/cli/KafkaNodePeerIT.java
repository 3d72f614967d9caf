package io.zkgroups.it.cli;

import io.zkgroups.rebalancer.consumer.ZkGroupConsumer;
import io.zkgroups.registry.store.PartitionOwner;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A real kafka-node 2.x ZooKeeper HighLevelConsumer (npm, in a node child process) and a {@link ZkGroupConsumer} in
 * one group. kafka-node registers with {@code "pattern":"white_list"} and writes its consumer id, without a thread
 * suffix, as owner data: zkgroups must take both as that member's, so the group converges, every record is delivered,
 * and {@code zkgroups health} passes while both run.
 * <p>
 * kafka-node is installed from the npm registry into {@code target/kafka-node} with the system's {@code npm ci} and
 * the committed lock file ({@code src/test/resources/kafka-node}); npm's cache makes later runs offline.
 */
@Timeout(240)
class KafkaNodePeerIT {

    private static final String GROUP = "kn";
    private static final String TOPIC = "kn-orders";
    private static final int PARTITIONS = 8;
    private static final int PER_PARTITION = 200;

    private static Path nodeDir;
    private static CliCluster c;

    @BeforeAll
    static void installKafkaNodeAndStart() throws Exception {
        nodeDir = Path.of("target", "kafka-node").toAbsolutePath();
        Files.createDirectories(nodeDir);
        for (String file : List.of("package.json", "package-lock.json", "high-level-consumer.js")) {
            try (InputStream in = KafkaNodePeerIT.class.getResourceAsStream("/kafka-node/" + file)) {
                Files.copy(in, nodeDir.resolve(file), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }
        if (!Files.isDirectory(nodeDir.resolve("node_modules/kafka-node"))) {
            Process npm = new ProcessBuilder("npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--prefer-offline")
                    .directory(nodeDir.toFile()).redirectErrorStream(true)
                    .redirectOutput(nodeDir.resolve("npm-ci.log").toFile()).start();
            assertThat(npm.waitFor(180, TimeUnit.SECONDS)).as("npm ci finished within 180 s").isTrue();
            assertThat(npm.exitValue()).as("npm ci in %s: %s", nodeDir, Files.readString(nodeDir.resolve("npm-ci.log")))
                    .isZero();
        }
        c = CliCluster.start();
    }

    @AfterAll
    static void stop() {
        if (c != null) {
            c.close();
        }
    }

    @Test
    void aKafkaNodeHighLevelConsumerAndAZkGroupConsumerShareAGroupLoseNothingAndPassHealth() throws Exception {
        c.kafka.createTopic(TOPIC, PARTITIONS);
        c.fill(TOPIC, PARTITIONS, PER_PARTITION);
        Set<String> delivered = ConcurrentHashMap.newKeySet();
        List<String> nodeLines = new CopyOnWriteArrayList<>();

        Process node = new ProcessBuilder("node", "high-level-consumer.js", c.zookeeper(), GROUP, TOPIC)
                .directory(nodeDir.toFile()).redirectErrorStream(true).start();
        Thread reader = new Thread(() -> readLines(node, nodeLines, delivered), "kafka-node-stdout");
        reader.setDaemon(true);
        reader.start();
        AtomicBoolean polling = new AtomicBoolean(true);
        Thread poller = null;
        try {
            await("kafka-node rebalanced alone").atMost(Duration.ofSeconds(60))
                    .until(() -> nodeLines.stream().anyMatch(l -> l.startsWith("REBALANCED")));

            ZkGroupConsumer<String, String> ours = new ZkGroupConsumer<>(props(), new StringDeserializer(),
                    new StringDeserializer());
            poller = new Thread(() -> {
                try (ours) {
                    ours.subscribe(List.of(TOPIC));
                    while (polling.get()) {
                        for (ConsumerRecord<String, String> r : ours.poll(Duration.ofMillis(100))) {
                            delivered.add(r.partition() + "@" + r.offset());
                        }
                    }
                }
            }, "zkgroups-consumer");
            poller.start();

            await("every record delivered by one of the two").atMost(Duration.ofSeconds(90))
                    .until(() -> delivered.size() == PARTITIONS * PER_PARTITION);
            CliCluster.Run health = c.cli("health", "--group", GROUP, "--wait", "60s", "--expect-members", "2");
            assertThat(health.code()).as("health while both run: %s\nkafka-node: %s", health, tail(nodeLines)).isZero();

            List<PartitionOwner> owners = c.registry.owners().owners(GROUP).entries();
            String nodeId = c.registry.members().ids(GROUP, null).stream().map(id -> id.value())
                    .filter(id -> !id.equals(GROUP + "_zk1")).findFirst().orElseThrow();
            assertThat(owners).as("owner znodes").hasSize(PARTITIONS)
                    .anySatisfy(o -> assertThat(o.value()).as("kafka-node's owner data").isEqualTo(nodeId))
                    .anySatisfy(o -> assertThat(o.value()).isEqualTo(GROUP + "_zk1-0"));
            CliCluster.Run describe = c.cli("groups", "describe", "--group", GROUP);
            assertThat(describe.code()).as(describe.toString()).isZero();
        } finally {
            polling.set(false);
            if (poller != null) {
                poller.join(30_000);
            }
            node.destroy();
            if (!node.waitFor(20, TimeUnit.SECONDS)) {
                node.destroyForcibly();
            }
        }
        assertThat(nodeLines).as("kafka-node's own errors").noneMatch(l -> l.startsWith("ERROR"));
    }

    private static Properties props() {
        Properties p = new Properties();
        p.setProperty("zookeeper.connect", c.zookeeper());
        p.setProperty("group.id", GROUP);
        p.setProperty("consumer.id", "zk1");
        p.setProperty("auto.offset.reset", "smallest");
        p.setProperty("auto.commit.interval.ms", "200");
        p.setProperty("zookeeper.session.timeout.ms", "6000");
        return p;
    }

    private static void readLines(Process node, List<String> lines, Set<String> delivered) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(node.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                if (line.startsWith("REC ")) {
                    String[] f = line.split(" ", 4);
                    delivered.add(f[1] + "@" + f[2]);
                } else {
                    lines.add(line);
                }
            }
        } catch (IOException ended) {
            // the process is gone
        }
    }

    private static String tail(List<String> lines) {
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    }
}
