package io.zkgroups.it.cli;

import io.zkgroups.tool.group.GroupReader;
import io.zkgroups.tool.group.GroupView;
import io.zkgroups.tool.group.MigrationPhase;
import io.zkgroups.tool.io.Clients;
import io.zkgroups.tool.io.ConnectionSettings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.zkgroups.it.cli.CliCluster.tp;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The migration phase is inferred from ZooKeeper mtimes compared with ZooKeeper's own clock: a host whose clock is
 * an hour off sees the same phase as any other.
 */
@Timeout(120)
class SkewedClockIT {

    private static CliCluster c;

    @BeforeAll
    static void start() {
        c = CliCluster.start();
        c.kafka.createTopic("skew", 1);
    }

    @AfterAll
    static void stop() {
        if (c != null) {
            c.close();
        }
    }

    @Test
    void aFreshZooKeeperCommitIsFreshWhateverTheLocalClockSays() throws Exception {
        String g = "gskew";
        c.setKafka(g, Map.of(tp("skew", 0), 12L));
        c.setZk(g, "skew", 0, 10); // written just now: a member still commits to ZooKeeper, so both stores are live
        List<String> rootBefore = c.curator.getChildren().forPath(CliCluster.CHROOT);

        for (Duration skew : List.of(Duration.ZERO, Duration.ofHours(1), Duration.ofHours(-1))) {
            try (Clients clients = new Clients(new ConnectionSettings(c.zookeeper(), null, null, null, null, Duration.ofSeconds(10)))) {
                GroupView view = new GroupReader(clients, Duration.ofMinutes(5), Clock.offset(Clock.systemUTC(), skew))
                        .read(g, null, true);
                assertThat(view.phase().phase()).as("local clock off by " + skew + ": " + view.phase().evidence())
                        .isEqualTo(MigrationPhase.DUAL_COMMIT);
            }
        }
        assertThat(c.curator.getChildren().forPath(CliCluster.CHROOT)).as("nothing is left behind")
                .containsExactlyInAnyOrderElementsOf(rootBefore);
    }
}
