package io.zkgroups.bench;

import io.zkgroups.embedded.EmbeddedKafka;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.testing.SteadyProducer;
import io.zkgroups.testing.TestZooKeeper;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * How long a ZkGroupConsumer takes to exit on SIGTERM, with its commits done: each repetition starts a fresh JVM
 * ({@link ExitMemberMain}) in a group of its own, waits until it delivers, sends SIGTERM and waits for the process to
 * end. Records keep arriving all along (one per partition every 5 ms). After the exit, the group's committed offsets are
 * compared with what the member handed out: every partition must be committed just past its last delivered record.
 * <p>
 * Reported per repetition, from the parent's clock (CLOCK_MONOTONIC, shared with the child): SIGTERM → exit, and its
 * parts: SIGTERM → shutdown hook, hook → poll thread out of poll, → close() returned, → process gone.
 * <pre>
 * ExitLatencyBench [--reps N] [--partitions N] [--mode leave|restart] [--baseline REBALANCER_JAR]
 * </pre>
 * {@code --mode restart} sets {@code zkgroups.restart.handover.file}: close() hands the session over instead of leaving.
 * {@code --baseline} alternates each repetition with one whose member runs that rebalancer jar instead of this build's
 * (e.g. one built from an older commit): both under the same load, which on a shared machine is the only fair comparison.
 */
public final class ExitLatencyBench {

    private static final String TOPIC = "exit-t";

    @picocli.CommandLine.Command(name = "ExitLatencyBench", mixinStandardHelpOptions = true,
            description = "How long a member takes from SIGTERM to its exit, each run in a fresh JVM.")
    static final class Options {
        @picocli.CommandLine.Option(names = "--reps", description = "Runs per build (default: ${DEFAULT-VALUE}).")
        int reps = 10;

        @picocli.CommandLine.Option(names = "--partitions", description = "Partitions of the topic (default: ${DEFAULT-VALUE}).")
        int partitions = 4;

        @picocli.CommandLine.Option(names = "--mode", description = "leave or restart (default: ${DEFAULT-VALUE}).")
        String mode = "leave";

        @picocli.CommandLine.Option(names = "--baseline", description = "A rebalancer jar to measure beside this build.")
        String baseline;
    }

