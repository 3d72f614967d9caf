package io.zkgroups.bench;

import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.store.OffsetRegistry;
import io.zkgroups.registry.store.Znodes;
import io.zkgroups.testing.TestZooKeeper;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.zookeeper.CreateMode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;

/**
 * Throughput of {@link OffsetRegistry#commit} against its ceiling, plain Curator {@code multi()} batches, in one
 * run on one loopback {@link TestZooKeeper}.
 * <p>
 * Each round commits {@code topics × partitions} offsets (default 20 × 500 = 10,000) for a fresh group:
 * <ul>
 *   <li><b>store, first commit</b>: {@code OffsetRegistry.commit} on a fresh store, every znode is created;</li>
 *   <li><b>store, update</b>: the same store commits again with every value changed;</li>
 *   <li><b>store, update, cold</b>: a new store (a restarted process: empty checkpoint) commits changed values;</li>
 *   <li><b>ceiling, create / setData</b>: {@code client.transaction().forOperations(ops)} with batches of
 *       {@code batch} (default 1000) create resp. setData ops on as many znodes, parents created beforehand
 *       (outside the timing), one batch after the other like the store.</li>
 * </ul>
 * Cases are interleaved within a round so that drift of a shared machine hits all of them alike; each group is
 * deleted after its round (untimed) so that the tree does not grow. The first {@code warmup} rounds are not
 * counted (JIT). Every fourth round (untimed) reads the offsets back with a fresh store and checks them.
 * Prints median and best offsets/s per case, and the ceiling/store ratios: of the medians, and the median of
 * the per-round ratios (robust against load drift on a shared machine).
 * <p>
 * Usage: {@code OffsetCommitBench [--topics N] [--partitions N] [--rounds N] [--warmup N] [--batch N]}
 */
public final class OffsetCommitBench {

    private static final String STORE_CREATE = "store: first commit (create)";
    private static final String CEILING_CREATE = "ceiling: multi() create";
    private static final String STORE_UPDATE = "store: update, all changed";
    private static final String CEILING_UPDATE = "ceiling: multi() setData";
    private static final String STORE_COLD_UPDATE = "store: update, cold store";

    private final CuratorFramework client;
    private final int topics;
    private final int partitions;
    private final int batch;
    private final Map<String, List<Double>> results = new LinkedHashMap<>();

    private OffsetCommitBench(CuratorFramework client, int topics, int partitions, int batch) {
        this.client = client;
        this.topics = topics;
        this.partitions = partitions;
        this.batch = batch;
        for (String c : List.of(STORE_CREATE, CEILING_CREATE, STORE_UPDATE, CEILING_UPDATE, STORE_COLD_UPDATE)) {
            results.put(c, new ArrayList<>());
        }
    }

    @Command(name = "OffsetCommitBench", mixinStandardHelpOptions = true, sortOptions = false,
            description = "OffsetRegistry.commit against plain Curator multi() batches.")
    static final class Options {
        @Option(names = "--topics", description = "Topics per commit (default: ${DEFAULT-VALUE}).")
        int topics = 20;

        @Option(names = "--partitions", description = "Partitions per topic (default: ${DEFAULT-VALUE}).")
        int partitions = 500;

        @Option(names = "--rounds", description = "Measured rounds (default: ${DEFAULT-VALUE}).")
        int rounds = 15;

        @Option(names = "--warmup",
                description = "Warm-up rounds before them, not counted (default: ${DEFAULT-VALUE}).")
        int warmup = 3;

        @Option(names = "--batch", description = "Ops per multi() of the ceiling (default: ${DEFAULT-VALUE}).")
        int batch = 1000;
    }

    public static void main(String[] args) throws Exception {
        Options options = BenchCommand.parse(new Options(), args);
        int topics = options.topics;
        int partitions = options.partitions;
        int rounds = options.rounds;
        int warmup = options.warmup;
        int batch = options.batch;

        System.out.printf(Locale.ROOT, "OffsetCommitBench: %d offsets (%d topics x %d partitions), ceiling batches of %d, "
                + "%d measured rounds after %d warm-up rounds%n", topics * partitions, topics, partitions, batch, rounds, warmup);
        System.out.printf(Locale.ROOT, "java %s (%s), %d cores, max heap %d MiB, args %s%n",
                System.getProperty("java.version"), System.getProperty("java.vm.name"),
                Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory() >> 20,
                ManagementFactory.getRuntimeMXBean().getInputArguments());

        try (TestZooKeeper zk = TestZooKeeper.start()) {
            System.out.println("ZooKeeper " + zk.connectString() + " (TestZooKeeper, loopback, in this JVM)");
            OffsetCommitBench bench = new OffsetCommitBench(zk.newClient(30_000), topics, partitions, batch);
            for (int round = 0; round < warmup + rounds; round++) {
                bench.round(round, round >= warmup);
            }
            bench.report();
        }
    }

