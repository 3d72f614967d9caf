package io.zkgroups.bench;

import io.zkgroups.bench.BenchOptionTypes.GroupSize;
import io.zkgroups.bench.RebalanceBenchOptions.Impl;
import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.codec.MemberRegistrationCodec;
import io.zkgroups.registry.model.BrokerInfo;
import io.zkgroups.registry.model.MemberRegistration;
import io.zkgroups.registry.model.Subscription;
import io.zkgroups.registry.model.TopicRegistration;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.store.Znodes;
import io.zkgroups.testing.TestZooKeeper;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The scaling curve of the group protocol: N members × P partitions, several members per JVM (each with its own
 * ZooKeeper session, as each 0.8.2.2 connector has its own), on one loopback ZooKeeper server in this JVM. Members
 * coordinate only: nobody fetches, no broker runs; the bench writes the broker registration and the topic znodes
 * (the registry's codecs, byte-identical to 0.8's) that both implementations read.
 * A command, not a test: run it through {@code tools/bench/scale.sh}.
 * <p>
 * Each run builds a fresh group and measures, each until the group is stable and complete (as {@link RebalanceBench}
 * defines it for each implementation):
 * <ul>
 *   <li><b>burst</b>: every member JVM started at once, every member starting as soon as it is connected; from the
 *       first process start (JVM start-up included);</li>
 *   <li><b>join</b>: one more member (its JVM up; ours connected and told to start; 0.8.2.2 from its registration
 *       seen);</li>
 *   <li><b>leave</b>: one member leaves gracefully;</li>
 *   <li><b>kill -9</b>: the member that joined is SIGKILLed (expect about the session timeout).</li>
 * </ul>
 * With each: the server's counts over the window ({@link ServerRequests}), the watches armed at its end and the
 * member JVMs' CPU time (from {@code /proc}).
 */
public final class ScaleBench {

    private final ScaleBenchOptions options;
    private final TestZooKeeper zk;
    private final CuratorFramework client;
    private final ServerRequests requests;
    private final Path logDir;
    private final Duration wait;
    final List<ScaleReport.Sample> samples = new ArrayList<>();
    final List<String> anomalies = new ArrayList<>();
    private final List<ScaleHost> everything = new ArrayList<>();

    private ScaleBench(ScaleBenchOptions options) throws Exception {
        this.options = options;
        this.zk = TestZooKeeper.start();
        this.client = zk.newClient(30_000);
        this.requests = new ServerRequests(zk.connectString(), client);
        this.logDir = Path.of("tools", "bench", "target", "scale-logs").toAbsolutePath();
        this.wait = Duration.ofSeconds(options.waitSeconds);
        Files.createDirectories(logDir);
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("java.awt.headless", "true");
        ScaleBenchOptions options = BenchCommand.parse(new ScaleBenchOptions(), args);
        if (options.impls.contains(Impl.LEGACY) && options.protocol.legacyClasspath == null) {
            System.err.println("ScaleBench: --impl legacy needs --legacy-classpath (tools/bench/scale.sh passes it)");
            System.exit(2);
        }
        ScaleBench bench = new ScaleBench(options);
        Runtime.getRuntime().addShutdownHook(new Thread(bench::killEverything));
        System.out.printf("scale bench: %s, %d cores, Java %s, load average %.2f, session %d ms, strategy %s, "
                        + "debounce %d ms, %d members per JVM%n", ZonedDateTime.now(),
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"), ScaleReport.load(),
                options.sessionMs, options.protocol.strategy, options.debounceMs, options.membersPerJvm);
        Set<Impl> converging = new LinkedHashSet<>(options.impls);
        try {
            // No broker runs: nobody fetches, and one would spend minutes creating 10,000 partitions. The znodes
            // 0.8.2.2 needs to assign anything are written as a broker and kafka-topics write them.
            ZkRegistry registry = new ZkRegistry(bench.client, ZkLayout.root());
            registry.brokers().register(BrokerInfo.v1(0, "127.0.0.1", 9092, -1, System.currentTimeMillis()));
            for (GroupSize size : options.sizes) {
                String topic = "t" + size;
                registry.topics().create(topic, TopicRegistration.v1(size.partitions(), List.of(0)));
                for (int rep = 0; rep < options.reps; rep++) {
                    bench.samples.add(bench.connectOnlyFloor(size));
                    bench.samples.addAll(bench.hearOnlyFloor(size, topic, rep));
                    for (Impl impl : List.copyOf(converging)) {
                        if (!bench.run(impl, size, topic, rep)) {
                            System.out.println("  " + impl + " did not converge at " + size + ": not run at larger sizes");
                            converging.remove(impl);
                        }
                    }
                }
            }
        } finally {
            bench.killEverything();
            bench.zk.close();
            ScaleReport report = new ScaleReport(bench.samples, bench.anomalies);
            report.print(System.out);
            report.plot(options.plot);
        }
        System.exit(0);
    }

