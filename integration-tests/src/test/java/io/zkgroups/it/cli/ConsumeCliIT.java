package io.zkgroups.it.cli;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

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
}