    private void round(int round, boolean counted) throws Exception {
        String storeGroup = "bench-store-" + round;
        String ceilingGroup = "bench-ceiling-" + round;
        OffsetRegistry store = new OffsetRegistry(new Znodes(client), ZkLayout.root());
        for (int t = 0; t < topics; t++) {
            client.create().creatingParentsIfNeeded().forPath(offsetsDir(ceilingGroup, t), new byte[0]);
        }

        Map<TopicAndPartition, Long> first = offsets(1_000_000L * round);
        Map<TopicAndPartition, Long> second = offsets(1_000_000L * round + 1000);
        Map<TopicAndPartition, Long> third = offsets(1_000_000L * round + 2000);

        record(counted, STORE_CREATE, time(() -> check(store.commit(storeGroup, first), first.size())));
        record(counted, CEILING_CREATE, time(() -> multi(ceilingGroup, first, true)));
        record(counted, STORE_UPDATE, time(() -> check(store.commit(storeGroup, second), second.size())));
        record(counted, CEILING_UPDATE, time(() -> multi(ceilingGroup, second, false)));
        OffsetRegistry cold = new OffsetRegistry(new Znodes(client), ZkLayout.root());
        record(counted, STORE_COLD_UPDATE, time(() -> check(cold.commit(storeGroup, third), third.size())));
        if (round % 4 == 0) {
            verify(storeGroup, third); // untimed: what the store wrote is what a fresh reader reads
        }

        System.out.printf(Locale.ROOT, "round %2d%s:", round, counted ? "" : " (warm-up)");
        results.forEach((name, list) -> {
            if (counted) {
                System.out.printf(Locale.ROOT, "  %.0f", list.get(list.size() - 1));
            }
        });
        System.out.println(counted ? " offsets/s" : "");

        delete(storeGroup);
        delete(ceilingGroup);
    }

    private void record(boolean counted, String name, long nanos) {
        if (counted) {
            results.get(name).add(topics * partitions / (nanos / 1e9));
        }
    }

    private void report() {
        System.out.println();
        System.out.printf(Locale.ROOT, "%-32s %14s %14s %12s%n", "case", "median off/s", "best off/s", "median ms");
        Map<String, Double> medians = new LinkedHashMap<>();
        results.forEach((name, list) -> {
            double[] sorted = list.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            double median = sorted.length % 2 == 1 ? sorted[sorted.length / 2]
                    : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
            double best = sorted[sorted.length - 1];
            medians.put(name, median);
            System.out.printf(Locale.ROOT, "%-32s %14.0f %14.0f %12.1f%n", name, median, best,
                    topics * partitions / median * 1000);
        });
        double createRatio = medians.get(CEILING_CREATE) / medians.get(STORE_CREATE);
        double updateRatio = medians.get(CEILING_UPDATE) / medians.get(STORE_UPDATE);
        double coldRatio = medians.get(CEILING_UPDATE) / medians.get(STORE_COLD_UPDATE);
        System.out.println();
        System.out.printf(Locale.ROOT, "ceiling/store, ratio of medians:    create %.2fx, update %.2fx, cold update %.2fx%n",
                createRatio, updateRatio, coldRatio);
        // Paired per round (the cases of one round ran back to back): robust against a machine whose load drifts.
        double pairedCreate = medianRatio(CEILING_CREATE, STORE_CREATE);
        double pairedUpdate = medianRatio(CEILING_UPDATE, STORE_UPDATE);
        double pairedCold = medianRatio(CEILING_UPDATE, STORE_COLD_UPDATE);
        System.out.printf(Locale.ROOT, "ceiling/store, median of per-round: create %.2fx, update %.2fx, cold update %.2fx%n",
                pairedCreate, pairedUpdate, pairedCold);
        System.out.printf(Locale.ROOT, "goal: OffsetRegistry within 2x of the ceiling (per-round medians) -> %s%n",
                Math.max(pairedCreate, Math.max(pairedUpdate, pairedCold)) <= 2 ? "WITHIN 2x" : "SLOWER THAN 2x");
    }