    /**
     * The floor of the bursts at {@code size} ({@link ConnectOnlyFloor}): as many JVMs as a burst starts, with the
     * hosts' options, each opening as many ZooKeeper sessions as it would host members.
     */
    private ScaleReport.Sample connectOnlyFloor(GroupSize size) throws InterruptedException {
        List<Integer> sessions = floorSessions(size);
        double floor = ConnectOnlyFloor.measure(sessions, null, floorJvmOptions(), zk.connectString(), wait);
        if (Double.isNaN(floor)) {
            anomalies.add(size + ": the connect-only JVMs not connected within " + wait);
        }
        System.out.printf("  %s connect-only floor (%d JVMs): %.0f ms%n", size, sessions.size(), floor);
        return new ScaleReport.Sample(ScaleReport.FLOOR, size, "floor: JVMs that only connect", floor, 0, 0, 0, 0, 0, 0,
                ScaleReport.load(), -1);
    }

    /**
     * The floors of a join and a leave at {@code size} ({@link HearOnlyFloor}): as many JVMs and sessions as the
     * group's members, which only hear a registration come (and read it) and go, {@value #HEARD_CHANGES} times each.
     */
    private List<ScaleReport.Sample> hearOnlyFloor(GroupSize size, String topic, int rep) throws Exception {
        byte[] registration = MemberRegistrationCodec.encode(
                MemberRegistration.of(Subscription.topics(Map.of(topic, 1)), System.currentTimeMillis()));
        String ids = ZkLayout.root().memberIds("hear-only-" + size + "-r" + rep);
        HearOnlyFloor.Result floor = HearOnlyFloor.measure(floorSessions(size), floorJvmOptions(), client,
                zk.connectString(), ids, registration, HEARD_CHANGES, wait);
        if (Double.isNaN(floor.joinMillis()) || Double.isNaN(floor.leaveMillis())) {
            anomalies.add(size + ": the hear-only JVMs did not connect or hear every change within " + wait);
        }
        System.out.printf("  %s hear-only floor: a join read by every session %.0f ms (%.0f CPU ms), a leave heard %.0f ms"
                + " (%.0f CPU ms)%n", size, floor.joinMillis(), floor.joinCpuMillis(), floor.leaveMillis(),
                floor.leaveCpuMillis());
        return List.of(
                new ScaleReport.Sample(ScaleReport.HEAR_FLOOR, size, "floor: every session reads a join",
                        floor.joinMillis(), 0, 0, 0, 0, 0, Math.round(floor.joinCpuMillis()), ScaleReport.load(), -1),
                new ScaleReport.Sample(ScaleReport.HEAR_FLOOR, size, "floor: every session hears a leave",
                        floor.leaveMillis(), 0, 0, 0, 0, 0, Math.round(floor.leaveCpuMillis()), ScaleReport.load(), -1));
    }

    /** Changes timed per repetition by the hear-only floor (the median is reported). */
    private static final int HEARD_CHANGES = 5;

    /** Sessions per JVM of the floors: the members' hosts, as a burst launches them. */
    private List<Integer> floorSessions(GroupSize size) {
        List<Integer> sessions = new ArrayList<>();
        for (int first = 1; first <= size.members(); first += options.membersPerJvm) {
            sessions.add(Math.min(options.membersPerJvm, size.members() - first + 1));
        }
        return sessions;
    }

    private static List<String> floorJvmOptions() {
        List<String> jvmOptions = new ArrayList<>(ScaleHost.JVM_OPTIONS);
        jvmOptions.add("-Xmx256m");
        return jvmOptions;
    }

