package io.zkgroups.bench;

import io.zkgroups.bench.RebalanceReport.Probe;
import io.zkgroups.bench.RebalanceReport.Result;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The warm figures of {@link RebalanceBench}: member JVMs started and warmed up before the clock starts, then told to
 * {@code start()} or leave. For zkgroups members: a rolling series (one joins, then the oldest leaves, counting
 * ownership moves), kill -9 with a replacement, and bursts into a new group; for 0.8.2.2 consumers, which cannot be
 * told when to start, the same from their registrations as the coordinator's watches see them.
 */
final class WarmRounds {

    private final RebalanceBench bench;
    private final RebalanceBenchOptions options;
    private final ZooKeeperSampler sampler;
    private final RebalanceReport report;

    WarmRounds(RebalanceBench bench, RebalanceBenchOptions options, ZooKeeperSampler sampler, RebalanceReport report) {
        this.bench = bench;
        this.options = options;
        this.sampler = sampler;
        this.report = report;
    }

    void runOurs(int n, int p, String topic) throws Exception {
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

        try (RebalanceObserver observer = bench.observe(group, topic)) {
            List<RebalanceProcess> live = new ArrayList<>();
            for (int i = 0; i < n - 1; i++) {
                live.add(bench.launchOurs(group, topic));
            }
            RebalanceBench.awaitReady(live);
            live.forEach(m -> m.send("start"));
            bench.awaitStable("setup " + size, live, topic, p, observer);
            Map<Integer, String> ownersBefore = observer.owners();
            int moves = 0;

            for (int rep = 0; rep < options.reps; rep++) {
                RebalanceProcess joining = bench.launchOurs(group, topic);
                RebalanceBench.awaitReady(List.of(joining));
                long packets = sampler.packets();
                Map<RebalanceProcess, Long> cpu = ZooKeeperSampler.memberCpu(live);
                long coordinatorCpu = RebalanceMemberMain.cpuNanos();
                joining.send("start");
                live.add(joining);
                long end = bench.awaitStable("join " + size, live, topic, p, observer);
                if (end > 0) {
                    sampler.probe(joinProbe, joining.startingAt, packets, end);
                    sampler.cpuProbe(joinProbe, cpu, live, coordinatorCpu);
                    join.add(RebalanceReport.millis(end - joining.startingAt));
                    long registered = observer.registeredAt(joining.id.value());
                    if (registered > 0) {
                        joinFromRegistration.add(RebalanceReport.millis(end - registered));
                    }
                }
                Map<Integer, String> ownersNow = observer.owners();
                moves += moved(ownersBefore, ownersNow);
                ownersBefore = ownersNow;

                RebalanceProcess leaving = live.remove(0); // the oldest
                packets = sampler.packets();
                cpu = ZooKeeperSampler.memberCpu(live);
                coordinatorCpu = RebalanceMemberMain.cpuNanos();
                leaving.send("leave");
                end = bench.awaitStable("leave " + size, live, topic, p, observer);
                if (end > 0) {
                    RebalanceProcess.await(() -> leaving.leavingAt != 0, RebalanceBench.WAIT);
                    sampler.probe(leaveProbe, leaving.leavingAt, packets, end);
                    sampler.cpuProbe(leaveProbe, cpu, live, coordinatorCpu);
                    leave.add(RebalanceReport.millis(end - leaving.leavingAt));
                }
                ownersNow = observer.owners();
                moves += moved(ownersBefore, ownersNow);
                ownersBefore = ownersNow;
                leaving.awaitExit(RebalanceBench.WAIT);
                RebalanceReport.progress(size, "join/leave", rep);
            }
            report.ownershipMoves(String.format(Locale.ROOT, "%s %s, strategy %s: %d ownership moves over %d joins and %d"
                    + " leaves (each rep: one member joins, then the oldest leaves)", "zkgroups", size, options.protocol.strategy,
                    moves, options.reps, options.reps));

            live.add(bench.launchOurs(group, topic));
            RebalanceBench.awaitReady(live.subList(live.size() - 1, live.size()));
            live.get(live.size() - 1).send("start");
            bench.awaitStable("setup " + size, live, topic, p, observer);
            for (int rep = 0; rep < options.killReps; rep++) {
                RebalanceProcess victim = live.remove(0);
                long packets = sampler.packets();
                long killedAt = System.nanoTime();
                victim.kill();
                long end = bench.awaitStable("kill " + size, live, topic, p, observer);
                if (end > 0) {
                    sampler.probe(killProbe, killedAt, packets, end);
                    kill.add(RebalanceReport.millis(end - killedAt));
                }
                RebalanceProcess replacement = bench.launchOurs(group, topic);
                RebalanceBench.awaitReady(List.of(replacement));
                replacement.send("start");
                live.add(replacement);
                bench.awaitStable("replace " + size, live, topic, p, observer);
                RebalanceReport.progress(size, "kill", rep);
            }
            RebalanceBench.closeAll(live);
        }

        for (int rep = 0; rep < options.burstReps; rep++) {
            String burstGroup = group + "-burst" + rep;
            try (RebalanceObserver observer = bench.observe(burstGroup, topic)) {
                List<RebalanceProcess> all = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    all.add(bench.launchOurs(burstGroup, topic));
                }
                RebalanceBench.awaitReady(all);
                long packets = sampler.packets();
                Map<RebalanceProcess, Long> cpu = ZooKeeperSampler.memberCpu(all);
                long coordinatorCpu = RebalanceMemberMain.cpuNanos();
                all.forEach(m -> m.send("start"));
                long end = bench.awaitStable("burst " + size, all, topic, p, observer);
                if (end > 0) {
                    long first = all.stream().mapToLong(m -> m.startingAt).min().orElseThrow();
                    sampler.probe(burstProbe, first, packets, end);
                    sampler.cpuProbe(burstProbe, cpu, all, coordinatorCpu);
                    burst.add(RebalanceReport.millis(end - first));
                }
                RebalanceBench.closeAll(all);
            }
            RebalanceReport.progress(size, "burst", rep);
        }

