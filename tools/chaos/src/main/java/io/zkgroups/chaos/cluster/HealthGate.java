package io.zkgroups.chaos.cluster;

import io.zkgroups.tool.Main;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/**
 * {@code zkgroups health --wait} run in this JVM ({@link Main#run}): the group has exactly the expected members,
 * every partition is owned by the member the assignor gives it, and nothing changed for {@code settle}.
 */
public final class HealthGate {

    /** What one health run said. */
    public record Result(int exitCode, long millis, String output) {
        public boolean healthy() {
            return exitCode == 0;
        }
    }

    private final String zookeeperConnect;
    private final String group;

    public HealthGate(String zookeeperConnect, String group) {
        this.zookeeperConnect = zookeeperConnect;
        this.group = group;
    }

    public Result await(int expectMembers, Duration timeout, Duration settle) {
        List<String> args = List.of("health", "--group", group, "--zookeeper", zookeeperConnect,
                "--expect-members", Integer.toString(expectMembers), "--wait", timeout.toMillis() + "ms",
                "--settle", settle.toMillis() + "ms", "--no-store-check");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        long start = System.nanoTime();
        int code;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            code = Main.run(args.toArray(String[]::new), o, e);
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        return new Result(code, millis, (out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8)).trim());
    }
}
