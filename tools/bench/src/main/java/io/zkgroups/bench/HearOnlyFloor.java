package io.zkgroups.bench;

import io.zkgroups.testing.ChildJvm;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * The floor of a join and of a leave: as many fresh JVMs as the group's members live in, with the same options, whose
 * sessions only hear the group's registrations ({@link ZooKeeperConnectMain} given the {@code ids} directory). The
 * bench then creates one registration and deletes it, a few times, and times each change from its request to the
 * moment the last session had read the new registration (created) or heard it go (deleted). Every member must at
 * least hear of a join and read the joiner's registration, so no group of that many members on this machine can be
 * stable after a join or a leave sooner than this; the rest of a member's reaction (its view, the assignment, the
 * claims) is what lies above it.
 */
final class HearOnlyFloor {

    /**
     * Medians: the ms to the last session, the JVMs' CPU ms for the change; NaN where the JVMs did not connect, or a
     * change was not heard, within the wait.
     */
    record Result(double joinMillis, double joinCpuMillis, double leaveMillis, double leaveCpuMillis) {
    }

    private final Map<String, List<Long>> reports = new HashMap<>();
    private int connected;

    private HearOnlyFloor() {
    }

    /**
     * Starts one JVM per entry of {@code sessionsPerJvm}, then creates and deletes a registration of {@code data} in
     * {@code directory} (created if missing) {@code changes} times; the JVMs are killed before it returns.
     */
    static Result measure(List<Integer> sessionsPerJvm, List<String> jvmOptions, CuratorFramework client,
                          String connect, String directory, byte[] data, int changes, Duration wait) throws Exception {
        if (client.checkExists().forPath(directory) == null) {
            client.create().creatingParentsIfNeeded().forPath(directory);
        }
        HearOnlyFloor floor = new HearOnlyFloor();
        List<ChildJvm> jvms = new ArrayList<>();
        try {
            for (int i = 0; i < sessionsPerJvm.size(); i++) {
                jvms.add(ChildJvm.builder("hear" + i, ZooKeeperConnectMain.class.getName()).jvmOptions(jvmOptions)
                        .args(List.of(connect, Integer.toString(sessionsPerJvm.get(i)), directory))
                        .discardStderr().onLine(floor::parse).start());
            }
            int jvmCount = sessionsPerJvm.size();
            if (!floor.await(() -> floor.connected == jvmCount, wait)) {
                return new Result(Double.NaN, Double.NaN, Double.NaN, Double.NaN);
            }
            List<Double> joins = new ArrayList<>();
            List<Double> joinCpu = new ArrayList<>();
            List<Double> leaves = new ArrayList<>();
            List<Double> leaveCpu = new ArrayList<>();
            for (int i = 0; i < changes; i++) {
                String path = directory + "/hear-only-floor-" + i;
                long cpu = cpuMillis(jvms);
                long start = System.nanoTime();
                client.create().withMode(CreateMode.EPHEMERAL).forPath(path, data);
                joins.add(floor.lastReport("READ " + path, jvmCount, start, wait));
                long cpuAfterJoin = cpuMillis(jvms);
                joinCpu.add((double) (cpuAfterJoin - cpu));
                start = System.nanoTime();
                client.delete().forPath(path);
                leaves.add(floor.lastReport("GONE " + path, jvmCount, start, wait));
                leaveCpu.add((double) (cpuMillis(jvms) - cpuAfterJoin));
            }
            return new Result(ProductBench.median(joins), ProductBench.median(joinCpu), ProductBench.median(leaves),
                    ProductBench.median(leaveCpu));
        } finally {
            jvms.forEach(ChildJvm::kill);
        }
    }

    /** CPU ms of all {@code jvms} so far (10 ms ticks each). */
    private static long cpuMillis(List<ChildJvm> jvms) throws IOException {
        long sum = 0;
        for (ChildJvm jvm : jvms) {
            sum += ProcStat.cpuMillis(jvm.pid());
        }
        return sum;
    }

    /** ms from {@code start} to the last of {@code jvms} reports of {@code what}; NaN if they did not come in time. */
    private double lastReport(String what, int jvms, long start, Duration wait) throws InterruptedException {
        if (!await(() -> reports.getOrDefault(what, List.of()).size() == jvms, wait)) {
            return Double.NaN;
        }
        synchronized (this) {
            return (reports.get(what).stream().mapToLong(Long::longValue).max().orElseThrow() - start) / 1e6;
        }
    }

    private boolean await(BooleanSupplier done, Duration wait) throws InterruptedException {
        return RebalanceProcess.await(this, done, wait); // parse() notifies
    }

    /** A line of a JVM: {@code CONNECTED}, or {@code READ|GONE <path> <nanoTime>}. */
    private synchronized boolean parse(String line) {
        if (line.equals("CONNECTED")) {
            connected++;
        } else if (line.startsWith("READ ") || line.startsWith("GONE ")) {
            int at = line.lastIndexOf(' ');
            reports.computeIfAbsent(line.substring(0, at), k -> new ArrayList<>()).add(Long.parseLong(line.substring(at + 1)));
        }
        notifyAll();
        return false;
    }
}
