package io.zkgroups.bench;

import io.zkgroups.bench.RebalanceReport.Probe;
import org.apache.curator.framework.CuratorFramework;

import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The coordinator's view of ZooKeeper during a {@link RebalanceBench} run: the round-trip time of a tiny request every
 * 20 ms, the requests the server received from the members, and the CPU members and the coordinator's JVM (which runs
 * the server) spent; each measured window's share of them goes into a {@link Probe}.
 */
final class ZooKeeperSampler implements AutoCloseable {

    private final CuratorFramework observerClient;
    private final ServerRequests requests;
    /** nanoTime → RTT (ms) of the sampling requests. */
    private final ConcurrentSkipListMap<Long, Double> rtts = new ConcurrentSkipListMap<>();
    private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "rtt-sampler");
        t.setDaemon(true);
        return t;
    });
    /**
     * The server's request count when the last wait for a stable group ended, before the coordinator's own check of
     * the owner znodes (up to P + 1 reads, which are not the members' doing).
     */
    private long packetsAtEnd;
    /** The CPU time of this JVM (ZooKeeper server, observer, sampler) when the last wait for a stable group ended. */
    private long cpuAtEnd;

    ZooKeeperSampler(CuratorFramework observerClient, ServerRequests requests) {
        this.observerClient = observerClient;
        this.requests = requests;
        sampler.scheduleWithFixedDelay(this::sampleRtt, 0, 20, TimeUnit.MILLISECONDS);
    }

    private void sampleRtt() {
        long start = System.nanoTime();
        try {
            observerClient.checkExists().forPath("/");
            rtts.put(start, RebalanceReport.millis(System.nanoTime() - start));
        } catch (Exception e) {
            // not a sample
        }
    }

    /** Requests the ZooKeeper server has received so far from everyone but this coordinator. */
    long packets() {
        return requests.members();
    }

    /** Marks the end of a wait for a stable group: the window's requests and this JVM's CPU stop counting here. */
    void windowEnded() {
        cpuAtEnd = RebalanceMemberMain.cpuNanos();
        packetsAtEnd = packets();
    }

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

    /** CPU nanos each live member had used when its latest STATE line was stamped (0 if none yet). */
    static Map<RebalanceProcess, Long> memberCpu(Collection<RebalanceProcess> members) {
        Map<RebalanceProcess, Long> cpu = new IdentityHashMap<>();
        members.forEach(m -> cpu.put(m, m.status == null ? m.firstCpuNanos : m.status.cpuNanos()));
        return cpu;
    }

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
        probe.memberCpuMillis.add(RebalanceReport.millis(sum));
        probe.coordinatorCpuMillis.add(RebalanceReport.millis(cpuAtEnd - coordinatorBefore));
    }

    @Override
    public void close() {
        sampler.shutdownNow();
    }
}
