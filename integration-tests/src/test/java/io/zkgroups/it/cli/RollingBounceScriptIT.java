package io.zkgroups.it.cli;

import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.store.PartitionOwner;
import io.zkgroups.tool.Main;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * docs/rolling-bounce.sh for real: three {@code zkgroups consume} processes in one group, bounced one by one by a
 * restart command (SIGTERM, wait for the exit, start again), every step gated on {@code zkgroups health --wait}
 * (bin/zkgroups with the jars this build packaged).
 */
@Timeout(240)
class RollingBounceScriptIT {

    private static final Path ROOT = Path.of(System.getProperty("user.dir")).toAbsolutePath().getParent();
    private static CliCluster cluster;

    @BeforeAll
    static void start() {
        cluster = CliCluster.start();
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    /** Writes start.sh / restart.sh / stop-only.sh for members named h1.. into {@code dir}. */
    private static void writeScripts(Path dir, String group, String topic) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String start = "#!/usr/bin/env bash\n"
                + "# start.sh NAME: one consumer in the background, its pid in NAME.pid\n"
                + "nohup '" + java + "' -Xmx128m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp '"
                + System.getProperty("java.class.path") + "' " + Main.class.getName()
                + " consume --group " + group + " --topic " + topic + " --zookeeper '" + cluster.zookeeper() + "'"
                + " > '" + dir + "'/$1.out 2>> '" + dir + "'/$1.err &\n"
                + "echo $! > '" + dir + "'/$1.pid\n";
        String restart = "#!/usr/bin/env bash\n"
                + "# restart.sh NAME: SIGTERM, wait until the process has exited, start again\n"
                + "pid=$(cat '" + dir + "'/$1.pid)\n"
                + "kill -TERM \"$pid\"\n"
                + "while kill -0 \"$pid\" 2>/dev/null; do sleep 0.05; done\n"
                + "echo \"$1\" >> '" + dir + "'/restarted\n"
                + "'" + dir + "'/start.sh \"$1\"\n";
        String stopOnly = "#!/usr/bin/env bash\n"
                + "pid=$(cat '" + dir + "'/$1.pid)\n"
                + "kill -TERM \"$pid\"\n"
                + "while kill -0 \"$pid\" 2>/dev/null; do sleep 0.05; done\n";
        for (var script : List.of(List.of("start.sh", start), List.of("restart.sh", restart), List.of("stop-only.sh", stopOnly))) {
            Path file = dir.resolve(script.get(0));
            Files.writeString(file, script.get(1), StandardCharsets.UTF_8);
            file.toFile().setExecutable(true);
        }
    }

    private static Process bounce(Path dir, String group, String wait, String restartScript, String... hosts)
            throws IOException {
        List<String> command = new java.util.ArrayList<>(List.of("bash", ROOT.resolve("docs/rolling-bounce.sh").toString(),
                "--group", group, "--members", "3", "--settle", "1s", "--wait", wait,
                "--restart", dir.resolve(restartScript) + " {}"));
        command.addAll(List.of(hosts));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(dir.resolve("bounce-" + restartScript + ".log").toFile());
        builder.environment().put("ZKGROUPS_NO_BUILD", "1");
        builder.environment().put("ZKGROUPS_ZOOKEEPER", cluster.zookeeper());
        return builder.start();
    }

    private static void startMembers(Path dir) throws Exception {
        for (String host : List.of("h1", "h2", "h3")) {
            assertThat(new ProcessBuilder(dir.resolve("start.sh").toString(), host).start().waitFor()).isZero();
        }
    }

    private static void stopMembers(Path dir) throws Exception {
        for (String host : List.of("h1", "h2", "h3")) {
            Path pid = dir.resolve(host + ".pid");
            if (Files.exists(pid)) {
                ProcessHandle.of(Long.parseLong(Files.readString(pid).strip())).ifPresent(ProcessHandle::destroyForcibly);
            }
        }
    }

    @Test
    void threeMembersAreBouncedOneByOneAndTheGroupEndsHealthyWithThreeNewMembers(@TempDir Path dir) throws Exception {
        assertThat(ROOT.resolve("bin/zkgroups")).as("repository root").exists();
        cluster.kafka.createTopic("bounced", 6);
        writeScripts(dir, "rb", "bounced");
        startMembers(dir);
        try {
            await().atMost(Duration.ofSeconds(60)).until(() -> cluster.registry.members().ids("rb", null).size() == 3);
            Set<ConsumerId> before = new TreeSet<>(cluster.registry.members().ids("rb", null));

            Process script = bounce(dir, "rb", "60s", "restart.sh", "h1", "h2", "h3");
            assertThat(script.waitFor(180, TimeUnit.SECONDS)).isTrue();
            String log = Files.readString(dir.resolve("bounce-restart.sh.log"));

            assertThat(script.exitValue()).as(log).isZero();
            assertThat(log).contains("all 3 members bounced; group rb healthy");
            assertThat(Files.readAllLines(dir.resolve("restarted"))).containsExactly("h1", "h2", "h3");
            Set<ConsumerId> after = new TreeSet<>(cluster.registry.members().ids("rb", null));
            assertThat(after).hasSize(3).doesNotContainAnyElementsOf(before);
            assertThat(cluster.registry.owners().owners("rb").entries()).hasSize(6)
                    .allSatisfy(o -> assertThat(after).contains(o.thread().orElseThrow().consumer()));
        } finally {
            stopMembers(dir);
        }
    }

