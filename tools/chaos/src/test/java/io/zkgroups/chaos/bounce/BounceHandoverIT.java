package io.zkgroups.chaos.bounce;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A small rolling bounce with session hand-over against real parts (three ZooKeeper servers, a broker, three
 * ZkGroupConsumer JVMs): every restart resumes its predecessor's session, so no owner znode changes hands, and the
 * benchmark's analysis over the same logs as tools/bench/bounce.sh agrees. The 10 × 100 benchmark is tools/bench/bounce.sh.
 */
@Timeout(180)
class BounceHandoverIT {

    private static final Path RUN = Path.of("target", "bounce-it", "handover").toAbsolutePath();

    @Test
    void aRollingBounceWithHandOverMovesNoPartitionAndLosesNothing() throws Exception {
        deleteRecursively(RUN);
        BounceConfig config = new BounceConfig("ours", "range", true, 3, 6, 120, 10_000, 250, 250, 1_000, 0, 0, false);

        BounceReport report = BounceRun.run(config, RUN, Duration.ofSeconds(60), false);
        System.out.println(report.text());

        BounceFigures f = report.figures();
        assertThat(f.steps()).hasSize(3).allSatisfy(s -> assertThat(s.healthy()).isTrue());
        assertThat(f.verdict().violations()).as(report.text()).isEmpty();
        assertThat(f.verdict().acked()).isPositive();
        assertThat(f.verdict().notes()).anySatisfy(n -> assertThat(n).contains("from ZooKeeper's transaction logs"));
        assertThat(f.moves()).as("owner changes during the bounce").isZero();
        assertThat(f.netMoves()).isZero();
        assertThat(f.unownedSeconds()).isZero();
        assertThat(f.bounceMs()).isPositive();
    }

    private static void deleteRecursively(Path dir) throws java.io.IOException {
        if (Files.exists(dir)) {
            try (Stream<Path> paths = Files.walk(dir)) {
                for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }
}
