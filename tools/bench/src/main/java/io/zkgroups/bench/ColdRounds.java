package io.zkgroups.bench;

import io.zkgroups.bench.RebalanceReport.Probe;
import io.zkgroups.bench.RebalanceReport.Result;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The cold figures of {@link RebalanceBench}: every member a fresh JVM that joins the moment it is connected, no
 * warm-up. For either implementation alike, each join/leave/kill repetition builds a new group: N-1 fresh members
 * join together and settle (that is all they ever ran), then
 * <ul>
 *   <li><b>join</b>: one more fresh process joins; from its registration seen by the coordinator's watch;</li>
 *   <li><b>leave</b>: the oldest member leaves gracefully; from its registration seen gone;</li>
 *   <li><b>kill</b>: the next oldest is SIGKILLed; from the kill;</li>
 * </ul>
 * each up to the group being stable with the assignment for the live members (ours: every member's STABLE report;
 * 0.8.2.2: the owner znodes listed equal to it). A <b>burst</b> is N fresh processes launched at once into a new
 * group; from the first (and from the last) registration seen. ZooKeeper requests are counted by the server from the
 * same start events ({@link ServerRequests}).
 */
final class ColdRounds {

    private final RebalanceBench bench;
    private final ZooKeeperSampler sampler;
    private final RebalanceReport report;
    private final int reps;
    private final int burstReps;

    ColdRounds(RebalanceBench bench, ZooKeeperSampler sampler, RebalanceReport report, int reps, int burstReps) {
        this.bench = bench;
        this.sampler = sampler;
        this.report = report;
        this.reps = reps;
        this.burstReps = burstReps;
    }

    /** The measurements of one implementation at one size. */
    private static final class Figures {
        final List<Double> join = new ArrayList<>();
        final List<Double> joinFromStart = new ArrayList<>();
        final List<Double> leave = new ArrayList<>();
        final List<Double> leaveFromClose = new ArrayList<>();
        final List<Double> kill = new ArrayList<>();
        final List<Double> burstFirst = new ArrayList<>();
        final List<Double> burstLast = new ArrayList<>();
        final Probe joinProbe = new Probe();
        final Probe leaveProbe = new Probe();
        final Probe killProbe = new Probe();
        final Probe burstProbe = new Probe();
    }

    void run(boolean legacy, int n, int p, String topic) throws Exception {
        String size = n + "x" + p;
        String impl = legacy ? "legacy" : "ours";
        Figures f = new Figures();
        for (int rep = 0; rep < reps; rep++) {
            joinLeaveKill(legacy, n, p, topic, impl + "-cold-" + size + "-" + rep, f);
            RebalanceReport.progress(size, (legacy ? "0.8.2.2 " : "") + "cold join/leave/kill", rep);
        }
        for (int rep = 0; rep < burstReps; rep++) {
            burst(legacy, n, p, topic, impl + "-cold-" + size + "-burst" + rep, f);
            RebalanceReport.progress(size, (legacy ? "0.8.2.2 " : "") + "cold burst", rep);
        }
        String label = legacy ? bench.legacyLabel() : "zkgroups";
        String cold = "cold: ";
        report.add(new Result(label, size, cold + "join (from registration seen)", f.join, "",
                f.joinProbe, "cold join"));
        if (!legacy) {
            report.add(new Result(label, size, cold + "join (from start())", f.joinFromStart, "", null));
        }
        report.add(new Result(label, size, cold + "graceful leave (from registration gone)", f.leave,
                "", f.leaveProbe, "cold leave"));
        if (!legacy) {
            report.add(new Result(label, size, cold + "graceful leave (from close())", f.leaveFromClose,
                    "", null));
        }
        report.add(new Result(label, size, cold + "kill -9 (from SIGKILL)", f.kill, "", f.killProbe,
                "cold kill -9"));
        report.add(new Result(label, size, cold + "burst of " + n + " (from first registration)",
                f.burstFirst, "", f.burstProbe, "cold burst (from first)"));
        report.add(new Result(label, size, cold + "burst of " + n + " (from last registration)",
                f.burstLast, "", null, "cold burst (from last)"));
    }

    private RebalanceProcess launch(boolean legacy, String group, String topic) {
        return legacy ? bench.launchLegacy(group, topic) : bench.launchOurs(group, topic, 0, true);
    }

    /** Waits for the group of {@code live} to be stable; the end stamp or -1 (an anomaly is recorded). */
    private long awaitGroup(boolean legacy, String what, List<RebalanceProcess> live, String topic, int p,
                            RebalanceObserver observer) throws Exception {
        return legacy ? bench.awaitOwners(what, live, topic, p, observer) : bench.awaitStable(what, live, topic, p, observer);
    }

