package io.zkgroups.it.consumer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.zkgroups.tool.ExitCode;
import io.zkgroups.tool.Main;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What the CLI does while the broker cannot be reached: {@code health} and {@code groups describe} show what the
 * zkgroups members publish they cannot fetch (judged from ZooKeeper, without waiting on Kafka); every command that needs
 * Kafka gives up within its {@code --timeout}, with its exit code and a message, never a stack trace.
 */
final class ToolsDuringOutage {

    /** The Kafka timeout the commands get; each must be done within a few of them. */
    private static final Duration TIMEOUT = Duration.ofSeconds(2);
    private static final Duration FAST = TIMEOUT.multipliedBy(3).plusSeconds(2);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String zookeeper;
    private final String bootstrap;

    ToolsDuringOutage(String zookeeper, String bootstrap) {
        this.zookeeper = zookeeper;
        this.bootstrap = bootstrap;
    }

    /** While the broker is down: the members' alarms show in health and describe; Kafka commands fail fast. */
    void checkWhileDown(String group, Set<String> zkgroupsMembers) throws Exception {
        await("health names the members that cannot fetch").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
                    Run health = run("health", "--group", group, "--no-store-check");
                    assertThat(health.code).as(health.toString()).isEqualTo(ExitCode.HEALTH_MEMBER_ALARMS.code());
                    // a member fetching partitions says it cannot fetch them (kafka:T-P); one whose store is in Kafka
                    // (dual commit) cannot read their offsets first, and holds them (/consumers/G/offsets/T/P)
                    for (String member : zkgroupsMembers) {
                        assertThat(health.out).as(health.toString()).containsPattern(java.util.regex.Pattern.quote(member)
                                + ": (kafka:|/consumers/" + java.util.regex.Pattern.quote(group) + "/offsets/)");
                    }
                });

        Run describe = run("groups", "describe", "--group", group, "--bootstrap-server", bootstrap, "--output", "json");
        assertThat(describe.code).as(describe.toString()).isEqualTo(ExitCode.KAFKA_PARTIAL.code());
        assertFast(describe);
        Set<String> alarmed = new TreeSet<>();
        for (JsonNode alarm : JSON.readTree(describe.out).path("memberAlarms")) {
            alarmed.add(alarm.path("consumerId").asText());
            assertThat(alarm.path("path").asText()).matches("kafka:.*|/consumers/.*/offsets/.*");
        }
        assertThat(alarmed).as(describe.toString()).containsAll(zkgroupsMembers);

        Run lag = run("lag", "--group", group, "--bootstrap-server", bootstrap, "--samples", "1");
        assertThat(lag.code).as(lag.toString()).isIn(ExitCode.UNREACHABLE.code(), ExitCode.KAFKA_PARTIAL.code());
        assertFast(lag);

        Run plan = run("migrate", "plan", "--group", group, "--bootstrap-server", bootstrap);
        assertThat(plan.code).as(plan.toString()).isEqualTo(ExitCode.UNREACHABLE.code());
        assertFast(plan);

        Run execute = run("migrate", "execute", "--group", group, "--bootstrap-server", bootstrap);
        assertThat(execute.code).as(execute.toString()).isEqualTo(ExitCode.UNREACHABLE.code());
        assertFast(execute);

        Run reset = run("offsets", "reset", "--group", group, "--all-topics", "--to-latest", "--bootstrap-server",
                bootstrap);
        assertThat(reset.code).as(reset.toString()).isIn(ExitCode.UNREACHABLE.code(), ExitCode.GROUP_ACTIVE.code());
        assertFast(reset);
    }

    /** Once the broker is back and the members fetch again: their alarms are gone, the group is healthy. */
    void checkRecovered(String group) {
        await("the members' alarms clear").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> {
                    Run health = run("health", "--group", group, "--no-store-check");
                    assertThat(health.code).as(health.toString()).isZero();
                });
    }

    private static void assertFast(Run run) {
        assertThat(run.millis).as("%s took %d ms with --timeout %s", run.args, run.millis, TIMEOUT)
                .isLessThanOrEqualTo(FAST.toMillis());
        assertThat(run.err).as(run.toString()).doesNotContain("\tat ").doesNotContain("Exception in thread");
        assertThat(run.err.toLowerCase()).as(run.toString()).contains("kafka");
    }

    private Run run(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--zookeeper", zookeeper, "--timeout", TIMEOUT.toSeconds() + "s"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        long start = System.nanoTime();
        int code = Main.run(all.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        System.out.printf("[kafka-outage] zkgroups %s -> exit %d in %d ms%n", String.join(" ", args), code, millis);
        return new Run(String.join(" ", args), code, millis, out.toString(StandardCharsets.UTF_8),
                err.toString(StandardCharsets.UTF_8));
    }

    private record Run(String args, int code, long millis, String out, String err) {
        @Override
        public String toString() {
            return "zkgroups " + args + " -> exit " + code + " in " + millis + " ms\nstdout: " + out + "\nstderr: " + err;
        }
    }
}
