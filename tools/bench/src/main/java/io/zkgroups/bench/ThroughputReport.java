package io.zkgroups.bench;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The markdown table of one shape of {@link ThroughputBench}: medians, every repetition beside them, and the most
 * records any run read twice (every run read every record, or the bench stopped).
 */
final class ThroughputReport {

    private ThroughputReport() {
    }

    static String table(String shape, long records, Map<String, List<ThroughputBench.Run>> runs) {
        StringBuilder s = new StringBuilder(String.format("%n## %s%n%n", shape));
        s.append("| reader | records/s (median; each run) | × ").append(runs.keySet().iterator().next())
                .append(" | start → first record, s | start → last record, s | CPU-s per million records | peak RSS, MiB "
                        + "| read twice (most) |\n");
        s.append("|---|---:|---:|---:|---:|---:|---:|---:|\n");
        double reference = median(runs.values().iterator().next(), r -> r.recordsPerSecond(records));
        runs.forEach((reader, list) -> {
            double rate = median(list, r -> r.recordsPerSecond(records));
            s.append(String.format(Locale.ROOT, "| %s | %,.0f (%s) | %.2f | %.2f | %.2f | %.2f | %.0f | %,d |%n", reader, rate,
                    String.join(", ", list.stream().map(r -> String.format(Locale.ROOT, "%,.0f", r.recordsPerSecond(records))).toList()),
                    rate / reference, median(list, r -> r.startToFirstNanos() / 1e9),
                    median(list, r -> r.startToLastNanos() / 1e9),
                    median(list, r -> r.cpuSecondsPerMillion(records)),
                    list.stream().mapToLong(ThroughputBench.Run::peakKib).max().orElse(-1) / 1024.0,
                    list.stream().mapToLong(ThroughputBench.Run::readTwice).max().orElse(0)));
        });
        return s.toString();
    }

    private static double median(List<ThroughputBench.Run> runs, ToDoubleFunction<ThroughputBench.Run> value) {
        double[] sorted = runs.stream().mapToDouble(value).sorted().toArray();
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