    public static void main(String[] args) throws Exception {
        Options options = BenchCommand.parse(new Options(), args);
        int reps = options.reps;
        int partitions = options.partitions;
        String mode = options.mode;
        if (!mode.equals("leave") && !mode.equals("restart")) {
            System.err.println("ExitLatencyBench: --mode must be leave or restart, not '" + mode + "'");
            System.exit(2);
        }
        String baseline = options.baseline;
        System.out.printf(Locale.ROOT, "ExitLatencyBench: %d fresh JVMs, %d partitions, mode %s%n", reps, partitions, mode);
        System.out.printf(Locale.ROOT, "java %s, %d cores, load average %.2f%n", System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(),
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        Path work = Files.createTempDirectory("zkgroups-exit-bench-");
        System.out.println("member stderr logs and hand-over files: " + work + " (delete it when done)");
        try (TestZooKeeper zk = TestZooKeeper.start();
             EmbeddedKafka broker = EmbeddedKafka.startZooKeeperMode(zk.connectString())) {
            broker.createTopic(TOPIC, partitions);
            Map<String, List<double[]>> results = new java.util.LinkedHashMap<>();
            try (SteadyProducer producer = SteadyProducer.start(broker.bootstrapServers(), TOPIC, partitions, 5)) {
                ZkRegistry registry = ZkRegistry.of(zk.newClient());
                List<String> builds = baseline == null ? List.of("this") : List.of("this", "baseline");
                System.out.println("rep  build     SIGTERM→exit  →hook  →woke  →closed  →gone   commits");
                for (int rep = 1; rep <= reps; rep++) {
                    for (String build : rep % 2 == 0 ? reversed(builds) : builds) {
                        String group = "exit-" + mode + "-" + build + "-" + rep;
                        String classpath = build.equals("this") ? System.getProperty("java.class.path")
                                : RebalancerJar.replace(System.getProperty("java.class.path"), baseline);
                        double[] r = runOnce(zk.connectString(), broker.bootstrapServers(), group, partitions, mode, work,
                                registry, classpath);
                        results.computeIfAbsent(build, b -> new ArrayList<>()).add(r);
                        System.out.printf(Locale.ROOT, "%3d  %-8s  %9.0f ms  %5.0f  %5.0f  %7.0f  %5.0f   %s%n", rep, build,
                                r[0], r[1], r[2], r[3], r[4], r[5] == 1 ? "all committed" : "MISSING");
                    }
                }
            }
            results.forEach((build, runs) -> {
                double[] total = runs.stream().mapToDouble(r -> r[0]).sorted().toArray();
                System.out.printf(Locale.ROOT, "%s: SIGTERM→exit median %.0f ms, p90 %.0f ms, min %.0f ms, max %.0f ms; "
                                + "parts (median): hook %.0f, woke %.0f, closed %.0f, gone %.0f ms; commits complete in %d of %d%n",
                        build, percentile(total, 50), percentile(total, 90), total[0], total[total.length - 1],
                        median(runs, 1), median(runs, 2), median(runs, 3), median(runs, 4),
                        runs.stream().filter(r -> r[5] == 1).count(), runs.size());
            });
            System.out.printf(Locale.ROOT, "load average at the end %.2f%n",
                    ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        }
    }

    private static List<String> reversed(List<String> list) {
        List<String> copy = new ArrayList<>(list);
        java.util.Collections.reverse(copy);
        return copy;
    }

    /** SIGTERM→exit, →hook, →woke, →closed, →gone (ms), and 1 if every partition is committed past its last delivery. */
    private static double[] runOnce(String zkConnect, String bootstrap, String group, int partitions, String mode,
                                    Path work, ZkRegistry registry, String classpath) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx128m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-cp", classpath, ExitMemberMain.class.getName(), TOPIC,
                "zookeeper.connect=" + zkConnect, "bootstrap.servers=" + bootstrap, "group.id=" + group,
                "consumer.id=member", "auto.offset.reset=smallest", "auto.commit.interval.ms=60000",
                "zookeeper.session.timeout.ms=6000"));
        if (mode.equals("restart")) {
            command.add("zkgroups.restart.handover.file=" + work.resolve(group + ".handover"));
        }
        Process child = new ProcessBuilder(command).redirectError(work.resolve(group + ".stderr.log").toFile()).start();
        Map<Integer, Long> delivered = new ConcurrentHashMap<>();
        Map<String, Long> stamps = new ConcurrentHashMap<>();
        CountDownLatch delivering = new CountDownLatch(partitions);
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.US_ASCII))) {
                String line;
                while ((line = in.readLine()) != null) {
                    String[] f = line.split(" ");
                    if (f[0].equals("POS")) {
                        if (delivered.put(Integer.parseInt(f[1]), Long.parseLong(f[2])) == null) {
                            delivering.countDown();
                        }
                    } else if (f.length == 2) {
                        stamps.put(f[0], Long.parseLong(f[1]));
                    }
                }
            } catch (Exception e) {
                System.err.println(group + ": cannot read the member's output: " + e);
            }
        });
        reader.start();
        if (!delivering.await(60, TimeUnit.SECONDS)) {
            child.destroyForcibly();
            throw new IllegalStateException(group + ": the member did not deliver from every partition within 60 s");
        }
        long term = System.nanoTime();
        child.toHandle().destroy(); // SIGTERM (Process.destroy() would also close the streams we read)
        if (!child.waitFor(30, TimeUnit.SECONDS)) {
            child.destroyForcibly();
            throw new IllegalStateException(group + ": no exit within 30 s of SIGTERM");
        }
        long gone = System.nanoTime();
        reader.join(5_000);
        List<TopicAndPartition> all = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            all.add(new TopicAndPartition(TOPIC, p));
        }
        Map<TopicAndPartition, Long> committed = registry.offsets().read(group, all).offsets();
        boolean complete = delivered.entrySet().stream().allMatch(e ->
                Long.valueOf(e.getValue() + 1).equals(committed.get(new TopicAndPartition(TOPIC, e.getKey()))));
        long hook = stamps.getOrDefault("HOOK", term);
        long woke = stamps.getOrDefault("WOKE", hook);
        long closed = stamps.getOrDefault("CLOSED", woke);
        return new double[]{ms(gone - term), ms(hook - term), ms(woke - hook), ms(closed - woke), ms(gone - closed),
                complete ? 1 : 0};
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }

    private static double median(List<double[]> results, int column) {
        return percentile(results.stream().mapToDouble(r -> r[column]).sorted().toArray(), 50);
    }

    private static double percentile(double[] sorted, int p) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)];
    }
}