    /** One run of {@code impl} at {@code size}: burst, join, leave, kill -9. False if the burst did not converge. */
    private boolean run(Impl impl, GroupSize size, String topic, int rep) throws Exception {
        boolean legacy = impl == Impl.LEGACY;
        String group = "scale-" + impl + "-" + size + "-r" + rep;
        int n = size.members();
        int p = size.partitions();
        int width = options.padNames ? Integer.toString(n + 1).length() : 0;
        List<ScaleHost> hosts = new ArrayList<>();
        Map<String, ScaleHost> hostOf = new HashMap<>();
        try (RebalanceObserver observer = new RebalanceObserver(client, requests, group, topic, legacy)) {
            Window burst = new Window(List.of());
            long wallStart = System.currentTimeMillis();
            for (int first = 1; first <= n; first += options.membersPerJvm) {
                int count = Math.min(options.membersPerJvm, n - first + 1);
                ScaleHost host = launch(legacy, group, topic, first, count, width, true);
                hosts.add(host);
                host.names.forEach(name -> hostOf.put(name, host));
            }
            Set<String> live = new LinkedHashSet<>(hostOf.keySet());
            long end = awaitStable(legacy, group, topic, p, hostOf, live, observer, "burst");
            if (end < 0) {
                return false;
            }
            ScaleReport.Sample sample = burst.close(impl, size, "burst (from first process start)", end, hosts);
            samples.add(sample.withLastRegistration(lastRegistrationMillis(group, wallStart)));

            ScaleHost joiner = launch(legacy, group, topic, n + 1, 1, width, legacy);
            hostOf.put(joiner.names.get(0), joiner);
            hosts.add(joiner);
            Window join;
            System.out.printf("    %s join from %s%n", group, java.time.Instant.now());
            if (legacy) {
                String joinerId = ConsumerId.ofOverride(group, joiner.names.get(0)).value();
                RebalanceProcess.await(() -> observer.registeredAt(joinerId) != 0, wait);
                join = new Window(observer.registeredAt(joinerId), observer.requestsAtRegistration(joinerId), hosts);
            } else {
                RebalanceProcess.await(() -> joiner.readyAt != 0 || joiner.ended, RebalanceBench.READY_WAIT);
                join = new Window(hosts);
                joiner.start();
            }
            live.add(joiner.names.get(0));
            end = awaitStable(legacy, group, topic, p, hostOf, live, observer, "join");
            if (end > 0) {
                String scenario = options.padNames ? "join (sorting last)" : "join";
                samples.add(join.close(impl, size, scenario, legacy ? join.start : joiner.startingAt, end, hosts));
                if (!legacy) {
                    printJoinersShare(joiner, hostOf, live);
                }
            }

            String leaving = hosts.get(0).names.get(0);
            System.out.printf("    %s leave from %s%n", group, java.time.Instant.now());
            Window leave = new Window(hosts);
            hosts.get(0).leave(leaving);
            live.remove(leaving);
            if (legacy) {
                String leavingId = ConsumerId.ofOverride(group, leaving).value();
                RebalanceProcess.await(() -> observer.unregisteredAt(leavingId) != 0, wait);
                leave = new Window(observer.unregisteredAt(leavingId), observer.requestsAtUnregistration(leavingId), hosts);
            }
            end = awaitStable(legacy, group, topic, p, hostOf, live, observer, "leave");
            if (end > 0) {
                samples.add(leave.close(impl, size, "graceful leave", end, hosts));
            }

            hosts.remove(joiner);
            Window kill = new Window(hosts);
            joiner.kill();
            live.remove(joiner.names.get(0));
            end = awaitStable(legacy, group, topic, p, hostOf, live, observer, "kill -9");
            if (end > 0) {
                samples.add(kill.close(impl, size, "kill -9 (session " + options.sessionMs + " ms)", end, hosts));
            }
        } finally {
            hosts.forEach(ScaleHost::kill);
            awaitNoRegistrations(group);
        }
        System.out.printf("  %s %s run %d done (load %.2f)%n", impl, size, rep + 1, ScaleReport.load());
        return true;
    }

    /** Whether the joiner itself or a member already in the group was the last to be stable after a join. */
    private static void printJoinersShare(ScaleHost joiner, Map<String, ScaleHost> hostOf, Set<String> live) {
        String name = joiner.names.get(0);
        long others = live.stream().filter(m -> !m.equals(name)).mapToLong(m -> hostOf.get(m).status.get(m).nanos())
                .max().orElse(joiner.startingAt);
        System.out.printf("    join: the joiner stable %.0f ms after its start, the last of the others %.0f ms%n",
                (joiner.status.get(name).nanos() - joiner.startingAt) / 1e6, (others - joiner.startingAt) / 1e6);
    }

