package io.zkgroups.bench;

import io.zkgroups.bench.BenchOptionTypes.GroupSize;
import io.zkgroups.bench.RebalanceBenchOptions.Impl;
import io.zkgroups.bench.RebalanceBenchOptions.Mode;
import io.zkgroups.embedded.EmbeddedKafka;
import io.zkgroups.rebalancer.assign.GroupSnapshot;
import io.zkgroups.rebalancer.assign.PartitionAssignor;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.testing.TestZooKeeper;
import org.apache.curator.framework.CuratorFramework;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Rebalance latency of N members × P partitions, every member in its own JVM, on a loopback ZooKeeper
 * ({@code TestZooKeeper}, tick 50 ms). A command, not a test: run it through {@code tools/bench/rebalance.sh}.
 *
 * <p>Scenarios, each measured from the membership change to the moment the group is stable and complete:
 * <ul>
 *   <li><b>join</b>: N-1 members are stable, one more (its JVM already up and connected) calls
 *       {@code start()}; from that call.</li>
 *   <li><b>leave</b>: one of N calls {@code close()}; from that call.</li>
 *   <li><b>kill</b>: one of N is SIGKILLed; from the kill (the others can only react once the server expires
 *       its session: expect about the session timeout).</li>
 *   <li><b>burst</b>: N members (JVMs up and connected) are told to {@code start()} at once; from the first
 *       {@code start()}.</li>
 * </ul>
 * The join/leave series is also a rolling bounce (each rep one member joins, then the oldest leaves): the report
 * counts its ownership moves, partitions whose owner znode names another thread at consecutive stable points
 * ({@code --strategy range} against {@code sticky}).
 * "Stable and complete" for our members: every live member's latest {@code STATE} line is {@code STABLE}
 * with exactly the partitions the assignor gives it for the live membership; the time is the latest of those
 * lines. The owner znodes are then checked against the same assignment (a mismatch is reported as an anomaly).
 * For 0.8.2.2 consumers, which report nothing, it is the moment the coordinator sees (through watches) the owner
 * znodes equal the assignment, and the change is the moment it sees the registration appear or disappear.
 */
public final class RebalanceBench {

    static final Duration WAIT = Duration.ofSeconds(60);
    /** For member JVMs to start and warm up (not measured): ten of them warming up at once on two cores take minutes. */
    static final Duration READY_WAIT = Duration.ofMinutes(15);

