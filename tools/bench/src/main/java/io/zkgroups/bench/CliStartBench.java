package io.zkgroups.bench;

import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.MemberRegistration;
import io.zkgroups.registry.model.Subscription;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.model.TopicRegistration;
import io.zkgroups.testing.TestZooKeeper;
import io.zkgroups.tool.Main;
import org.apache.curator.framework.CuratorFramework;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A rolling-bounce gate as a script runs it: {@code bin/zkgroups health} of the unpacked distribution in a fresh JVM,
 * on a healthy group of M members × P partitions (range ownership) in a loopback ZooKeeper, alternating runs without
 * and with a class-data archive ({@code ZKGROUPS_CLASS_DATA}), which one unmeasured run writes first.
 * <pre>
 * CliStartBench --home DISTRIBUTION_HOME [--reps N] [--members M] [--partitions P]
 * </pre>
 */
public final class CliStartBench {

    private static final String GROUP = "gate";
    private static final String TOPIC = "gate-t";
    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(60);

    @picocli.CommandLine.Command(name = "CliStartBench", mixinStandardHelpOptions = true,
            description = "How long bin/zkgroups health takes from launch to its answer.")
    static final class Options {
        @picocli.CommandLine.Option(names = "--home", required = true, paramLabel = "DISTRIBUTION_HOME",
                description = "The unpacked distribution whose bin/zkgroups is measured.")
        Path home;

        @picocli.CommandLine.Option(names = "--reps", description = "Runs each (default: ${DEFAULT-VALUE}).")
        int reps = 8;

        @picocli.CommandLine.Option(names = "--members", description = "Members of the group (default: ${DEFAULT-VALUE}).")
        int members = 10;

        @picocli.CommandLine.Option(names = "--partitions", description = "Partitions of the topic (default: ${DEFAULT-VALUE}).")
        int partitions = 100;
    }

    public static void main(String[] args) throws Exception {
        Options options = BenchCommand.parse(new Options(), args);
        Path home = options.home;
        int reps = options.reps;
        int members = options.members;
        int partitions = options.partitions;
        System.out.printf(Locale.ROOT, "CliStartBench: bin/zkgroups health, %d members × %d partitions, %d runs each%n",
                members, partitions, reps);
        System.out.printf(Locale.ROOT, "java %s, %d cores, load average %.2f%n", System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(),
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        Path work = Files.createTempDirectory("zkgroups-cli-start-");
        Path archive = work.resolve("zkgroups.jsa");
        try (TestZooKeeper zk = TestZooKeeper.start()) {
            List<CuratorFramework> sessions = healthyGroup(zk, members, partitions);
            List<String> health = List.of(home.resolve("bin/zkgroups").toString(), "health", "--group", GROUP,
                    "--zookeeper", zk.connectString(), "--expect-members", Integer.toString(members), "--no-store-check");
            long writing = run(health, archive, work);
            System.out.printf(Locale.ROOT, "the run that writes the archive (%d bytes): %d ms%n", Files.size(archive),
                    writing);
            List<Long> without = new ArrayList<>();
            List<Long> with = new ArrayList<>();
            System.out.println("rep  without archive ms  with archive ms");
            for (int rep = 1; rep <= reps; rep++) {
                long a;
                long b;
                if (rep % 2 == 1) {
                    a = run(health, null, work);
                    b = run(health, archive, work);
                } else {
                    b = run(health, archive, work);
                    a = run(health, null, work);
                }
                without.add(a);
                with.add(b);
                System.out.printf(Locale.ROOT, "%3d  %18d  %15d%n", rep, a, b);
            }
            System.out.printf(Locale.ROOT, "median: without %d ms, with %d ms (%.2f×)%n", median(without), median(with),
                    (double) median(with) / median(without));
            inThisJvm(health.subList(1, health.size()));
            sessions.forEach(CuratorFramework::close);
        }
    }

    /**
     * Warm figures beside the cold ones: the same gate run 20 times in this JVM ({@code Main.run}, as tools/bench/bounce.sh's
     * gates run), with {@code --wait} so that it says how long its check took; the first run is this JVM's first.
     */
    private static void inThisJvm(List<String> health) {
        List<String> args = new ArrayList<>(health);
        args.addAll(List.of("--wait", "10000ms", "--settle", "0ms"));
        Pattern checks = Pattern.compile("checks in (\\d+) ms");
        List<Long> totals = new ArrayList<>();
        List<Long> checkMillis = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            long start = System.nanoTime();
            int code = Main.run(args.toArray(String[]::new), new PrintStream(out),
                    new PrintStream(OutputStream.nullOutputStream()));
            totals.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
            if (code != 0) {
                throw new IllegalStateException("health in this JVM exited " + code + ": " + out);
            }
            Matcher m = checks.matcher(out.toString(StandardCharsets.UTF_8));
            checkMillis.add(m.find() ? Long.parseLong(m.group(1)) : -1);
        }
        System.out.printf(Locale.ROOT, "in this JVM: first run %d ms (its check %d ms); runs 2-20 median %d ms "
                + "(check %d ms)%n", totals.get(0), checkMillis.get(0), median(totals.subList(1, totals.size())),
                median(checkMillis.subList(1, checkMillis.size())));
    }

    /** M registered members (each on a session of its own) owning P partitions as range assigns them. */
    private static List<CuratorFramework> healthyGroup(TestZooKeeper zk, int members, int partitions) {
        CuratorFramework admin = zk.newClient();
        new ZkRegistry(admin, ZkLayout.root()).topics().create(TOPIC, TopicRegistration.v1(partitions, List.of(0)));
        List<CuratorFramework> sessions = new ArrayList<>(List.of(admin));
        int per = partitions / members;
        int extra = partitions % members;
        int next = 0;
        for (int m = 0; m < members; m++) {
            CuratorFramework session = zk.newClient(30_000);
            sessions.add(session);
            ZkRegistry registry = new ZkRegistry(session, ZkLayout.root());
            ConsumerId id = ConsumerId.ofOverride(GROUP, String.format(Locale.ROOT, "m%03d", m)); // sorted as numbered
            registry.members().register(GROUP, id, MemberRegistration.of(Subscription.topics(Map.of(TOPIC, 1)),
                    System.currentTimeMillis()), Duration.ZERO);
            Map<TopicAndPartition, ThreadId> claims = new TreeMap<>();
            int count = per + (m < extra ? 1 : 0);
            for (int i = 0; i < count; i++, next++) {
                claims.put(new TopicAndPartition(TOPIC, next), id.thread(0));
            }
            registry.owners().claim(GROUP, id, claims);
        }
        return sessions;
    }

    /** One fresh launcher run (with the archive when not null); its wall time; a non-zero exit ends the benchmark. */
    private static long run(List<String> command, Path archive, Path work) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(work.resolve("out.txt").toFile());
        builder.environment().remove("ZKGROUPS_JAVA_OPTS");
        if (archive != null) {
            builder.environment().put("ZKGROUPS_CLASS_DATA", archive.toString());
        } else {
            builder.environment().remove("ZKGROUPS_CLASS_DATA");
        }
        long start = System.nanoTime();
        Process process = builder.start();
        if (!process.waitFor(RUN_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("bin/zkgroups health did not end within " + RUN_TIMEOUT);
        }
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        if (process.exitValue() != 0) {
            throw new IllegalStateException("bin/zkgroups health exited " + process.exitValue() + ": "
                    + Files.readString(work.resolve("out.txt"), StandardCharsets.UTF_8));
        }
        return millis;
    }

    private static long median(List<Long> values) {
        List<Long> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