    private ScaleHost launch(boolean legacy, String group, String topic, int first, int count, int width,
                             boolean autoStart) {
        ScaleHost host = legacy
                ? ScaleHost.legacy(options.protocol.legacyClasspath, zk.connectString(), group, first, count, width,
                        topic, options.sessionMs, options.protocol.strategy, options.protocol.legacyBackoffMs,
                        options.protocol.legacyRetries, logDir)
                : ScaleHost.ours(zk.connectString(), group, first, count, width, topic, options.sessionMs,
                        options.protocol.strategy, options.debounceMs, autoStart, logDir);
        everything.add(host);
        return host;
    }

    /**
     * Waits until the group of {@code live} is stable and complete: ours, every member's latest STATE is STABLE with
     * exactly its partitions of the assignment (then the owner znodes are checked); 0.8.2.2, the owner znodes are the
     * assignment. Returns when (nanoTime), or -1 after the wait, recorded as an anomaly.
     */
    private long awaitStable(boolean legacy, String group, String topic, int p, Map<String, ScaleHost> hostOf,
                             Set<String> live, RebalanceObserver observer, String what) throws Exception {
        Map<ConsumerId, Set<Integer>> rows = new TreeMap<>();
        Map<String, ConsumerId> ids = new HashMap<>();
        live.forEach(name -> ids.put(name, ConsumerId.ofOverride(group, name)));
        Map<Integer, String> expected = RebalanceBench.assignment(options.protocol.strategy, ids.values(), topic, p, rows);
        long end;
        if (legacy) {
            end = observer.awaitOwners(expected, wait);
            countersAtEnd = Counters.now(requests);
        } else {
            long[] latest = {-1};
            java.util.function.BooleanSupplier stable = () -> {
                long max = 0;
                for (String name : live) {
                    RebalanceProcess.Status s = hostOf.get(name).status.get(name);
                    if (s == null || !s.state().equals("STABLE") || !s.owned().equals(rows.getOrDefault(ids.get(name), Set.of()))) {
                        return false;
                    }
                    max = Math.max(max, s.nanos());
                }
                latest[0] = max;
                return true;
            };
            boolean done = false;
            long deadline = System.nanoTime() + wait.toNanos();
            while (!done && System.nanoTime() < deadline) {
                done = RebalanceProcess.await(stable, Duration.ofSeconds(Math.min(15, options.waitSeconds)));
                if (!done) {
                    System.out.println("    " + group + " " + what + " waiting: " + states(live, hostOf, ids, rows));
                }
            }
            countersAtEnd = Counters.now(requests);
            end = done ? latest[0] : -1;
            if (!done) {
                describeUnsettled(live, hostOf, ids, rows, observer);
            }
            if (done && !observer.owners().equals(expected) && observer.awaitOwners(expected, Duration.ofSeconds(10)) < 0) {
                anomalies.add(group + " " + what + ": members stable but the owner znodes are not the assignment");
            }
        }
        if (end < 0) {
            anomalies.add(group + " " + what + ": not stable within " + wait + " (hosts: " + new LinkedHashSet<>(hostOf.values()) + ")");
            System.out.println("  TIMEOUT " + group + " " + what);
        }
        return end;
    }

    /**
     * After a wait that timed out: for the first few members not settled, what they report, what the assignment gives
     * them and who holds those partitions now (owner znode values), to tell a wait for a holder from a claim never sent.
     */
    private static void describeUnsettled(Set<String> live, Map<String, ScaleHost> hostOf, Map<String, ConsumerId> ids,
                                          Map<ConsumerId, Set<Integer>> rows, RebalanceObserver observer) {
        Map<Integer, String> owners;
        try {
            owners = observer.owners();
        } catch (Exception e) { // an overloaded server may not answer the reads in time: show the states all the same
            System.out.println("    owner znodes not read: " + e.getMessage());
            owners = Map.of();
        }
        int shown = 0;
        for (String name : new TreeSet<>(live)) {
            RebalanceProcess.Status s = hostOf.get(name).status.get(name);
            Set<Integer> mine = rows.getOrDefault(ids.get(name), Set.of());
            if (s != null && s.state().equals("STABLE") && s.owned().equals(mine)) {
                continue;
            }
            Map<Integer, String> holders = new TreeMap<>();
            Map<Integer, String> read = owners;
            mine.forEach(partition -> holders.put(partition, read.getOrDefault(partition, "(none or not read)")));
            System.out.println("    unsettled " + name + ": reports " + (s == null ? "nothing" : s.state() + " owning "
                    + s.owned()) + "; assigned " + mine + ", held by " + holders);
            if (++shown == 10) {
                break;
            }
        }
    }