    private final RebalanceBenchOptions options;
    private final TestZooKeeper zk;
    private final CuratorFramework observerClient;
    private final EmbeddedKafka kafka;
    private final ServerRequests requests;
    private final Path logDir;
    private final AtomicInteger names = new AtomicInteger();
    final List<Result> results = new ArrayList<>();
    private final List<String> anomalies = new ArrayList<>();
    /** Ownership moves of each size's join/leave series, one line each. */
    private final List<String> ownershipMoves = new ArrayList<>();
    private final List<RebalanceProcess> everything = new ArrayList<>();
    /** nanoTime → RTT (ms) of the coordinator's sampling requests. */
    private final java.util.concurrent.ConcurrentSkipListMap<Long, Double> rtts = new java.util.concurrent.ConcurrentSkipListMap<>();
    private final java.util.concurrent.ScheduledExecutorService sampler = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "rtt-sampler");
        t.setDaemon(true);
        return t;
    });

    /** {@code key}: the scenario's name for the side-by-side ratios (null: no counterpart), e.g. {@code cold join}. */
    record Result(String impl, String size, String scenario, List<Double> millis, String target, Probe probe, String key) {
        Result(String impl, String size, String scenario, List<Double> millis, String target, Probe probe) {
            this(impl, size, scenario, millis, target, probe, null);
        }
    }

    /**
     * What ZooKeeper saw while a scenario ran: requests the server received during each measured window (JMX
     * {@code PacketsReceived}, including the background of pings and lease beats) and the round-trip time of a
     * tiny request sampled every 20 ms by the coordinator — on a loaded machine the latencies are roughly
     * "round trips on the critical path × this"; and the CPU time it cost: summed over the member JVMs (their
     * threads' CPU time, reported with each STATE line) and in the coordinator's JVM, which runs the ZooKeeper server.
     * Two cores give 2 ms of CPU per millisecond: when these add up to about twice the latency, the scenario is
     * CPU-bound on this machine.
     */
    static final class Probe {
        final List<Double> requests = new ArrayList<>();
        final List<Double> rttMillis = new ArrayList<>();
        final List<Double> memberCpuMillis = new ArrayList<>();
        final List<Double> coordinatorCpuMillis = new ArrayList<>();
    }

    /** CPU nanos each live member had used when its latest STATE line was stamped (0 if none yet). */
    static Map<RebalanceProcess, Long> memberCpu(Collection<RebalanceProcess> members) {
        Map<RebalanceProcess, Long> cpu = new java.util.IdentityHashMap<>();
        members.forEach(m -> cpu.put(m, m.status == null ? m.firstCpuNanos : m.status.cpuNanos()));
        return cpu;
    }

    /** The CPU time of this JVM (ZooKeeper server, observer, sampler) when the last wait for a stable group ended. */
    long cpuAtEnd;

    /**
     * Records the CPU a measured window cost: members (their CPU at their final STATE minus {@code before}; members
     * new to the window count from their first line) and this JVM, which runs the ZooKeeper server.
     */
    void cpuProbe(Probe probe, Map<RebalanceProcess, Long> before, Collection<RebalanceProcess> live, long coordinatorBefore) {
        long sum = 0;
        for (RebalanceProcess m : live) {
            if (m.status != null) {
                sum += m.status.cpuNanos() - before.getOrDefault(m, m.firstCpuNanos);
            }
        }
        probe.memberCpuMillis.add(millis(sum));
        probe.coordinatorCpuMillis.add(millis(cpuAtEnd - coordinatorBefore));
    }

    private RebalanceBench(RebalanceBenchOptions options) throws IOException {
        this.options = options;
        this.zk = TestZooKeeper.start();
        this.observerClient = zk.newClient(30_000);
        this.requests = new ServerRequests(zk.connectString(), observerClient);
        this.logDir = Path.of("bench", "target", "rebalance-logs").toAbsolutePath();
        Files.createDirectories(logDir);
        // A real broker (ZooKeeper mode, this JVM) registers itself and writes the topics' znodes, as in production;
        // 0.8.2.2 consumers assign nothing without one. Neither side fetches (0.8.2.2 runs without its fetcher).
        this.kafka = EmbeddedKafka.startZooKeeperMode(zk.connectString());
        sampler.scheduleWithFixedDelay(() -> {
            long start = System.nanoTime();
            try {
                observerClient.checkExists().forPath("/");
                rtts.put(start, millis(System.nanoTime() - start));
            } catch (Exception e) {
                // not a sample
            }
        }, 0, 20, java.util.concurrent.TimeUnit.MILLISECONDS);
    }

    /** Requests the ZooKeeper server has received so far from everyone but this coordinator. */
    long packets() {
        return requests.members();
    }

    /**
     * The server's request count when the last wait for a stable group ended, before the coordinator's own check of
     * the owner znodes (up to P + 1 reads, which are not the members' doing).
     */
    long packetsAtEnd;

    /** Records requests and RTT samples of one measured window that started at {@code startNanos}, {@code startPackets}. */
    void probe(Probe probe, long startNanos, long startPackets, long endNanos) {
        List<Double> window = new ArrayList<>(rtts.subMap(startNanos, endNanos).values());
        probe.requests.add((double) (packetsAtEnd - startPackets)); // the coordinator's own are not in packets()
        if (window.isEmpty()) {
            Map.Entry<Long, Double> next = rtts.ceilingEntry(startNanos);
            if (next != null) {
                window.add(next.getValue());
            }
        }
        window.sort(null);
        if (!window.isEmpty()) {
            probe.rttMillis.add(window.get(window.size() / 2));
        }
    }

    public static void main(String[] args) throws Exception {
        RebalanceBenchOptions options = BenchCommand.parse(new RebalanceBenchOptions(), args);
        ZonedDateTime started = ZonedDateTime.now();
        RebalanceBench bench = new RebalanceBench(options);
        Runtime.getRuntime().addShutdownHook(new Thread(bench::killEverything));
        try {
            System.out.printf("rebalance bench: %s, %d cores, Java %s, load average %.2f, session %d ms (0.8.2.2: %d ms), "
                            + "strategy %s, debounce %d ms, modes %s (warm: %d warm-up rounds per member JVM)%n",
                    started, Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"),
                    java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
                    options.sessionMs, options.legacySessionMs(), options.protocol.strategy, options.debounceMs, options.modes,
                    options.warmUpRounds);
            ColdRounds cold = new ColdRounds(bench, options.coldReps, options.coldBurstReps);
            for (GroupSize size : options.sizes) {
                String topic = "t" + size;
                bench.kafka.createTopic(topic, size.partitions());
                if (options.modes.contains(Mode.COLD)) {
                    for (Impl impl : options.implOrder()) {
                        cold.run(impl == Impl.LEGACY, size.members(), size.partitions(), topic);
                    }
                }
                if (options.modes.contains(Mode.WARM)) {
                    if (options.impls.contains(Impl.OURS)) {
                        bench.runOurs(size.members(), size.partitions(), topic);
                    }
                    if (options.impls.contains(Impl.LEGACY)) {
                        bench.runLegacy(size.members(), size.partitions(), topic);
                    }
                }
            }
        } finally {
            bench.sampler.shutdownNow();
            bench.killEverything();
            bench.kafka.close();
            bench.zk.close();
            bench.report(); // what was measured, also when a scenario failed
        }
        System.exit(0);
    }

    // ------------------------------------------------------------------------------------------ ours

    private void runOurs(int n, int p, String topic) throws Exception {
        String size = n + "x" + p;
        String group = "ours-" + size;
        List<Double> join = new ArrayList<>();
        List<Double> joinFromRegistration = new ArrayList<>();
        List<Double> leave = new ArrayList<>();
        List<Double> kill = new ArrayList<>();
        List<Double> burst = new ArrayList<>();
        Probe joinProbe = new Probe();
        Probe leaveProbe = new Probe();
        Probe killProbe = new Probe();
        Probe burstProbe = new Probe();

        try (RebalanceObserver observer = new RebalanceObserver(observerClient, requests, group, topic)) {
            List<RebalanceProcess> live = new ArrayList<>();
            for (int i = 0; i < n - 1; i++) {
                live.add(launchOurs(group, topic));
            }
            awaitReady(live);
            live.forEach(m -> m.send("start"));
            awaitStable("setup " + size, live, topic, p, observer);
            Map<Integer, String> ownersBefore = observer.owners();
            int moves = 0;

            for (int rep = 0; rep < options.reps; rep++) {
                RebalanceProcess joining = launchOurs(group, topic);
                awaitReady(List.of(joining));
                long packets = packets();
                Map<RebalanceProcess, Long> cpu = memberCpu(live);
                long coordinatorCpu = RebalanceMemberMain.cpuNanos();
                joining.send("start");
                live.add(joining);
                long end = awaitStable("join " + size, live, topic, p, observer);
                if (end > 0) {
                    probe(joinProbe, joining.startingAt, packets, end);
                    cpuProbe(joinProbe, cpu, live, coordinatorCpu);
                    join.add(millis(end - joining.startingAt));
                    long registered = observer.registeredAt(joining.id.value());
                    if (registered > 0) {
                        joinFromRegistration.add(millis(end - registered));
                    }
                }
                Map<Integer, String> ownersNow = observer.owners();
                moves += moved(ownersBefore, ownersNow);
                ownersBefore = ownersNow;

                RebalanceProcess leaving = live.remove(0); // the oldest
                packets = packets();
                cpu = memberCpu(live);
                coordinatorCpu = RebalanceMemberMain.cpuNanos();
                leaving.send("leave");
                end = awaitStable("leave " + size, live, topic, p, observer);
                if (end > 0) {
                    RebalanceProcess.await(() -> leaving.leavingAt != 0, WAIT);
                    probe(leaveProbe, leaving.leavingAt, packets, end);
                    cpuProbe(leaveProbe, cpu, live, coordinatorCpu);
                    leave.add(millis(end - leaving.leavingAt));
                }
                ownersNow = observer.owners();
                moves += moved(ownersBefore, ownersNow);
                ownersBefore = ownersNow;
                leaving.awaitExit(WAIT);
                progress(size, "join/leave", rep);
            }
            ownershipMoves.add(String.format(Locale.ROOT, "%s %s, strategy %s: %d ownership moves over %d joins and %d"
                    + " leaves (each rep: one member joins, then the oldest leaves)", "zkgroups", size, options.protocol.strategy,
                    moves, options.reps, options.reps));

            live.add(launchOurs(group, topic));
            awaitReady(live.subList(live.size() - 1, live.size()));
            live.get(live.size() - 1).send("start");
            awaitStable("setup " + size, live, topic, p, observer);
            for (int rep = 0; rep < options.killReps; rep++) {
                RebalanceProcess victim = live.remove(0);
                long packets = packets();
                long killedAt = System.nanoTime();
                victim.kill();
                long end = awaitStable("kill " + size, live, topic, p, observer);
                if (end > 0) {
                    probe(killProbe, killedAt, packets, end);
                    kill.add(millis(end - killedAt));
                }
                RebalanceProcess replacement = launchOurs(group, topic);
                awaitReady(List.of(replacement));
                replacement.send("start");
                live.add(replacement);
                awaitStable("replace " + size, live, topic, p, observer);
                progress(size, "kill", rep);
            }
            closeAll(live);
        }

        for (int rep = 0; rep < options.burstReps; rep++) {
            String burstGroup = group + "-burst" + rep;
            try (RebalanceObserver observer = new RebalanceObserver(observerClient, requests, burstGroup, topic)) {
                List<RebalanceProcess> all = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    all.add(launchOurs(burstGroup, topic));
                }
                awaitReady(all);
                long packets = packets();
                Map<RebalanceProcess, Long> cpu = memberCpu(all);
                long coordinatorCpu = RebalanceMemberMain.cpuNanos();
                all.forEach(m -> m.send("start"));
                long end = awaitStable("burst " + size, all, topic, p, observer);
                if (end > 0) {
                    long first = all.stream().mapToLong(m -> m.startingAt).min().orElseThrow();
                    probe(burstProbe, first, packets, end);
                    cpuProbe(burstProbe, cpu, all, coordinatorCpu);
                    burst.add(millis(end - first));
                }
                closeAll(all);
            }
            progress(size, "burst", rep);
        }

        results.add(new Result("zkgroups", size, "join (from start())", join, "≤ 100 ms", joinProbe));
        results.add(new Result("zkgroups", size, "join (from registration seen)", joinFromRegistration, "", null));
        results.add(new Result("zkgroups", size, "graceful leave (from close())", leave, "≤ 50 ms", leaveProbe));
        results.add(new Result("zkgroups", size, "kill -9 (from SIGKILL)", kill,
                "≤ session + 200 = " + (options.sessionMs + 200) + " ms", killProbe));
        results.add(new Result("zkgroups", size, "burst of " + n + " (from first start())", burst,
                n == 10 && p == 100 ? "≤ 400 ms" : "", burstProbe));
    }

    /** Partitions owned at both stable points, by different threads. */
    private static int moved(Map<Integer, String> before, Map<Integer, String> after) {
        int moved = 0;
        for (Map.Entry<Integer, String> row : before.entrySet()) {
            String now = after.get(row.getKey());
            if (now != null && !now.equals(row.getValue())) {
                moved++;
            }
        }
        return moved;
    }

    private RebalanceProcess launchOurs(String group, String topic) {
        return launchOurs(group, topic, options.warmUpRounds, false);
    }

    /** {@code warmUpRounds} 0 and {@code autoStart}: a fresh process that joins the moment it is connected. */
    RebalanceProcess launchOurs(String group, String topic, int warmUpRounds, boolean autoStart) {
        RebalanceProcess process = RebalanceProcess.ours(zk.connectString(), group, "m" + names.incrementAndGet(), topic,
                options.sessionMs, options.protocol.strategy, options.debounceMs, warmUpRounds, autoStart, logDir);
        everything.add(process);
        return process;
    }

    /**
     * Waits until every member of {@code live} reports STABLE with exactly its rows of the assignment for
     * {@code live}; returns the stamp of the latest of those reports, or -1 on timeout. Then checks the owner znodes.
     */
    RebalanceObserver observe(String group, String topic) {
        return new RebalanceObserver(observerClient, requests, group, topic);
    }

    String legacyLabel() {
        return "0.8.2.2 (backoff " + options.protocol.legacyBackoffMs + " ms, retries " + options.protocol.legacyRetries + ")";
    }

    long awaitStable(String what, List<RebalanceProcess> live, String topic, int p, RebalanceObserver observer)
            throws Exception {
        Map<ConsumerId, Set<Integer>> rows = new TreeMap<>();
        Map<Integer, String> expected = expected(live, topic, p, rows);
        long[] end = {-1};
        boolean done = RebalanceProcess.await(() -> {
            long latest = 0;
            for (RebalanceProcess m : live) {
                RebalanceProcess.Status s = m.status;
                if (s == null || !s.state().equals("STABLE") || !s.owned().equals(rows.getOrDefault(m.id, Set.of()))) {
                    return false;
                }
                latest = Math.max(latest, s.nanos());
            }
            end[0] = latest;
            return true;
        }, WAIT);
        cpuAtEnd = RebalanceMemberMain.cpuNanos();
        packetsAtEnd = packets();
        if (!done) {
            anomalies.add(what + ": not stable within " + WAIT + ": " + live);
            System.out.println("TIMEOUT " + what + ": " + live);
            return -1;
        }
        Map<Integer, String> owners = observer.owners();
        if (!owners.equals(expected)) {
            long seen = observer.awaitOwners(expected, Duration.ofSeconds(5));
            anomalies.add(what + ": members stable but owner znodes " + (seen < 0 ? "never matched" : "matched only "
                    + millis(seen - end[0]) + " ms later") + " (were " + owners + ")");
        }
        return end[0];
    }

    private Map<Integer, String> expected(Collection<RebalanceProcess> live, String topic, int p,
                                          Map<ConsumerId, Set<Integer>> rows) {
        return assignment(options.protocol.strategy, live.stream().map(m -> m.id).toList(), topic, p, rows);
    }

    /**
     * Partition → owner thread of {@code strategy}'s assignment of {@code p} partitions of {@code topic} to
     * {@code members} (one stream each); each member's partitions go to {@code rows}.
     */
    static Map<Integer, String> assignment(String strategy, Collection<ConsumerId> members, String topic, int p,
                                           Map<ConsumerId, Set<Integer>> rows) {
        Map<ConsumerId, Map<String, Integer>> subscriptions = new TreeMap<>();
        members.forEach(id -> subscriptions.put(id, Map.of(topic, 1)));
        // Every bench member runs --strategy: with sticky they all advertise it (other assignors ignore the set).
        Map<TopicAndPartition, ThreadId> owners = PartitionAssignor.forStrategy(strategy)
                .assign(new GroupSnapshot(subscriptions, Map.of(topic, p), subscriptions.keySet())).owners();
        Map<Integer, String> text = new TreeMap<>();
        owners.forEach((tp, thread) -> {
            text.put(tp.partition(), thread.toString());
            rows.computeIfAbsent(thread.consumer(), k -> new TreeSet<>()).add(tp.partition());
        });
        return text;
    }

    static void awaitReady(List<RebalanceProcess> processes) throws InterruptedException {
        boolean ready = RebalanceProcess.await(() -> processes.stream().allMatch(m -> m.readyAt != 0 || m.ended), READY_WAIT);
        for (RebalanceProcess m : processes) {
            if (!ready || m.readyAt == 0) {
                throw new IllegalStateException(m + " did not become READY (see " + "tools/bench/target/rebalance-logs/" + m.id + ".log)");
            }
        }
    }

    static void closeAll(List<RebalanceProcess> processes) throws InterruptedException {
        processes.forEach(m -> {
            if (m.isAlive()) {
                m.send(m.legacy ? "shutdown" : "leave");
            }
        });
        for (RebalanceProcess m : processes) {
            if (!m.awaitExit(WAIT)) {
                m.kill();
            }
        }
        processes.clear();
    }

    // ------------------------------------------------------------------------------------------ 0.8.2.2

    private void runLegacy(int n, int p, String topic) throws Exception {
        String size = n + "x" + p;
        String label = legacyLabel();
        String group = "legacy-" + size;
        List<Double> join = new ArrayList<>();
        List<Double> leave = new ArrayList<>();
        List<Double> burstFirst = new ArrayList<>();
        List<Double> burstLast = new ArrayList<>();
        Probe joinProbe = new Probe();
        Probe leaveProbe = new Probe();
        Probe burstProbe = new Probe();

        try (RebalanceObserver observer = new RebalanceObserver(observerClient, requests, group, topic)) {
            List<RebalanceProcess> live = new ArrayList<>();
            for (int i = 0; i < n - 1; i++) {
                live.add(launchLegacy(group, topic));
            }
            awaitReady(live);
            awaitOwners("setup legacy " + size, live, topic, p, observer);
            for (int rep = 0; rep < options.legacyReps; rep++) {
                RebalanceProcess joining = launchLegacy(group, topic);
                live.add(joining);
                RebalanceProcess.await(() -> observer.registeredAt(joining.id.value()) != 0, WAIT);
                long packets = packets();
                long end = awaitOwners("legacy join " + size, live, topic, p, observer);
                if (end > 0) {
                    probe(joinProbe, observer.registeredAt(joining.id.value()), packets, end);
                    join.add(millis(end - observer.registeredAt(joining.id.value())));
                }
                awaitReady(List.of(joining));

                RebalanceProcess leaving = live.remove(0);
                packets = packets();
                leaving.send("shutdown");
                RebalanceProcess.await(() -> observer.unregisteredAt(leaving.id.value()) != 0, WAIT);
                end = awaitOwners("legacy leave " + size, live, topic, p, observer);
                if (end > 0) {
                    probe(leaveProbe, observer.unregisteredAt(leaving.id.value()), packets, end);
                    leave.add(millis(end - observer.unregisteredAt(leaving.id.value())));
                }
                leaving.awaitExit(WAIT);
                progress(size, "0.8.2.2 join/leave", rep);
            }
            closeAll(live);
        }

        for (int rep = 0; rep < options.legacyBurstReps; rep++) {
            String burstGroup = group + "-burst" + rep;
            try (RebalanceObserver observer = new RebalanceObserver(observerClient, requests, burstGroup, topic)) {
                List<RebalanceProcess> all = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    all.add(launchLegacy(burstGroup, topic));
                }
                long packets = packets();
                RebalanceProcess.await(() -> all.stream().allMatch(m -> observer.registeredAt(m.id.value()) != 0), WAIT);
                long end = awaitOwners("legacy burst " + size, all, topic, p, observer);
                if (end > 0) {
                    long first = all.stream().mapToLong(m -> observer.registeredAt(m.id.value())).min().orElseThrow();
                    long last = all.stream().mapToLong(m -> observer.registeredAt(m.id.value())).max().orElseThrow();
                    probe(burstProbe, first, packets, end);
                    burstFirst.add(millis(end - first));
                    burstLast.add(millis(end - last));
                }
                closeAll(all);
            }
            progress(size, "0.8.2.2 burst", rep);
        }
        results.add(new Result(label, size, "join (from registration seen)", join, "", joinProbe));
        results.add(new Result(label, size, "graceful leave (from registration gone)", leave, "", leaveProbe));
        results.add(new Result(label, size, "burst of " + n + " (from first registration)", burstFirst, "", burstProbe));
        results.add(new Result(label, size, "burst of " + n + " (from last registration)", burstLast, "", null));
    }

    RebalanceProcess launchLegacy(String group, String topic) {
        if (options.protocol.legacyClasspath == null) {
            throw new IllegalStateException("--legacy-classpath is needed for 0.8.2.2 consumers");
        }
        RebalanceProcess process = RebalanceProcess.legacy(options.protocol.legacyClasspath, zk.connectString(), group,
                "c" + names.incrementAndGet(), topic, options.legacySessionMs(), options.protocol.strategy,
                options.protocol.legacyBackoffMs, options.protocol.legacyRetries, logDir);
        everything.add(process);
        return process;
    }

    /** Waits (watches) until the owner znodes equal the assignment for {@code live}; returns when seen, or -1. */
    long awaitOwners(String what, List<RebalanceProcess> live, String topic, int p, RebalanceObserver observer)
            throws Exception {
        Map<Integer, String> expected = expected(live, topic, p, new TreeMap<>());
        long end = observer.awaitOwners(expected, WAIT);
        packetsAtEnd = packets();
        if (end < 0) {
            anomalies.add(what + ": owner znodes never matched within " + WAIT + ": " + observer.owners());
            System.out.println("TIMEOUT " + what);
        }
        return end;
    }

    // ------------------------------------------------------------------------------------------ output

    static double millis(long nanos) {
        return nanos / 1e6;
    }

    static void progress(String size, String scenario, int rep) {
        System.out.printf("  %s %s rep %d done%n", size, scenario, rep + 1);
    }

    private void report() {
        System.out.println();
        System.out.println("| implementation | members × partitions | scenario | n | median ms | p90 ms | max ms | target "
                + "| ZK requests (median) | ZK RTT ms (median) | members' CPU ms (median) | ZK server JVM CPU ms (median) |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|---|---|");
        for (Result r : results) {
            List<Double> sorted = sorted(r.millis());
            System.out.printf(Locale.ROOT, "| %s | %s | %s | %d | %s | %s | %s | %s | %s | %s | %s | %s |%n", r.impl(), r.size().replace("x", " × "),
                    r.scenario(), sorted.size(), pct(sorted, 50), pct(sorted, 90),
                    sorted.isEmpty() ? "–" : fmt(sorted.get(sorted.size() - 1)), r.target(),
                    r.probe() == null ? "" : pct(sorted(r.probe().requests), 50),
                    r.probe() == null ? "" : pct(sorted(r.probe().rttMillis), 50),
                    r.probe() == null ? "" : pct(sorted(r.probe().memberCpuMillis), 50),
                    r.probe() == null ? "" : pct(sorted(r.probe().coordinatorCpuMillis), 50));
        }
        System.out.println();
        System.out.println("raw (ms, in run order):");
        for (Result r : results) {
            System.out.printf(Locale.ROOT, "  %s %s %s: %s%n", r.impl(), r.size(), r.scenario(),
                    r.millis().stream().map(RebalanceBench::fmt).toList());
        }
        reportRatios();
        ownershipMoves.forEach(System.out::println);
        System.out.println("anomalies: " + (anomalies.isEmpty() ? "none" : ""));
        anomalies.forEach(a -> System.out.println("  " + a));
    }

    /** zkgroups ÷ 0.8.2.2 of the medians, for every scenario both ran in this run (goal: ≤ 0.2). */
    private void reportRatios() {
        List<String> lines = new ArrayList<>();
        for (Result ours : results) {
            if (ours.key() == null || !ours.impl().equals("zkgroups")) {
                continue;
            }
            for (Result legacy : results) {
                if (ours.key().equals(legacy.key()) && ours.size().equals(legacy.size()) && !legacy.impl().equals("zkgroups")) {
                    lines.add(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s |", ours.size().replace("x", " × "), ours.key(),
                            ratio(ours.millis(), legacy.millis()),
                            ours.probe() == null ? "" : ratio(ours.probe().requests, legacy.probe().requests),
                            ours.probe() == null ? "" : pct(sorted(ours.probe().requests), 50) + " / "
                                    + pct(sorted(legacy.probe().requests), 50)));
                }
            }
        }
        if (!lines.isEmpty()) {
            System.out.println();
            System.out.println("| members × partitions | scenario | zkgroups ÷ 0.8.2.2, median ms | zkgroups ÷ 0.8.2.2, "
                    + "median ZK requests | ZK requests (zkgroups / 0.8.2.2) |");
            System.out.println("|---|---|---|---|---|");
            lines.forEach(System.out::println);
        }
    }

    private static String ratio(List<Double> ours, List<Double> legacy) {
        if (ours.isEmpty() || legacy.isEmpty()) {
            return "–";
        }
        List<Double> a = sorted(ours);
        List<Double> b = sorted(legacy);
        return String.format(Locale.ROOT, "%.2f", a.get((a.size() - 1) / 2) / b.get((b.size() - 1) / 2));
    }

    static List<Double> sorted(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(null);
        return sorted;
    }

    /** Nearest-rank percentile. */
    static String pct(List<Double> sorted, int percentile) {
        if (sorted.isEmpty()) {
            return "–";
        }
        int rank = (int) Math.ceil(percentile / 100.0 * sorted.size());
        return fmt(sorted.get(Math.max(0, rank - 1)));
    }

    static String fmt(double ms) {
        return String.format(Locale.ROOT, ms < 100 ? "%.1f" : "%.0f", ms);
    }

    private void killEverything() {
        for (RebalanceProcess m : everything) {
            if (m.isAlive()) {
                m.kill();
            }
        }
    }
}
