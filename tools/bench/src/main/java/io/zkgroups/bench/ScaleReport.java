package io.zkgroups.bench;

import io.zkgroups.bench.BenchOptionTypes.GroupSize;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogarithmicAxis;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/** What {@link ScaleBench} measured: a markdown table of medians, every run's figures, the goals' ratios and a plot. */
final class ScaleReport {

    /**
     * One measured scenario of one run. Bytes are the server's counters ({@code ServerMetrics}: requests received,
     * responses sent, watch notifications sent; everyone's, the coordinator's included: for 0.8.2.2 its owner
     * listings and reads); watches: armed at the end; member CPU: all member JVMs, from /proc; load: the 1-minute load
     * average at the end.
     */
    record Sample(String impl, GroupSize size, String scenario, double millis, long requests, long bytesReceived,
                  long responseBytes, long watchBytes, long watches, long memberCpuMillis, double load,
                  double lastRegistrationMillis) {

        Sample withLastRegistration(double ms) {
            return new Sample(impl, size, scenario, millis, requests, bytesReceived, responseBytes, watchBytes, watches,
                    memberCpuMillis, load, ms);
        }
    }

    private final List<Sample> samples;
    private final List<String> anomalies;

    ScaleReport(List<Sample> samples, List<String> anomalies) {
        this.samples = samples;
        this.anomalies = anomalies;
    }

    static double load() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    /** Samples by implementation, size and scenario, in the order they were first measured. */
    private Map<String, List<Sample>> groups() {
        Map<String, List<Sample>> groups = new LinkedHashMap<>();
        samples.forEach(s -> groups.computeIfAbsent(s.impl() + "|" + s.size() + "|" + s.scenario(), k -> new ArrayList<>()).add(s));
        return groups;
    }

    void print(PrintStream out) {
        out.println();
        out.println("| implementation | members × partitions | scenario | n | median ms | ZK requests | KB received "
                + "| KB responses | KB watch events | watches armed | member CPU ms | last registration ms | load |");
        out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        for (List<Sample> runs : groups().values()) {
            Sample first = runs.get(0);
            out.printf(Locale.ROOT, "| %s | %s | %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n",
                    first.impl(), first.size().toString().replace("x", " × "), first.scenario(), runs.size(),
                    fmt(median(runs, Sample::millis)), fmt(median(runs, Sample::requests)),
                    fmt(median(runs, Sample::bytesReceived) / 1024), fmt(median(runs, Sample::responseBytes) / 1024),
                    fmt(median(runs, Sample::watchBytes) / 1024), fmt(median(runs, Sample::watches)),
                    fmt(median(runs, Sample::memberCpuMillis)),
                    first.lastRegistrationMillis() < 0 ? "" : fmt(median(runs, Sample::lastRegistrationMillis)),
                    fmt(median(runs, Sample::load)));
        }
        out.println();
        out.println("every run (ms / ZK requests / load):");
        groups().forEach((key, runs) -> out.printf(Locale.ROOT, "  %s: %s%n", key.replace('|', ' '),
                runs.stream().map(s -> fmt(s.millis()) + " / " + s.requests() + " / " + fmt(s.load())).toList()));
        goals(out);
        out.println("anomalies: " + (anomalies.isEmpty() ? "none" : ""));
        anomalies.forEach(a -> out.println("  " + a));
    }

    /** The implementation name of the connect-only floor's samples. */
    static final String FLOOR = "connect only";
    /** The implementation name of the hear-only floor's samples (a join read, a leave heard, by every session). */
    static final String HEAR_FLOOR = "hear only";