    private void joinLeaveKill(boolean legacy, int n, int p, String topic, String group, Figures f) throws Exception {
        String size = n + "x" + p;
        try (RebalanceObserver observer = bench.observe(group, topic)) {
            List<RebalanceProcess> live = new ArrayList<>();
            for (int i = 0; i < n - 1; i++) {
                live.add(launch(legacy, group, topic));
            }
            RebalanceBench.awaitReady(live);
            if (awaitGroup(legacy, "cold setup " + size, live, topic, p, observer) < 0) {
                RebalanceBench.closeAll(live);
                return;
            }

            Map<RebalanceProcess, Long> cpu = ZooKeeperSampler.memberCpu(live); // the joiner's counts from its READY
            RebalanceProcess joining = launch(legacy, group, topic);
            live.add(joining);
            String joiner = joining.id.value();
            long coordinatorCpu = RebalanceMemberMain.cpuNanos();
            RebalanceProcess.await(() -> observer.registeredAt(joiner) != 0, RebalanceBench.WAIT);
            long end = awaitGroup(legacy, "cold join " + size, live, topic, p, observer);
            if (end > 0) {
                sampler.probe(f.joinProbe, observer.registeredAt(joiner), observer.requestsAtRegistration(joiner), end);
                if (!legacy) {
                    sampler.cpuProbe(f.joinProbe, cpu, live, coordinatorCpu);
                    f.joinFromStart.add(RebalanceReport.millis(end - joining.startingAt));
                }
                f.join.add(RebalanceReport.millis(end - observer.registeredAt(joiner)));
            }
            RebalanceBench.awaitReady(List.of(joining)); // 0.8.2.2 says READY after its first rebalance

            RebalanceProcess leaving = live.remove(0);
            String leaver = leaving.id.value();
            cpu = ZooKeeperSampler.memberCpu(live);
            coordinatorCpu = RebalanceMemberMain.cpuNanos();
            leaving.send(legacy ? "shutdown" : "leave");
            RebalanceProcess.await(() -> observer.unregisteredAt(leaver) != 0, RebalanceBench.WAIT);
            end = awaitGroup(legacy, "cold leave " + size, live, topic, p, observer);
            if (end > 0) {
                sampler.probe(f.leaveProbe, observer.unregisteredAt(leaver), observer.requestsAtUnregistration(leaver), end);
                if (!legacy) {
                    sampler.cpuProbe(f.leaveProbe, cpu, live, coordinatorCpu);
                    RebalanceProcess.await(() -> leaving.leavingAt != 0, RebalanceBench.WAIT);
                    f.leaveFromClose.add(RebalanceReport.millis(end - leaving.leavingAt));
                }
                f.leave.add(RebalanceReport.millis(end - observer.unregisteredAt(leaver)));
            }
            leaving.awaitExit(RebalanceBench.WAIT);

            RebalanceProcess victim = live.remove(0);
            long requests = sampler.packets();
            long killedAt = System.nanoTime();
            victim.kill();
            end = awaitGroup(legacy, "cold kill " + size, live, topic, p, observer);
            if (end > 0) {
                sampler.probe(f.killProbe, killedAt, requests, end);
                f.kill.add(RebalanceReport.millis(end - killedAt));
            }
            RebalanceBench.closeAll(live);
        }
    }

    private void burst(boolean legacy, int n, int p, String topic, String group, Figures f) throws Exception {
        try (RebalanceObserver observer = bench.observe(group, topic)) {
            List<RebalanceProcess> all = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                all.add(launch(legacy, group, topic));
            }
            RebalanceProcess.await(() -> all.stream().allMatch(m -> observer.registeredAt(m.id.value()) != 0),
                    RebalanceBench.READY_WAIT);
            long end = awaitGroup(legacy, "cold burst " + n + "x" + p, all, topic, p, observer);
            if (end > 0) {
                RebalanceProcess first = all.get(0);
                long last = 0;
                for (RebalanceProcess m : all) {
                    long at = observer.registeredAt(m.id.value());
                    first = at < observer.registeredAt(first.id.value()) ? m : first;
                    last = Math.max(last, at);
                }
                long firstAt = observer.registeredAt(first.id.value());
                sampler.probe(f.burstProbe, firstAt, observer.requestsAtRegistration(first.id.value()), end);
                f.burstFirst.add(RebalanceReport.millis(end - firstAt));
                f.burstLast.add(RebalanceReport.millis(end - last));
            }
            RebalanceBench.closeAll(all);
        }
    }
}
