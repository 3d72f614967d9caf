package io.zkgroups.bench;

import io.zkgroups.embedded.EmbeddedKafka;
import io.zkgroups.testing.SteadyProducer;
import io.zkgroups.testing.TestZooKeeper;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * One restart by session hand-over with the successor started first, in fresh JVMs: each repetition runs a member
 * ({@link ExitMemberMain}, hand-over configured) until it delivers from every partition, starts its successor
 * ({@link SuccessorMain}: no ticket yet, so it warms up and waits), sends the first one SIGTERM, and waits for the
 * successor's first record. Records keep arriving all along (one per partition every 5 ms).
 * <p>
 * Per repetition: the successor's launch → ready (waiting for the ticket) and its CPU time by then (all threads, from
 * {@code /proc}); SIGTERM → the successor's first record; the successor's CPU from ready to that record. In a rolling
 * bounce on two cores these starts are what the bounce waits for. The members' JVM options are the bounce's
 * ({@code ChildJvm}: serial GC, C1 only, 160 MB).
 * <pre>
 * SuccessorStartBench [--reps N] [--partitions N] [--baseline REBALANCER_JAR]
 * </pre>
 * {@code --baseline} alternates each repetition with one whose members run that rebalancer jar instead of this build's.
 */
public final class SuccessorStartBench {

    private static final String TOPIC = "successor-t";
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final String[] COLUMNS = {"launch→ready ms", "CPU to ready ms", "SIGTERM→first record ms",
            "CPU ready→first record ms"};

    @picocli.CommandLine.Command(name = "SuccessorStartBench", mixinStandardHelpOptions = true,
            description = "How fast a restarted member's successor is ready and hands out its first record.")
    static final class Options {
        @picocli.CommandLine.Option(names = "--reps", description = "Restarts per build (default: ${DEFAULT-VALUE}).")
        int reps = 10;

        @picocli.CommandLine.Option(names = "--partitions", description = "Partitions of the topic (default: ${DEFAULT-VALUE}).")
        int partitions = 10;

        @picocli.CommandLine.Option(names = "--baseline", description = "A rebalancer jar to measure beside this build.")
        String baseline;
    }