    /** How many of {@code live} report each state (STABLE: with its partitions of the assignment or not). */
    private static Map<String, Integer> states(Set<String> live, Map<String, ScaleHost> hostOf, Map<String, ConsumerId> ids,
                                               Map<ConsumerId, Set<Integer>> rows) {
        Map<String, Integer> states = new TreeMap<>();
        for (String name : live) {
            RebalanceProcess.Status s = hostOf.get(name).status.get(name);
            String state = s == null ? "no report" : !s.state().equals("STABLE") ? s.state()
                    : s.owned().equals(rows.getOrDefault(ids.get(name), Set.of())) ? "STABLE" : "STABLE (other partitions)";
            states.merge(state, 1, Integer::sum);
        }
        return states;
    }

    /** The counters when the last wait for a stable group ended, before the coordinator's own check. */
    private Counters countersAtEnd;

    /** The server's counts at one moment. */
    record Counters(long requests, ServerRequests.Traffic traffic) {
        static Counters now(ServerRequests requests) {
            return new Counters(requests.members(), requests.traffic());
        }
    }

    /** A measured window: its start, the counters and the member JVMs' CPU there. */
    private final class Window {
        final long start;
        final Counters counters;
        final Map<ScaleHost, Long> cpu = new HashMap<>();

        Window(List<ScaleHost> hosts) {
            this(System.nanoTime(), -1, hosts);
        }

        /** From {@code start}, with the member request count then ({@code -1}: now). */
        Window(long start, long requestsAtStart, List<ScaleHost> hosts) {
            Counters now = Counters.now(requests);
            this.start = start;
            this.counters = requestsAtStart < 0 ? now : new Counters(requestsAtStart, now.traffic());
            hosts.forEach(h -> cpu.put(h, h.cpuMillis()));
        }

        ScaleReport.Sample close(Impl impl, GroupSize size, String scenario, long end, List<ScaleHost> hosts) {
            return close(impl, size, scenario, start, end, hosts);
        }

        ScaleReport.Sample close(Impl impl, GroupSize size, String scenario, long from, long end, List<ScaleHost> hosts) {
            long cpuMillis = 0;
            for (ScaleHost h : hosts) {
                cpuMillis += h.cpuMillis() - cpu.getOrDefault(h, 0L);
            }
            ServerRequests.Traffic a = counters.traffic();
            ServerRequests.Traffic b = countersAtEnd.traffic();
            return new ScaleReport.Sample(impl.toString(), size, scenario, (end - from) / 1e6,
                    countersAtEnd.requests() - counters.requests(), b.bytesReceived - a.bytesReceived,
                    b.responseBytes - a.responseBytes, b.watchBytes - a.watchBytes, b.watches, cpuMillis,
                    ScaleReport.load(), -1);
        }
    }

    /** When the last registration of {@code group} was created, in ms after {@code wallStart} (server clock). */
    private double lastRegistrationMillis(String group, long wallStart) throws Exception {
        String ids = ZkLayout.root().memberIds(group);
        List<String> paths = client.getChildren().forPath(ids).stream().map(name -> ids + "/" + name).toList();
        long last = 0;
        for (Znodes.Data data : new Znodes(client).readAll(paths, null).values()) {
            last = Math.max(last, data.stat().getCtime());
        }
        return last - wallStart;
    }

    /** Waits (watches) until the registrations of killed members are gone, so that the next run starts on a quiet server. */
    private void awaitNoRegistrations(String group) throws Exception {
        String ids = ZkLayout.root().memberIds(group);
        long deadline = System.nanoTime() + Duration.ofMillis(options.sessionMs * 3L + 30_000).toNanos();
        while (System.nanoTime() < deadline) {
            CountDownLatch changed = new CountDownLatch(1);
            try {
                if (client.getChildren().usingWatcher((org.apache.zookeeper.Watcher) e -> changed.countDown())
                        .forPath(ids).isEmpty()) {
                    return;
                }
            } catch (KeeperException.NoNodeException none) {
                return;
            }
            changed.await(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
        }
        anomalies.add(group + ": registrations of killed members still there after the sessions should have expired");
    }

    private void killEverything() {
        everything.forEach(ScaleHost::kill);
    }
}
