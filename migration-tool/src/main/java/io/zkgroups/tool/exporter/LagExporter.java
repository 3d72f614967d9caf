package io.zkgroups.tool.exporter;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.zkgroups.tool.lag.GroupLag;
import io.zkgroups.tool.lag.GroupSampler;
import io.zkgroups.tool.lag.LagWindow;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Map;
import java.util.function.Function;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * The exporter's collector. A scrape reads ZooKeeper and Kafka at most once ({@link GroupSampler}: one pipelined
 * ZooKeeper pass, one batched round of Kafka requests) and only when the last read is older than {@code minInterval};
 * otherwise it serves the cached evaluation. Concurrent scrapes share one read. Each read adds a sample to the
 * window the statuses are judged over, so the window moves with the scrapes.
 */
final class LagExporter implements MultiCollector {

    private static final Logger LOG = LoggerFactory.getLogger(LagExporter.class);

    private final GroupSampler sampler;
    private final Supplier<List<String>> groups;
    private final LagWindow window;
    private final Duration minInterval;
    private final Duration idleAfter;
    private final GroupEvents events;
    private final Function<Collection<String>, Map<String, List<String>>> auditJournals;
    private List<GroupLag> evaluated = List.of();
    private LagMetrics.Refresh last;
    private long readAtNanos;
    private int reads;

    /** @param groups the groups to read, asked at every read (e.g. every group under /consumers) */
    LagExporter(GroupSampler sampler, Supplier<List<String>> groups, int samples, Duration minInterval, Duration idleAfter) {
        this(sampler, groups, samples, minInterval, idleAfter, names -> Map.of());
    }

    /** @param auditJournals lists the entries of the groups' audit journals, by group */
    LagExporter(GroupSampler sampler, Supplier<List<String>> groups, int samples, Duration minInterval, Duration idleAfter,
                Function<Collection<String>, Map<String, List<String>>> auditJournals) {
        this.sampler = sampler;
        this.groups = groups;
        this.window = new LagWindow(samples);
        this.minInterval = minInterval;
        this.idleAfter = idleAfter;
        this.events = new GroupEvents(idleAfter);
        this.auditJournals = auditJournals;
    }

    @Override
    public synchronized MetricSnapshots collect() {
        if (last == null || System.nanoTime() - readAtNanos >= minInterval.toNanos()) {
            refresh();
        }
        double age = (System.nanoTime() - readAtNanos) / 1e9;
        MetricSnapshots lag = LagMetrics.of(evaluated, new LagMetrics.Refresh(last.durationSeconds(), last.kafkaUp(), age));
        List<MetricSnapshot> all = new ArrayList<>();
        lag.forEach(all::add);
        all.addAll(EventMetrics.of(events.counts()));
        return new MetricSnapshots(all);
    }

    /** Reads once now (also at start, so the first scrape is not the first sample). */
    synchronized void refresh() {
        long start = System.nanoTime();
        List<String> names = groups.get();
        GroupSampler.Sampling sampling = sampler.sample(names);
        sampling.groups().values().forEach(window::add);
        window.retainGroups(Set.copyOf(new TreeSet<>(names)));
        sampling.groups().values().forEach(events::add);
        Map<String, List<String>> audits = auditJournals.apply(sampling.groups().keySet());
        sampling.groups().keySet().forEach(g -> events.audit(g, audits.getOrDefault(g, List.of())));
        events.retain(Set.copyOf(sampling.groups().keySet()));
        List<GroupLag> result = new ArrayList<>();
        sampling.groups().values().forEach(g -> result.add(window.evaluate(g, idleAfter)));
        evaluated = List.copyOf(result);
        readAtNanos = System.nanoTime();
        reads++;
        last = new LagMetrics.Refresh((readAtNanos - start) / 1e9, sampling.kafkaProblem() == null, 0);
        if (sampling.kafkaProblem() != null) {
            LOG.warn("read {}: {}; exporting the ZooKeeper half", reads, sampling.kafkaProblem());
        }
    }

    synchronized int reads() {
        return reads;
    }
}