    public static void main(String[] args) throws Exception {
        Options options = BenchCommand.parse(new Options(), args);
        int reps = options.reps;
        int partitions = options.partitions;
        String baseline = options.baseline;
        System.out.printf(Locale.ROOT, "SuccessorStartBench: %d restarts, %d partitions%n", reps, partitions);
        System.out.printf(Locale.ROOT, "java %s, %d cores, load average %.2f%n", System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(),
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        Path work = Files.createTempDirectory("zkgroups-successor-bench-");
        System.out.println("member stderr logs and hand-over files: " + work + " (delete it when done)");
        try (TestZooKeeper zk = TestZooKeeper.start();
             EmbeddedKafka broker = EmbeddedKafka.startZooKeeperMode(zk.connectString())) {
            broker.createTopic(TOPIC, partitions);
            Map<String, List<double[]>> results = new LinkedHashMap<>();
            try (SteadyProducer producer = SteadyProducer.start(broker.bootstrapServers(), TOPIC, partitions, 5)) {
                List<String> builds = baseline == null ? List.of("this") : List.of("this", "baseline");
                List<String> reversed = baseline == null ? builds : List.of("baseline", "this");
                System.out.println("rep  build     " + String.join("  ", COLUMNS));
                for (int rep = 1; rep <= reps; rep++) {
                    for (String build : rep % 2 == 0 ? reversed : builds) {
                        String classpath = build.equals("this") ? System.getProperty("java.class.path")
                                : RebalancerJar.replace(System.getProperty("java.class.path"), baseline);
                        double[] r = runOnce(zk.connectString(), broker.bootstrapServers(), partitions,
                                "successor-" + build + "-" + rep, work, classpath);
                        results.computeIfAbsent(build, b -> new ArrayList<>()).add(r);
                        System.out.printf(Locale.ROOT, "%3d  %-8s  %15.0f  %15.0f  %23.0f  %25.0f%n", rep, build,
                                r[0], r[1], r[2], r[3]);
                    }
                }
            }
            results.forEach((build, runs) -> {
                StringBuilder line = new StringBuilder(build + " (median, min–max):");
                for (int c = 0; c < COLUMNS.length; c++) {
                    line.append(String.format(Locale.ROOT, " %s %.0f (%.0f–%.0f);", COLUMNS[c], median(runs, c),
                            min(runs, c), max(runs, c)));
                }
                System.out.println(line);
            });
            System.out.printf(Locale.ROOT, "load average at the end %.2f%n",
                    ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        }
    }

    private static double[] runOnce(String zkConnect, String bootstrap, int partitions, String group, Path work,
                                    String classpath) throws Exception {
        List<String> properties = List.of("zookeeper.connect=" + zkConnect, "bootstrap.servers=" + bootstrap,
                "group.id=" + group, "consumer.id=member", "auto.offset.reset=smallest",
                "auto.commit.interval.ms=60000", "zookeeper.session.timeout.ms=6000",
                "zkgroups.restart.handover.file=" + work.resolve(group + ".handover"));
        ChildProcess first = ChildProcess.start(classpath, ExitMemberMain.class.getName(), TOPIC, properties,
                work.resolve(group + "-first.stderr.log"));
        ChildProcess successor = null;
        try {
            java.util.Set<String> delivering = java.util.concurrent.ConcurrentHashMap.newKeySet();
            first.await(line -> line.startsWith("POS ") && delivering.add(line.split(" ")[1])
                    && delivering.size() == partitions, "delivering from every partition");
            List<String> waiting = new ArrayList<>(properties);
            waiting.add("zkgroups.restart.handover.await.ms=" + TIMEOUT.toMillis());
            long launch = System.nanoTime();
            successor = ChildProcess.start(classpath, SuccessorMain.class.getName(), TOPIC, waiting,
                    work.resolve(group + "-successor.stderr.log"));
            long ready = successor.stamp("AWAITING");
            double cpuReady = successor.cpuMillis();
            long term = System.nanoTime();
            first.process().toHandle().destroy(); // SIGTERM: it hands the session over
            long firstRecord = successor.stamp("FIRST");
            double cpuFirst = successor.cpuMillis();
            return new double[]{(ready - launch) / 1e6, cpuReady, (firstRecord - term) / 1e6, cpuFirst - cpuReady};
        } finally {
            first.kill();
            if (successor != null) {
                successor.kill();
            }
        }
    }

    /** A member JVM and the lines it prints on stdout, read all along (a full pipe would stop it). */
    private record ChildProcess(Process process, BlockingQueue<String> lines, Path stderr) {

        /** What the queue holds once the child's stdout has ended. */
        private static final String END = "\u0000end";

        static ChildProcess start(String classpath, String main, String topic, List<String> properties, Path stderr)
                throws Exception {
            List<String> command = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx160m", "-XX:+UseSerialGC",
                    "-XX:TieredStopAtLevel=1", "-Xss512k", "-XX:CICompilerCount=1",
                    "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-cp", classpath, main, topic));
            command.addAll(properties);
            Process process = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
            BlockingQueue<String> lines = new LinkedBlockingQueue<>();
            Thread reader = new Thread(() -> {
                try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                        StandardCharsets.US_ASCII))) {
                    String line;
                    while ((line = out.readLine()) != null) {
                        lines.add(line);
                    }
                } catch (IOException gone) {
                    // the process ended
                } finally {
                    lines.add(END);
                }
            }, "stdout-" + main);
            reader.setDaemon(true);
            reader.start();
            return new ChildProcess(process, lines, stderr);
        }

        /** Takes lines until one matches; fails if the process's output ends first or {@link #TIMEOUT} passes. */
        String await(Predicate<String> wanted, String what) throws InterruptedException {
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            String line;
            while ((line = lines.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)) != null && !line.equals(END)) {
                if (wanted.test(line)) {
                    return line;
                }
            }
            throw new IllegalStateException("no " + what + (line == null ? " within " + TIMEOUT : " before its output ended")
                    + " (see " + stderr + ")");
        }

        /** The nanoTime a {@code KEY nanos} line carries. */
        long stamp(String key) throws InterruptedException {
            String line = await(l -> l.startsWith(key + " "), key);
            return Long.parseLong(line.substring(key.length() + 1));
        }

        double cpuMillis() {
            return process.toHandle().info().totalCpuDuration().orElseThrow(() ->
                    new IllegalStateException("this OS reports no CPU time of a child process")).toNanos() / 1e6;
        }

        void kill() throws InterruptedException {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
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
}