        report.add(new Result("zkgroups", size, "join (from start())", join, "≤ 100 ms", joinProbe));
        report.add(new Result("zkgroups", size, "join (from registration seen)", joinFromRegistration, "", null));
        report.add(new Result("zkgroups", size, "graceful leave (from close())", leave, "≤ 50 ms", leaveProbe));
        report.add(new Result("zkgroups", size, "kill -9 (from SIGKILL)", kill,
                "≤ session + 200 = " + (options.sessionMs + 200) + " ms", killProbe));
        report.add(new Result("zkgroups", size, "burst of " + n + " (from first start())", burst,
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

    void runLegacy(int n, int p, String topic) throws Exception {
        String size = n + "x" + p;
        String label = bench.legacyLabel();
        String group = "legacy-" + size;
        List<Double> join = new ArrayList<>();
        List<Double> leave = new ArrayList<>();
        List<Double> burstFirst = new ArrayList<>();
        List<Double> burstLast = new ArrayList<>();
        Probe joinProbe = new Probe();
        Probe leaveProbe = new Probe();
        Probe burstProbe = new Probe();

        try (RebalanceObserver observer = bench.observe(group, topic)) {
            List<RebalanceProcess> live = new ArrayList<>();
            for (int i = 0; i < n - 1; i++) {
                live.add(bench.launchLegacy(group, topic));
            }
            RebalanceBench.awaitReady(live);
            bench.awaitOwners("setup legacy " + size, live, topic, p, observer);
            for (int rep = 0; rep < options.legacyReps; rep++) {
                RebalanceProcess joining = bench.launchLegacy(group, topic);
                live.add(joining);
                RebalanceProcess.await(() -> observer.registeredAt(joining.id.value()) != 0, RebalanceBench.WAIT);
                long packets = sampler.packets();
                long end = bench.awaitOwners("legacy join " + size, live, topic, p, observer);
                if (end > 0) {
                    sampler.probe(joinProbe, observer.registeredAt(joining.id.value()), packets, end);
                    join.add(RebalanceReport.millis(end - observer.registeredAt(joining.id.value())));
                }
                RebalanceBench.awaitReady(List.of(joining));

                RebalanceProcess leaving = live.remove(0);
                packets = sampler.packets();
                leaving.send("shutdown");
                RebalanceProcess.await(() -> observer.unregisteredAt(leaving.id.value()) != 0, RebalanceBench.WAIT);
                end = bench.awaitOwners("legacy leave " + size, live, topic, p, observer);
                if (end > 0) {
                    sampler.probe(leaveProbe, observer.unregisteredAt(leaving.id.value()), packets, end);
                    leave.add(RebalanceReport.millis(end - observer.unregisteredAt(leaving.id.value())));
                }
                leaving.awaitExit(RebalanceBench.WAIT);
                RebalanceReport.progress(size, "0.8.2.2 join/leave", rep);
            }
            RebalanceBench.closeAll(live);
        }

        for (int rep = 0; rep < options.legacyBurstReps; rep++) {
            String burstGroup = group + "-burst" + rep;
            try (RebalanceObserver observer = bench.observe(burstGroup, topic)) {
                List<RebalanceProcess> all = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    all.add(bench.launchLegacy(burstGroup, topic));
                }
                long packets = sampler.packets();
                RebalanceProcess.await(() -> all.stream().allMatch(m -> observer.registeredAt(m.id.value()) != 0), RebalanceBench.WAIT);
                long end = bench.awaitOwners("legacy burst " + size, all, topic, p, observer);
                if (end > 0) {
                    long first = all.stream().mapToLong(m -> observer.registeredAt(m.id.value())).min().orElseThrow();
                    long last = all.stream().mapToLong(m -> observer.registeredAt(m.id.value())).max().orElseThrow();
                    sampler.probe(burstProbe, first, packets, end);
                    burstFirst.add(RebalanceReport.millis(end - first));
                    burstLast.add(RebalanceReport.millis(end - last));
                }
                RebalanceBench.closeAll(all);
            }
            RebalanceReport.progress(size, "0.8.2.2 burst", rep);
        }
        report.add(new Result(label, size, "join (from registration seen)", join, "", joinProbe));
        report.add(new Result(label, size, "graceful leave (from registration gone)", leave, "", leaveProbe));
        report.add(new Result(label, size, "burst of " + n + " (from first registration)", burstFirst, "", burstProbe));
        report.add(new Result(label, size, "burst of " + n + " (from last registration)", burstLast, "", null));
    }
}