    @Test
    void aRestartThatDoesNotBringTheMemberBackStopsTheBounceWithTheHealthExitCode(@TempDir Path dir) throws Exception {
        cluster.kafka.createTopic("unbounced", 3);
        writeScripts(dir, "rb-stop", "unbounced");
        startMembers(dir);
        try {
            await().atMost(Duration.ofSeconds(60)).until(() -> cluster.registry.members().ids("rb-stop", null).size() == 3);

            Process script = bounce(dir, "rb-stop", "5s", "stop-only.sh", "h1", "h2");
            assertThat(script.waitFor(180, TimeUnit.SECONDS)).isTrue();
            String log = Files.readString(dir.resolve("bounce-stop-only.sh.log"));

            assertThat(script.exitValue()).as(log).isEqualTo(20); // members: 2 registered, 3 expected
            assertThat(log).contains("not healthy after restarting h1").doesNotContain("restarting h2");
            assertThat(cluster.registry.members().ids("rb-stop", null)).hasSize(2);
            List<PartitionOwner> owners = cluster.registry.owners().owners("rb-stop").entries();
            assertThat(owners).hasSize(3);
        } finally {
            stopMembers(dir);
        }
    }

    /**
     * Members that restart by session hand-over, successor first: start-successor.sh starts the new process (it waits
     * for a ticket) and returns once its log says so, stop-old.sh stops the old one, which hands its session over. The
     * group never rebalances: the script reports each hand-over, and every registration is the one made before.
     */
    @Test
    void membersRestartingBySessionHandOverSuccessorFirstKeepTheirRegistrations(@TempDir Path dir) throws Exception {
        cluster.kafka.createTopic("handed", 6);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String consume = "'" + java + "' -Xmx128m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp '"
                + System.getProperty("java.class.path") + "' " + Main.class.getName()
                + " consume --group rb-handover --topic handed --zookeeper '" + cluster.zookeeper() + "' --verbose";
        String props = "zkgroups.restart.handover.file=" + dir + "/$1.handover\\nconsumer.id=$1\\n";
        String start = "#!/usr/bin/env bash\n"
                + "printf \"" + props + "\" > '" + dir + "'/$1.properties\n"
                + "nohup " + consume + " --consumer.config '" + dir + "'/$1.properties > '" + dir + "'/$1.out 2> '"
                + dir + "'/$1.err &\n"
                + "echo $! > '" + dir + "'/$1.pid\n";
        String startSuccessor = "#!/usr/bin/env bash\n"
                + "printf \"" + props + "zkgroups.restart.handover.await.ms=60000\\n\" > '" + dir + "'/$1.next.properties\n"
                + "nohup " + consume + " --consumer.config '" + dir + "'/$1.next.properties > '" + dir + "'/$1.next.out 2> '"
                + dir + "'/$1.next.err &\n"
                + "echo $! > '" + dir + "'/$1.next.pid\n"
                + "until grep -q 'for a ticket' '" + dir + "'/$1.next.err; do sleep 0.05; done\n";
        String stopOld = "#!/usr/bin/env bash\n"
                + "pid=$(cat '" + dir + "'/$1.pid)\n"
                + "kill -TERM \"$pid\"\n"
                + "while kill -0 \"$pid\" 2>/dev/null; do sleep 0.05; done\n"
                + "mv '" + dir + "'/$1.next.pid '" + dir + "'/$1.pid\n";
        for (var script : List.of(List.of("start.sh", start), List.of("start-successor.sh", startSuccessor),
                List.of("stop-old.sh", stopOld))) {
            Path file = dir.resolve(script.get(0));
            Files.writeString(file, script.get(1), StandardCharsets.UTF_8);
            file.toFile().setExecutable(true);
        }
        startMembers(dir);
        try {
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(
                    cluster.registry.members().list("rb-handover").entries().size() == 3
                            && cluster.registry.owners().owners("rb-handover").entries().size() == 6)
                    .as("3 members owning 6 partitions; their logs: %s", tails(dir)).isTrue());
            List<io.zkgroups.registry.store.Member> before = cluster.registry.members().list("rb-handover").entries();

            List<String> command = List.of("bash", ROOT.resolve("docs/rolling-bounce.sh").toString(),
                    "--group", "rb-handover", "--members", "3", "--settle", "1s", "--wait", "60s", "--handover",
                    "--start", dir.resolve("start-successor.sh") + " {}", "--stop", dir.resolve("stop-old.sh") + " {}",
                    "h1", "h2", "h3");
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("bounce-handover.log").toFile());
            builder.environment().put("ZKGROUPS_NO_BUILD", "1");
            builder.environment().put("ZKGROUPS_ZOOKEEPER", cluster.zookeeper());
            Process script = builder.start();
            assertThat(script.waitFor(180, TimeUnit.SECONDS)).isTrue();
            String log = Files.readString(dir.resolve("bounce-handover.log"));

            assertThat(script.exitValue()).as(log).isZero();
            for (String host : List.of("h1", "h2", "h3")) {
                assertThat(log).contains("rolling-bounce: " + host + " handed its session over");
                assertThat(Files.readString(dir.resolve(host + ".next.err"))).contains("for a ticket");
            }
            assertThat(log).doesNotContain("did not hand its session over").contains("all 3 members bounced");
            // the same registrations, in the same sessions: nobody left or joined, the group never rebalanced
            assertThat(cluster.registry.members().list("rb-handover").entries()).isEqualTo(before);
        } finally {
            stopMembers(dir);
        }
    }

    /** The end of each member's stderr, for a failure message. */
    private static String tails(Path dir) throws IOException {
        StringBuilder all = new StringBuilder();
        try (var files = Files.list(dir)) {
            for (Path err : files.filter(f -> f.toString().endsWith(".err")).sorted().toList()) {
                String text = Files.readString(err);
                all.append("\n--- ").append(err.getFileName()).append(":\n")
                        .append(text.substring(Math.max(0, text.length() - 1500)));
            }
        }
        return all.toString();
    }
}
