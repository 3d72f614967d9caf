package io.zkgroups.bench;

import io.zkgroups.embedded.EmbeddedKafka;
import io.zkgroups.registry.testing.TestZooKeeper;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What a restart's successor started ahead of its predecessor's stop costs before it is ready for the ticket: each
 * repetition starts a fresh JVM ({@link SuccessorMain}) with a hand-over file and no ticket in it, and records the time
 * from launch to its {@code AWAITING} (warm-up done) and the CPU time it had used by then (all threads, from
 * {@code /proc}). In a rolling bounce on two cores these starts are what the bounce waits for: their CPU is the figure
 * that counts. The members' JVM options are the bounce's ({@code ChildJvm}: serial GC, C1 only, 160 MB).
 * <pre>
 * SuccessorStartBench [--reps N] [--partitions N] [--baseline REBALANCER_JAR]
 * </pre>
 * {@code --baseline} alternates each repetition with one whose member runs that rebalancer jar instead of this build's.
 */
public final class SuccessorStartBench {

    private static final String TOPIC = "successor-t";
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

    public static void main(String[] args) throws Exception {
        int reps = intArg(args, "--reps", 10);
        int partitions = intArg(args, "--partitions", 100);
        String baseline = stringArg(args, "--baseline", null);
        System.out.printf(Locale.ROOT, "SuccessorStartBench: %d fresh JVMs, %d partitions%n", reps, partitions);
        System.out.printf(Locale.ROOT, "java %s, %d cores, load average %.2f%n", System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(),
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        Path work = Files.createTempDirectory("zkgroups-successor-bench-");
        try (TestZooKeeper zk = TestZooKeeper.start();
             EmbeddedKafka broker = EmbeddedKafka.startZooKeeperMode(zk.connectString())) {
            broker.createTopic(TOPIC, partitions);
            Map<String, List<double[]>> results = new LinkedHashMap<>();
            List<String> builds = baseline == null ? List.of("this") : List.of("this", "baseline");
            List<String> reversed = baseline == null ? builds : List.of("baseline", "this");
            System.out.println("rep  build     launch→ready  CPU by then");
            for (int rep = 1; rep <= reps; rep++) {
                for (String build : rep % 2 == 0 ? reversed : builds) {
                    String classpath = build.equals("this") ? System.getProperty("java.class.path")
                            : RebalancerJar.replace(System.getProperty("java.class.path"), baseline);
                    double[] r = runOnce(zk.connectString(), broker.bootstrapServers(), "successor-" + build + "-" + rep,
                            work, classpath);
                    results.computeIfAbsent(build, b -> new ArrayList<>()).add(r);
                    System.out.printf(Locale.ROOT, "%3d  %-8s  %9.0f ms  %8.0f ms%n", rep, build, r[0], r[1]);
                }
            }
            results.forEach((build, runs) -> System.out.printf(Locale.ROOT,
                    "%s: launch→ready median %.0f ms (%.0f–%.0f), CPU median %.0f ms (%.0f–%.0f)%n", build,
                    median(runs, 0), min(runs, 0), max(runs, 0), median(runs, 1), min(runs, 1), max(runs, 1)));
            System.out.printf(Locale.ROOT, "load average at the end %.2f%n",
                    ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        }
    }

    /** Launch → AWAITING (ms) and the child's CPU time then (ms). */
    private static double[] runOnce(String zkConnect, String bootstrap, String group, Path work, String classpath)
            throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx160m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", "-Xss512k", "-XX:CICompilerCount=1",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-cp", classpath, SuccessorMain.class.getName(),
                "zookeeper.connect=" + zkConnect, "bootstrap.servers=" + bootstrap, "group.id=" + group,
                "consumer.id=member", "zookeeper.session.timeout.ms=6000",
                "zkgroups.restart.handover.file=" + work.resolve(group + ".handover"),
                "zkgroups.restart.handover.await.ms=120000"));
        long launch = System.nanoTime();
        Process child = new ProcessBuilder(command).redirectError(work.resolve(group + ".stderr.log").toFile()).start();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.US_ASCII))) {
            long deadline = launch + READY_TIMEOUT.toNanos();
            String line;
            while ((line = in.readLine()) != null) { // blocks until the child prints or exits
                if (line.startsWith("AWAITING ")) {
                    long ready = Long.parseLong(line.substring("AWAITING ".length()));
                    Duration cpu = child.toHandle().info().totalCpuDuration().orElseThrow(() ->
                            new IllegalStateException("this OS reports no CPU time of a child process"));
                    return new double[]{(ready - launch) / 1e6, cpu.toNanos() / 1e6};
                }
                if (System.nanoTime() > deadline) {
                    break;
                }
            }
            throw new IllegalStateException(group + ": no AWAITING line (see " + work.resolve(group + ".stderr.log") + ")");
        } finally {
            child.destroyForcibly();
            child.waitFor(30, TimeUnit.SECONDS);
        }
    }

    private static double median(List<double[]> runs, int column) {
        double[] sorted = runs.stream().mapToDouble(r -> r[column]).sorted().toArray();
        return sorted[(sorted.length - 1) / 2];
    }

    private static double min(List<double[]> runs, int column) {
        return runs.stream().mapToDouble(r -> r[column]).min().orElseThrow();
    }

    private static double max(List<double[]> runs, int column) {
        return runs.stream().mapToDouble(r -> r[column]).max().orElseThrow();
    }

    private static int intArg(String[] args, String name, int otherwise) {
        return Integer.parseInt(stringArg(args, name, Integer.toString(otherwise)));
    }

    private static String stringArg(String[] args, String name, String otherwise) {
        int i = Arrays.asList(args).indexOf(name);
        return i >= 0 && i + 1 < args.length ? args[i + 1] : otherwise;
    }
}
