package io.zkgroups.it.cli;

import io.zkgroups.testing.ChildOutput;
import io.zkgroups.tool.Main;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code zkgroups consume}: prints records one per line and commits exactly what it printed. */
@Timeout(180)
class ConsumeCliIT {

    private static CliCluster cluster;

    @BeforeAll
    static void start() {
        cluster = CliCluster.start();
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    @Test
    void consumeStopsAfterMaxMessagesAndTheNextRunContinuesExactlyThere() {
        cluster.kafka.createTopic("console", 2);
        cluster.fill("console", 2, 5); // v0..v4 in each partition

        CliCluster.Run first = cluster.cli("consume", "--group", "console-g", "--topic", "console",
                "--from-beginning", "--max-messages", "7");
        assertThat(first.code()).as(first.toString()).isZero();
        assertThat(first.out().lines()).hasSize(7);
        Long committed0 = cluster.zkOffset("console-g", "console", 0);
        Long committed1 = cluster.zkOffset("console-g", "console", 1);
        assertThat((committed0 == null ? 0 : committed0) + (committed1 == null ? 0 : committed1)).isEqualTo(7);

        CliCluster.Run rest = cluster.cli("consume", "--group", "console-g", "--topic", "console", "--max-messages", "3");
        assertThat(rest.code()).as(rest.toString()).isZero();
        assertThat(rest.out().lines()).hasSize(3);
        assertThat(cluster.zkOffset("console-g", "console", 0)).isEqualTo(5);
        assertThat(cluster.zkOffset("console-g", "console", 1)).isEqualTo(5);
    }

    @Test
    void consumeWithoutZooKeeperIsAUsageError() {
        CliCluster.Run run = CliCluster.raw("consume", "--topic", "x");
        assertThat(run.code()).isEqualTo(2);
        assertThat(run.err()).contains("--zookeeper");
    }

    /**
     * A real SIGTERM to a {@code zkgroups consume} process: by the time the process has exited, it has committed
     * what it printed and left the group (registration and owner znodes gone). Its session timeout is 30 s, so only
     * a graceful leave — not the session's expiry — can explain that. Rolling-bounce scripts rely on it.
     */
    @Test
    void sigtermCommitsWhatWasPrintedAndLeavesTheGroupBeforeTheProcessExits(@org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        cluster.kafka.createTopic("sigterm", 2);
        cluster.fill("sigterm", 2, 5);
        Path config = dir.resolve("consumer.properties");
        Files.writeString(config, "zookeeper.session.timeout.ms=30000\n");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "consume", "--group", "sigterm-g", "--topic", "sigterm", "--from-beginning",
                "--consumer.config", config.toString(), "--zookeeper", cluster.zookeeper()));
        Process child = new ProcessBuilder(command).redirectError(dir.resolve("stderr.txt").toFile()).start();
        ChildOutput printed = ChildOutput.start(child, "consume-child-stdout");
        try {
            assertThat(printed.await(lines -> lines.size() == 10, Duration.ofSeconds(60)))
                    .as("10 records printed, got %s", printed.lines()).isTrue();
            assertThat(cluster.registry.members().ids("sigterm-g", null)).hasSize(1);

            child.destroy(); // SIGTERM
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).as("exited after SIGTERM").isTrue();

            assertThat(cluster.registry.members().ids("sigterm-g", null)).as("registration left behind").isEmpty();
            assertThat(cluster.registry.owners().owners("sigterm-g").entries()).as("owner znodes left behind").isEmpty();
            assertThat(cluster.zkOffset("sigterm-g", "sigterm", 0)).isEqualTo(5);
            assertThat(cluster.zkOffset("sigterm-g", "sigterm", 1)).isEqualTo(5);
        } finally {
            child.destroyForcibly();
        }
    }
}