    /** The figures the goals are stated in, where this run measured them. */
    private void goals(PrintStream out) {
        out.println();
        samples.stream().map(s -> s.size().toString()).distinct().forEach(size -> {
            Double floor = median(FLOOR, size, "floor");
            Double ours = median("ours", size, "burst");
            Double legacy = median("legacy", size, "burst");
            if (floor != null && ours != null && legacy != null) {
                out.printf(Locale.ROOT, "goal: %s burst above the floor, zkgroups ÷ 0.8.2.2 = (%s − %s) ÷ (%s − %s) = %.2f"
                        + " (≤ 0.2)%n", size, fmt(ours), fmt(floor), fmt(legacy), fmt(floor), (ours - floor) / (legacy - floor));
            }
        });
        Double oursBurst = median("ours", "100x1000", "burst");
        Double legacyBurst = median("legacy", "100x1000", "burst");
        if (oursBurst != null && legacyBurst != null) {
            out.printf(Locale.ROOT, "goal: 100 × 1000 burst, zkgroups ÷ 0.8.2.2 = %.3f (≤ 0.2)%n", oursBurst / legacyBurst);
        }
        List<Sample> bigBursts = runs("ours", "1000x10000", "burst");
        if (!bigBursts.isEmpty()) {
            out.printf(Locale.ROOT, "goal: 1000 × 10000 burst stable %s ms after the last registration (≤ 20000), %s ms"
                    + " from the first process start%n", fmt(median(bigBursts, s -> s.millis() - s.lastRegistrationMillis())),
                    fmt(median(bigBursts, Sample::millis)));
        }
        List<Sample> bigJoins = runs("ours", "1000x10000", "join");
        List<Sample> heardJoins = runs(HEAR_FLOOR, "1000x10000", "floor: every session reads a join");
        if (!bigJoins.isEmpty()) {
            out.printf(Locale.ROOT, "goal: 1000 × 10000 join %s ms (≤ 1000), %s CPU ms of the members; every session "
                    + "only reading it: %s ms, %s CPU ms%n", fmt(median(bigJoins, Sample::millis)),
                    fmt(median(bigJoins, Sample::memberCpuMillis)),
                    heardJoins.isEmpty() ? "–" : fmt(median(heardJoins, Sample::millis)),
                    heardJoins.isEmpty() ? "–" : fmt(median(heardJoins, Sample::memberCpuMillis)));
        }
        Double join100 = medianRequests("ours", 100, "join");
        Double join1000 = medianRequests("ours", 1000, "join");
        if (join100 != null && join1000 != null) {
            out.printf(Locale.ROOT, "goal: ZK requests per join, 1000 members ÷ 100 members = %.2f (≤ 5)%n", join1000 / join100);
        }
    }

    private Double median(String impl, String size, String scenarioPrefix) {
        List<Sample> runs = runs(impl, size, scenarioPrefix);
        return runs.isEmpty() ? null : median(runs, Sample::millis);
    }

    private List<Sample> runs(String impl, String size, String scenarioPrefix) {
        return samples.stream().filter(s -> s.impl().equals(impl) && s.size().toString().equals(size)
                && s.scenario().startsWith(scenarioPrefix)).toList();
    }

    private Double medianRequests(String impl, int members, String scenarioPrefix) {
        List<Sample> runs = samples.stream().filter(s -> s.impl().equals(impl) && s.size().members() == members
                && s.scenario().startsWith(scenarioPrefix)).toList();
        return runs.isEmpty() ? null : median(runs, Sample::requests);
    }

    /** Time and ZooKeeper requests of bursts and joins against members, log-log, one line per implementation. */
    void plot(Path png) throws IOException {
        if (samples.isEmpty()) {
            return;
        }
        XYSeriesCollection time = new XYSeriesCollection();
        XYSeriesCollection requests = new XYSeriesCollection();
        Map<String, XYSeries> timeSeries = new LinkedHashMap<>();
        Map<String, XYSeries> requestSeries = new LinkedHashMap<>();
        for (List<Sample> runs : groups().values()) {
            Sample first = runs.get(0);
            String scenario = first.scenario().split(" ")[0];
            if (!scenario.equals("burst") && !scenario.equals("join")) {
                continue;
            }
            String label = (first.impl().equals("ours") ? "zkgroups" : "0.8.2.2") + " " + scenario;
            timeSeries.computeIfAbsent(label + " (ms)", XYSeries::new).add(first.size().members(),
                    median(runs, Sample::millis));
            requestSeries.computeIfAbsent(label + " (requests)", XYSeries::new).add(first.size().members(),
                    median(runs, Sample::requests));
        }
        timeSeries.values().forEach(time::addSeries);
        requestSeries.values().forEach(requests::addSeries);
        String sizes = samples.stream().map(sample -> sample.size().toString()).distinct()
                .collect(java.util.stream.Collectors.joining(", "));
        CombinedDomainXYPlot plot = new CombinedDomainXYPlot(logAxis("members (sizes run: " + sizes + ")"));
        plot.add(new XYPlot(time, null, logAxis("median ms"), new XYLineAndShapeRenderer(true, true)));
        plot.add(new XYPlot(requests, null, logAxis("median ZooKeeper requests"), new XYLineAndShapeRenderer(true, true)));
        JFreeChart chart = new JFreeChart("Group coordination against group size (coordination-only members)",
                JFreeChart.DEFAULT_TITLE_FONT, plot, true);
        if (png.getParent() != null) {
            Files.createDirectories(png.getParent());
        }
        ChartUtils.saveChartAsPNG(png.toFile(), chart, 900, 800);
        System.out.println("plot: " + png);
    }

    private static LogarithmicAxis logAxis(String label) {
        LogarithmicAxis axis = new LogarithmicAxis(label);
        axis.setStrictValuesFlag(false);
        axis.setExpTickLabelsFlag(false);
        axis.setLog10TickLabelsFlag(false);
        return axis;
    }

    /** The median of {@code value} over {@code runs}: of an even number, the mean of the two middle ones. */
    static double median(List<Sample> runs, ToDoubleFunction<Sample> value) {
        double[] sorted = runs.stream().mapToDouble(value).sorted().toArray();
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, Math.abs(v) < 100 ? "%.1f" : "%.0f", v);
    }
}
