package io.zkgroups.bench;

import io.zkgroups.embedded.EmbeddedKafka;
import io.zkgroups.rebalancer.assign.GroupSnapshot;
import io.zkgroups.rebalancer.assign.PartitionAssignor;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.testing.SteadyProducer;
import io.zkgroups.testing.TestZooKeeper;
import org.apache.curator.framework.CuratorFramework;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * The product side by side: zkgroups consumers ({@link ProductConsumerMain}: {@code ZkGroupConsumer} in a poll loop,
 * default settings) and real 0.8.2.2 consumers ({@code LegacyConsumerMain} with its fetcher), each a fresh JVM with
 * the same options, fetching from a real broker that a steady producer keeps writing to, in one ZooKeeper server in
 * this JVM. One outside observer for both kinds: the group's owner znodes through watches (stable and complete =
 * every partition owned by the thread the range assignment of the live members gives it), the server's own request
 * counters (every session but the observer's), and each member's records as they arrive on its stdout.
 *
 * <p>Per repetition, first the <b>floor</b> of its bursts: N JVMs with the same options that only connect to ZooKeeper
 * ({@link ZooKeeperConnectMain}), started at once; clock from the first start to the last connected. Then per kind, in
 * a new group: <b>burst</b> (N processes started at once; clock from the first process start; also less the floor), <b>leave</b> (SIGTERM of one; clock from the signal), <b>join</b> (one fresh process; clock from
 * its start, and from its registration), <b>kill</b> (SIGKILL of one; clock from the kill, so about a session
 * timeout). Each change follows a quiet observation of the steady group ({@code --quiet-ms}), which gives the
 * baselines: the requests the group makes anyway per second (pings, the broker), subtracted from a phase's count,
 * and the partition-seconds without delivery of a window as long as the phase's, reported beside it.
 * Run through {@code tools/bench/product.sh}; figures: docs/benchmarks.md, "Product, side by side with 0.8.2.2".
 */
@Command(name = "product.sh", mixinStandardHelpOptions = true, sortOptions = false,
        description = "zkgroups and 0.8.2.2 consumers side by side: burst, leave, join and kill, same observer")
public final class ProductBench implements Callable<Integer> {

    private static final Duration WAIT = Duration.ofSeconds(90);

    @Option(names = "--sizes", split = ",", defaultValue = "4x16,10x100", paramLabel = "MxP",
            converter = BenchOptionTypes.GroupSizeConverter.class, description = "members x partitions")
    List<BenchOptionTypes.GroupSize> sizes;
    @Option(names = "--impl", split = ",", defaultValue = "ours,legacy",
            description = "kinds of member: ours, legacy, ours+KEY=VALUE (zkgroups with a setting: an A/B); "
                    + "KIND@OPTION[@OPTION...] adds JVM options to that kind's members (an A/B of a JVM option)")
    List<String> impls;
    @Option(names = "--reps", defaultValue = "4", description = "repetitions of every phase, per kind and size")
    int reps;
    @Option(names = "--interval-ms", defaultValue = "50", description = "one record per partition every interval")
    long intervalMs;
    @Option(names = "--slice-ms", defaultValue = "250", description = "the slices delivery is counted in")
    long sliceMs;
    @Option(names = "--quiet-ms", defaultValue = "3000", description = "the steady group observed before each change")
    long quietMs;
    @Option(names = "--tail-ms", defaultValue = "1000", description = "requests counted after a phase's stable point")
    long tailMs;
    @Option(names = "--consumer-classpath", required = true, description = "the zkgroups consumer's runtime class path")
    String consumerClasspath;
    @Option(names = "--legacy-classpath", description = "legacy-driver and kafka_2.10 0.8.2.2")
    String legacyClasspath;
    @Option(names = "--out", defaultValue = "tools/bench/target/product.md", description = "where the report goes too")
    Path out;
    @Option(names = "--member-log-level", defaultValue = "warn",
            description = "zkgroups members' slf4j-simple level (info or debug show each phase, timestamped, in "
                    + "their logs); not a benchmark setting: more logging costs time")
    String memberLogLevel;

    private TestZooKeeper zk;
    private CuratorFramework observerClient;
    private ServerRequests requests;
    private EmbeddedKafka kafka;
    private Deliveries deliveries;
    private final Path logDir = Path.of("tools", "bench", "target", "product-logs").toAbsolutePath();
    private final List<Phase> phases = new ArrayList<>();
    private final List<String> anomalies = new ArrayList<>();
    private final List<ProductMember> everyone = new ArrayList<>();

    /** One measured phase of one repetition. */
    record Phase(String size, String impl, int rep, String phase, Map<String, Double> figures) {
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new ProductBench()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        List<ProductMember.Kind> kinds;
        try {
            kinds = impls.stream().map(ProductMember.Kind::parse).toList();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(new CommandLine(this), e.getMessage());
        }
        if (kinds.stream().anyMatch(ProductMember.Kind::legacy) && legacyClasspath == null) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--legacy-classpath is needed for 0.8.2.2");
        }
        ZonedDateTime started = ZonedDateTime.now();
        zk = TestZooKeeper.start();
        observerClient = zk.newClient(30_000);
        requests = new ServerRequests(zk.connectString(), observerClient);
        kafka = EmbeddedKafka.startZooKeeperMode(zk.connectString());
        deliveries = new Deliveries(System.nanoTime(), TimeUnit.MILLISECONDS.toNanos(sliceMs));
        Runtime.getRuntime().addShutdownHook(new Thread(this::killEverything));
        String header = String.format("product bench: %s, %d cores, Java %s, load average %.2f; member JVMs %s; "
                        + "one record per partition every %d ms; slices of %d ms; %d repetitions", started,
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"),
                java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
                ProductMember.JVM_OPTIONS, intervalMs, sliceMs, reps);
        System.out.println(header);
        try {
            for (BenchOptionTypes.GroupSize size : sizes) {
                int n = size.members();
                int p = size.partitions();
                String topic = "t" + size;
                kafka.createTopic(topic, p);
                try (SteadyProducer producer = SteadyProducer.start(kafka.bootstrapServers(), topic, p, intervalMs)) {
                    for (int rep = 0; rep < reps; rep++) {
                        List<ProductMember.Kind> order = new ArrayList<>(kinds);
                        if (rep % 2 == 1) {
                            Collections.reverse(order); // alternate which kind goes first
                        }
                        double floor = connectOnlyFloor(n, size.toString(), rep);
                        for (int k = 0; k < order.size(); k++) {
                            runRepetition(order.get(k), kinds.indexOf(order.get(k)), size.toString(), n, p, topic, rep,
                                    floor);
                        }
                    }
                }
            }
        } finally {
            killEverything();
            kafka.close();
            zk.close();
            String report = header + "\n\n" + ProductReport.markdown(phases, anomalies,
                    kinds.stream().map(ProductMember.Kind::label).toList());
            System.out.println(report);
            Files.createDirectories(out.toAbsolutePath().getParent());
            Files.writeString(out, report, StandardCharsets.UTF_8);
        }
        return anomalies.isEmpty() ? 0 : 1;
    }

    /** The floor of this repetition's bursts ({@link ConnectOnlyFloor}): n JVMs with the members' options. */
    private double connectOnlyFloor(int n, String size, int rep) throws Exception {
        List<String> options = new ArrayList<>(ProductMember.JVM_OPTIONS);
        options.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
        double floor = ConnectOnlyFloor.measure(Collections.nCopies(n, 1), consumerClasspath, options,
                zk.connectString(), WAIT);
        if (Double.isNaN(floor)) {
            anomalies.add(size + " repetition " + (rep + 1) + ": the connect-only JVMs not connected within " + WAIT);
        }
        System.out.printf("%s connect-only floor, repetition %d: %.0f ms%n", size, rep + 1, floor);
        return floor;
    }

    private void runRepetition(ProductMember.Kind kind, int kindIndex, String size, int n, int p, String topic, int rep,
                               double floor) throws Exception {
        String impl = kind.label();
        String group = "k" + kindIndex + "-" + size + "-r" + rep;
        System.out.printf("%s %s repetition %d%n", impl, size, rep + 1);
        try (RebalanceObserver observer = new RebalanceObserver(observerClient, requests, group, topic)) {
            Map<String, ProductMember> live = new LinkedHashMap<>();
            // burst: n fresh processes at once, from the first start
            Map<String, Double> burst = measure(observer, group, topic, p, List.of(), () -> {
                for (int i = 0; i < n; i++) {
                    String name = "m" + i;
                    live.put(name, launch(kind, name, group, topic));
                }
                return live.keySet();
            }, 0);
            burst.put("start → first record, median of members (ms)",
                    median(live.values().stream().map(this::firstRecordMillis).toList()));
            burst.put("connect-only floor (ms)", floor);
            Double stable = burst.get("change → stable (ms)");
            burst.put("change → stable − floor (ms)", stable == null ? Double.NaN : stable - floor);
            record(size, impl, rep, "burst", burst);

            // leave: SIGTERM of the first
            ProductMember leaving = live.remove("m0");
            record(size, impl, rep, "leave", measure(observer, group, topic, p, live.keySet(), () -> {
                leaving.terminate();
                return live.keySet();
            }, quietMs));
            leaving.awaitExit(60);

            // join: one fresh process
            String joiner = "m" + n;
            Map<String, Double> join = measure(observer, group, topic, p, live.keySet(), () -> {
                live.put(joiner, launch(kind, joiner, group, topic));
                return live.keySet();
            }, quietMs);
            ProductMember joined = live.get(joiner);
            long registered = observer.registeredAt(ConsumerId.ofOverride(group, joiner).value());
            join.put("registration → stable (ms)", registered == 0 || join.get("stable at") == null ? Double.NaN
                    : millis(join.get("stable at").longValue() - registered));
            join.put("start → first record (ms)", firstRecordMillis(joined));
            record(size, impl, rep, "join", join);

            // kill -9 of another
            ProductMember killed = live.remove("m1");
            record(size, impl, rep, "kill", measure(observer, group, topic, p, live.keySet(), () -> {
                killed.kill();
                return live.keySet();
            }, quietMs));

            for (ProductMember m : live.values()) {
                m.terminate();
            }
            for (ProductMember m : live.values()) {
                m.awaitExit(60);
            }
        }
    }

    /** What a phase changes; returns the names of the members the group has afterwards. */
    @FunctionalInterface
    interface Change {
        java.util.Collection<String> apply() throws Exception;
    }

    /**
     * Observes the steady group for {@code quiet} ms (the baselines), applies {@code change}, waits until the owner
     * znodes are the range assignment of the members after it, and counts what happened from the change to that
     * point (requests: to {@code --tail-ms} after it).
     */
    private Map<String, Double> measure(RebalanceObserver observer, String group, String topic, int p,
                                        java.util.Collection<String> before, Change change, long quiet)
            throws Exception {
        long quietFrom = System.nanoTime();
        long quietRequests = requests.members();
        if (quiet > 0) {
            Thread.sleep(quiet); // the length of the steady-state observation, not a synchronization
        }
        long start = System.nanoTime();
        long startRequests = requests.members();
        java.util.Collection<String> after = List.copyOf(change.apply());
        long stable = observer.awaitOwners(expected(group, topic, p, after), WAIT);
        Map<String, Double> figures = new LinkedHashMap<>();
        if (stable < 0) {
            anomalies.add(group + ": not stable within " + WAIT + " with members " + after + " (owners "
                    + observer.owners() + ")");
            figures.put("change → stable (ms)", Double.NaN);
            return figures;
        }
        Thread.sleep(tailMs); // what follows the stable point is counted too, not a synchronization
        long end = System.nanoTime();
        long endRequests = requests.members();
        double perNano = quiet > 0 ? (startRequests - quietRequests) / (double) (start - quietFrom) : 0;
        long window = stable + TimeUnit.MILLISECONDS.toNanos(sliceMs) - start;
        figures.put("stable at", (double) stable);
        figures.put("change → stable (ms)", millis(stable - start));
        figures.put("ZooKeeper requests", (endRequests - startRequests) - perNano * (end - start));
        figures.put("partition-s without delivery", deliveries.undeliveredSeconds(p, start, start + window));
        if (quiet > 0) {
            // the noise floor of a window as long, from the quiet observation alone: a kill's window is longer than it,
            // and reaching further back would count the previous phase's rebalance as noise
            long baseline = Math.min(window, start - quietFrom);
            figures.put("same, steady window before",
                    deliveries.undeliveredSeconds(p, start - baseline, start) * window / (double) baseline);
        }
        return figures;
    }

    private Map<Integer, String> expected(String group, String topic, int p, java.util.Collection<String> names) {
        Map<ConsumerId, Map<String, Integer>> subscriptions = new TreeMap<>();
        names.forEach(name -> subscriptions.put(ConsumerId.ofOverride(group, name), Map.of(topic, 1)));
        Map<Integer, String> owners = new TreeMap<>();
        PartitionAssignor.forStrategy("range")
                .assign(new GroupSnapshot(subscriptions, Map.of(topic, p), subscriptions.keySet())).owners()
                .forEach((tp, thread) -> owners.put(tp.partition(), thread.toString()));
        return owners;
    }

    private ProductMember launch(ProductMember.Kind kind, String name, String group, String topic) {
        ProductMember m = ProductMember.launch(kind, name, zk.connectString(), group, topic, consumerClasspath,
                legacyClasspath, memberLogLevel, logDir, deliveries);
        everyone.add(m);
        return m;
    }

    private double firstRecordMillis(ProductMember m) {
        try {
            return m.awaitFirstRecord(WAIT) ? millis(m.firstRecordAt() - m.launchedAt) : Double.NaN;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Double.NaN;
        }
    }

    private void record(String size, String impl, int rep, String phase, Map<String, Double> figures) {
        figures.remove("stable at");
        phases.add(new Phase(size, impl, rep, phase, figures));
        System.out.printf("  %-6s %s%n", phase, figures);
    }

    private void killEverything() {
        for (ProductMember m : everyone) {
            m.kill();
        }
    }

    static double millis(long nanos) {
        return nanos / 1e6;
    }

    static double median(List<Double> values) {
        List<Double> sorted = values.stream().filter(v -> !v.isNaN()).sorted().toList();
        if (sorted.isEmpty()) {
            return Double.NaN;
        }
        int mid = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(mid) : (sorted.get(mid - 1) + sorted.get(mid)) / 2;
    }
}
