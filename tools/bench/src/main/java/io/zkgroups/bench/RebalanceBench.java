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
    private final Path logDir;
    private final AtomicInteger names = new AtomicInteger();
    private final ServerRequests requests;
    private final ZooKeeperSampler sampler;
    private final RebalanceReport report = new RebalanceReport();
    private final List<RebalanceProcess> everything = new ArrayList<>();

    private RebalanceBench(RebalanceBenchOptions options) throws IOException {
        this.options = options;
        this.zk = TestZooKeeper.start();
        this.observerClient = zk.newClient(30_000);
        this.requests = new ServerRequests(zk.connectString(), observerClient);
        this.logDir = Path.of("tools", "bench", "target", "rebalance-logs").toAbsolutePath();
        Files.createDirectories(logDir);
        // A real broker (ZooKeeper mode, this JVM) registers itself and writes the topics' znodes, as in production;
        // 0.8.2.2 consumers assign nothing without one. Neither side fetches (0.8.2.2 runs without its fetcher).
        this.kafka = EmbeddedKafka.startZooKeeperMode(zk.connectString());
        this.sampler = new ZooKeeperSampler(observerClient, requests);
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
            ColdRounds cold = new ColdRounds(bench, bench.sampler, bench.report, options.coldReps, options.coldBurstReps);
            WarmRounds warm = new WarmRounds(bench, options, bench.sampler, bench.report);
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
                        warm.runOurs(size.members(), size.partitions(), topic);
                    }
                    if (options.impls.contains(Impl.LEGACY)) {
                        warm.runLegacy(size.members(), size.partitions(), topic);
                    }
                }
            }
        } finally {
            bench.sampler.close();
            bench.killEverything();
            bench.kafka.close();
            bench.zk.close();
            bench.report.print(); // what was measured, also when a scenario failed
        }
        System.exit(0);
    }

    RebalanceProcess launchOurs(String group, String topic) {
        return launchOurs(group, topic, options.warmUpRounds, false);
    }

    /** {@code warmUpRounds} 0 and {@code autoStart}: a fresh process that joins the moment it is connected. */
    RebalanceProcess launchOurs(String group, String topic, int warmUpRounds, boolean autoStart) {
        RebalanceProcess process = RebalanceProcess.ours(zk.connectString(), group, "m" + names.incrementAndGet(), topic,
                options.sessionMs, options.protocol.strategy, options.debounceMs, warmUpRounds, autoStart, logDir);
        everything.add(process);
        return process;
    }

    /** An observer of {@code group}'s registrations and owner znodes, with the coordinator's client. */
    RebalanceObserver observe(String group, String topic) {
        return new RebalanceObserver(observerClient, requests, group, topic);
    }

    String legacyLabel() {
        return "0.8.2.2 (backoff " + options.protocol.legacyBackoffMs + " ms, retries " + options.protocol.legacyRetries + ")";
    }

    /**
     * Waits until every member of {@code live} reports STABLE with exactly its rows of the assignment for
     * {@code live}; returns the stamp of the latest of those reports, or -1 on timeout. Then checks the owner znodes.
     */
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
        sampler.windowEnded();
        if (!done) {
            report.anomaly(what + ": not stable within " + WAIT + ": " + live);
            System.out.println("TIMEOUT " + what + ": " + live);
            return -1;
        }
        Map<Integer, String> owners = observer.owners();
        if (!owners.equals(expected)) {
            long seen = observer.awaitOwners(expected, Duration.ofSeconds(5));
            report.anomaly(what + ": members stable but owner znodes " + (seen < 0 ? "never matched" : "matched only "
                    + RebalanceReport.millis(seen - end[0]) + " ms later") + " (were " + owners + ")");
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
        sampler.windowEnded();
        if (end < 0) {
            report.anomaly(what + ": owner znodes never matched within " + WAIT + ": " + observer.owners());
            System.out.println("TIMEOUT " + what);
        }
        return end;
    }

    private void killEverything() {
        for (RebalanceProcess m : everything) {
            if (m.isAlive()) {
                m.kill();
            }
        }
    }
}
