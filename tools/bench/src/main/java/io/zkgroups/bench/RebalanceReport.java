package io.zkgroups.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a {@link RebalanceBench} run measured and how it is printed: one {@link Result} per implementation, size and
 * scenario, the anomalies seen, the ownership moves of the rolling series, and the side-by-side ratios.
 */
final class RebalanceReport {

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
     * CPU-bound on this machine. Filled by {@link ZooKeeperSampler}.
     */
    static final class Probe {
        final List<Double> requests = new ArrayList<>();
        final List<Double> rttMillis = new ArrayList<>();
        final List<Double> memberCpuMillis = new ArrayList<>();
        final List<Double> coordinatorCpuMillis = new ArrayList<>();
    }

    final List<Result> results = new ArrayList<>();
    private final List<String> anomalies = new ArrayList<>();
    /** Ownership moves of each size's join/leave series, one line each. */
    private final List<String> ownershipMoves = new ArrayList<>();

    void add(Result result) {
        results.add(result);
    }

    void anomaly(String what) {
        anomalies.add(what);
    }

    void ownershipMoves(String line) {
        ownershipMoves.add(line);
    }

    void print() {
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
                    r.millis().stream().map(RebalanceReport::fmt).toList());
        }
        printRatios();
        ownershipMoves.forEach(System.out::println);
        System.out.println("anomalies: " + (anomalies.isEmpty() ? "none" : ""));
        anomalies.forEach(a -> System.out.println("  " + a));
    }

    /** zkgroups ÷ 0.8.2.2 of the medians, for every scenario both ran in this run (goal: ≤ 0.2). */
    private void printRatios() {
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

    static void progress(String size, String scenario, int rep) {
        System.out.printf("  %s %s rep %d done%n", size, scenario, rep + 1);
    }

    static double millis(long nanos) {
        return nanos / 1e6;
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
}