    private double medianRatio(String ceiling, String store) {
        List<Double> c = results.get(ceiling);
        List<Double> st = results.get(store);
        double[] ratios = IntStream.range(0, c.size()).mapToDouble(i -> c.get(i) / st.get(i)).sorted().toArray();
        return ratios.length % 2 == 1 ? ratios[ratios.length / 2]
                : (ratios[ratios.length / 2 - 1] + ratios[ratios.length / 2]) / 2;
    }

    // ----------------------------------------------------------------------------------------- the ceiling

    /** Plain Curator: batches of {@code batch} create or setData ops, in path order, one after the other. */
    private void multi(String group, Map<TopicAndPartition, Long> offsets, boolean create) {
        try {
            List<CuratorOp> ops = new ArrayList<>(batch);
            for (Map.Entry<String, byte[]> entry : byPath(group, offsets).entrySet()) {
                ops.add(create
                        ? client.transactionOp().create().withMode(CreateMode.PERSISTENT).forPath(entry.getKey(), entry.getValue())
                        : client.transactionOp().setData().forPath(entry.getKey(), entry.getValue()));
                if (ops.size() == batch) {
                    client.transaction().forOperations(ops);
                    ops = new ArrayList<>(batch);
                }
            }
            if (!ops.isEmpty()) {
                client.transaction().forOperations(ops);
            }
        } catch (Exception e) {
            throw new IllegalStateException("ceiling multi() failed: " + e, e);
        }
    }

    private static Map<String, byte[]> byPath(String group, Map<TopicAndPartition, Long> offsets) {
        Map<String, byte[]> byPath = new TreeMap<>();
        offsets.forEach((tp, offset) -> byPath.put("/consumers/" + group + "/offsets/" + tp.topic() + "/" + tp.partition(),
                Long.toString(offset).getBytes(StandardCharsets.US_ASCII)));
        return byPath;
    }

    // ----------------------------------------------------------------------------------------- helpers

    private Map<TopicAndPartition, Long> offsets(long base) {
        Map<TopicAndPartition, Long> offsets = new TreeMap<>();
        for (int t = 0; t < topics; t++) {
            for (int p = 0; p < partitions; p++) {
                offsets.put(TopicAndPartition.of(topic(t), p), base + 17L * p + t);
            }
        }
        return offsets;
    }

    private static String topic(int t) {
        return String.format(Locale.ROOT, "topic-%02d", t);
    }

    private static String offsetsDir(String group, int t) {
        return "/consumers/" + group + "/offsets/" + topic(t);
    }

    private static void check(OffsetRegistry.CommitResult result, int expected) {
        if (result.written() != expected) {
            throw new IllegalStateException("expected " + expected + " offsets written, got " + result);
        }
    }

    private void verify(String group, Map<TopicAndPartition, Long> expected) {
        OffsetRegistry.OffsetRead read = new OffsetRegistry(new Znodes(client), ZkLayout.root()).readAll(group);
        if (!read.offsets().equals(expected) || !read.unreadable().isEmpty()) {
            throw new IllegalStateException("offsets of " + group + " read back differ from the last commit: "
                    + read.offsets().size() + " offsets, unreadable " + read.unreadable());
        }
    }

    /** Deletes a group's offsets with multi() batches of deletes (untimed housekeeping). */
    private void delete(String group) throws Exception {
        String offsetsRoot = "/consumers/" + group + "/offsets";
        List<CuratorOp> ops = new ArrayList<>();
        for (String topic : client.getChildren().forPath(offsetsRoot)) {
            for (String partition : client.getChildren().forPath(offsetsRoot + "/" + topic)) {
                ops.add(client.transactionOp().delete().forPath(offsetsRoot + "/" + topic + "/" + partition));
                if (ops.size() == 1000) {
                    client.transaction().forOperations(ops);
                    ops = new ArrayList<>();
                }
            }
            ops.add(client.transactionOp().delete().forPath(offsetsRoot + "/" + topic));
        }
        if (!ops.isEmpty()) {
            client.transaction().forOperations(ops);
        }
        client.delete().deletingChildrenIfNeeded().forPath("/consumers/" + group);
    }

    private interface Work {
        void run() throws Exception;
    }

    private static long time(Work work) throws Exception {
        long start = System.nanoTime();
        work.run();
        return System.nanoTime() - start;
    }
}
