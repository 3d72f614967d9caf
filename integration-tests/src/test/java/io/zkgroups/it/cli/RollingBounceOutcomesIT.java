package io.zkgroups.it.cli;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/rolling-bounce.sh tells its failures apart: a failed health gate (health's code), a zkgroups error (4: bad
 * zkgroups arguments, unreachable ZooKeeper) and a failed restart command (3), each with its own message. The members
 * are registrations in test sessions, so each case takes one health evaluation, not a process start.
 */
@Timeout(180)
class RollingBounceOutcomesIT {

    private static final Path ROOT = Path.of(System.getProperty("user.dir")).toAbsolutePath().getParent();
    private static CliCluster cluster;

    @BeforeAll
    static void start() {
        cluster = CliCluster.start();
        cluster.kafka.createTopic("outcomes", 2);
        // healthy: one member whose single thread owns both partitions (range)
        cluster.member("rbo-ok", "m1", Map.of("outcomes", 1)).claim("outcomes", 0, 0, 1);
        // unhealthy: a member that owns nothing (exit 21, partitions without owner)
        cluster.member("rbo-gate", "m1", Map.of("outcomes", 1));
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    private record Outcome(int code, String log) {
    }

    private static Outcome bounce(Path dir, String group, String restart, String... extra) throws Exception {
        List<String> command = new ArrayList<>(List.of("bash", ROOT.resolve("docs/rolling-bounce.sh").toString(),
                "--group", group, "--members", "1", "--settle", "500ms", "--wait", "3s", "--restart", restart));
        command.addAll(List.of(extra));
        command.add("h1");
        command.add("h2");
        Path log = dir.resolve("bounce.log");
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("ZKGROUPS_NO_BUILD", "1");
        builder.environment().put("ZKGROUPS_ZOOKEEPER", cluster.zookeeper());
        Process script = builder.start();
        assertThat(script.waitFor(120, TimeUnit.SECONDS)).isTrue();
        return new Outcome(script.exitValue(), Files.readString(log));
    }

    private static String marker(Path dir) {
        return "echo {} >> '" + dir.resolve("restarted") + "'";
    }

    private static List<String> restarted(Path dir) throws IOException {
        Path file = dir.resolve("restarted");
        return Files.exists(file) ? Files.readAllLines(file) : List.of();
    }

    @Test
    void aFailedHealthGateExitsWithHealthsCodeAndRestartsNothing(@TempDir Path dir) throws Exception {
        Outcome outcome = bounce(dir, "rbo-gate", marker(dir));

        assertThat(outcome.code()).as(outcome.log()).isEqualTo(21);
        assertThat(outcome.log()).contains("rolling-bounce: group rbo-gate is not healthy before the first bounce "
                + "(zkgroups health exit 21");
        assertThat(restarted(dir)).isEmpty();
    }

    @Test
    void aBadZkgroupsArgumentIsAZkgroupsErrorNotAnUnhealthyGroup(@TempDir Path dir) throws Exception {
        Outcome outcome = bounce(dir, "rbo-ok", marker(dir), "--strategy", "bogus");

        assertThat(outcome.code()).as(outcome.log()).isEqualTo(4);
        assertThat(outcome.log()).contains("zkgroups: ") // zkgroups' own error, then the script's
                .contains("rolling-bounce: zkgroups failed before the first bounce, health not judged: exit 2, "
                        + "bad zkgroups command line");
        assertThat(restarted(dir)).isEmpty();
    }

    @Test
    void anUnreachableZooKeeperIsAZkgroupsError(@TempDir Path dir) throws Exception {
        Outcome outcome = bounce(dir, "rbo-ok", marker(dir), "--zk-args", "--zookeeper 127.0.0.1:1 --timeout 1000");

        assertThat(outcome.code()).as(outcome.log()).isEqualTo(4);
        assertThat(outcome.log()).contains("zkgroups: cannot connect to ZooKeeper at 127.0.0.1:1")
                .contains("health not judged: exit 5, ZooKeeper or Kafka unreachable");
    }

    @Test
    void aFailedRestartExits3NamingTheHostAndStopsBeforeTheNext(@TempDir Path dir) throws Exception {
        Outcome outcome = bounce(dir, "rbo-ok", marker(dir) + "; exit 7");

        assertThat(outcome.code()).as(outcome.log()).isEqualTo(3);
        assertThat(outcome.log()).contains("rolling-bounce: the restart command of h1 failed (exit 7)")
                .doesNotContain("restarting h2");
        assertThat(restarted(dir)).containsExactly("h1");
    }

    @Test
    void badScriptArgumentsAreItsOwnUsageError(@TempDir Path dir) throws Exception {
        Outcome outcome = bounce(dir, "rbo-ok", marker(dir), "--members");

        assertThat(outcome.code()).as(outcome.log()).isEqualTo(2);
        assertThat(outcome.log()).contains("rolling-bounce: ");
        assertThat(restarted(dir)).isEmpty();
    }
}
