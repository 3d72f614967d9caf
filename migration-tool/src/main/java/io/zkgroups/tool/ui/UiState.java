package io.zkgroups.tool.ui;

import io.zkgroups.registry.ZkNames;
import io.zkgroups.registry.store.Member;
import io.zkgroups.tool.group.MemberHost;
import io.zkgroups.tool.history.HistoryEvent;
import io.zkgroups.tool.history.HistoryService;
import io.zkgroups.tool.io.Clients;
import io.zkgroups.tool.lag.GroupLag;
import io.zkgroups.tool.lag.GroupSampler;
import io.zkgroups.tool.lag.LagWindow;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * What the page shows, read on one thread: every {@code interval} it samples the groups (as the exporter does: one
 * pipelined ZooKeeper pass, one batched round of Kafka requests, record timestamps for lag in seconds), keeps the last
 * hour of each partition's lag for the charts, and for the groups a page has opened reads their members and history.
 * Handlers only read the documents it publishes; listeners hear of each new one. Thread-safe.
 */
final class UiState implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(UiState.class);
    private static final Duration CHART_SPAN = Duration.ofHours(1);
    private static final int HISTORY_SHOWN = 200;

    /** One chart point: ms since the epoch, lag in records, lag in seconds. */
    record Point(long at, Long lag, Double lagSeconds) {
    }

    /** A member as the page lists it. */
    record MemberView(String id, String host) {
    }

    private final Clients clients;
    private final Supplier<List<String>> groups;
    private final Duration staleAfter;
    private final GroupSampler sampler;
    private final LagWindow window = new LagWindow(10);
    private final Map<String, Map<String, Deque<Point>>> charts = new ConcurrentHashMap<>();
    private final Set<String> opened = ConcurrentHashMap.newKeySet();
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "zkgroups-ui-sampler");
        t.setDaemon(true);
        return t;
    });
    private volatile Map<String, Object> groupsDoc = Map.of("groups", List.of());
    private final Map<String, Map<String, Object>> groupDocs = new ConcurrentHashMap<>();
    private volatile long version;
    private volatile Set<String> known = Set.of();

    UiState(Clients clients, Supplier<List<String>> groups, Duration staleAfter) {
        this.clients = clients;
        this.groups = groups;
        this.staleAfter = staleAfter;
        this.sampler = new GroupSampler(clients, staleAfter);
    }

    /** Reads once now (a broken setup fails here), then every {@code interval}. */
    void start(Duration interval) {
        tick();
        loop.scheduleWithFixedDelay(this::safeTick, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    void onUpdate(Runnable listener) {
        listeners.add(listener);
    }

    void removeListener(Runnable listener) {
        listeners.remove(listener);
    }

    long version() {
        return version;
    }

    Map<String, Object> groups() {
        return groupsDoc;
    }

    /** Whether {@code group} is one the last read found (only those can be opened: a page cannot make it read others). */
    boolean known(String group) {
        return group != null && ZkNames.isValid(group) && known.contains(group);
    }

    /**
     * The document of {@code group}; null when it is not a group the last read found. A group opened for the first time
     * is read at once (on the sampling thread).
     */
    Map<String, Object> group(String group) throws Exception {
        if (!known(group)) {
            return null;
        }
        if (opened.add(group) || !groupDocs.containsKey(group)) {
            loop.submit(() -> {
                if (!groupDocs.containsKey(group)) {
                    publishGroup(group, null);
                }
            }).get(30, TimeUnit.SECONDS);
        }
        return groupDocs.get(group);
    }

    private void safeTick() {
        try {
            tick();
        } catch (RuntimeException e) {
            LOG.warn("reading the groups failed: {}; the page keeps the last data", e.getMessage());
        }
    }

    private void tick() {
        List<String> names = groups.get();
        GroupSampler.Sampling sampling = sampler.sample(names);
        sampling.groups().values().forEach(window::add);
        window.retainGroups(Set.copyOf(new TreeSet<>(names)));
        List<Map<String, Object>> rows = new ArrayList<>();
        Map<String, GroupLag> evaluated = new LinkedHashMap<>();
        sampling.groups().values().forEach(g -> evaluated.put(g.group(), window.evaluate(g, Duration.ofMinutes(2))));
        Instant at = sampling.at();
        evaluated.forEach((name, lag) -> {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("group", name);
            row.put("status", lag.status());
            row.put("phase", lag.phase());
            row.put("members", lag.members());
            row.put("totalLag", lag.totalLag());
            row.put("maxLagSeconds", lag.maxLagSeconds());
            rows.add(row);
            record(name, lag, at);
        });
        charts.keySet().retainAll(evaluated.keySet());
        known = Set.copyOf(evaluated.keySet());
        opened.retainAll(known);
        groupDocs.keySet().retainAll(known);
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("at", at.toString());
        doc.put("kafkaProblem", sampling.kafkaProblem());
        doc.put("groups", rows);
        groupsDoc = doc;
        for (String name : opened) {
            publishGroup(name, evaluated.get(name));
        }
        version++;
        listeners.forEach(Runnable::run);
    }

    private void record(String group, GroupLag lag, Instant at) {
        Map<String, Deque<Point>> chart = charts.computeIfAbsent(group, g -> new ConcurrentHashMap<>());
        long cutoff = at.minus(CHART_SPAN).toEpochMilli();
        for (GroupLag.PartitionLag p : lag.partitions()) {
            Deque<Point> points = chart.computeIfAbsent(p.topic() + ":" + p.partition(), k -> new ArrayDeque<>());
            synchronized (points) {
                points.addLast(new Point(at.toEpochMilli(), p.lag(), p.lagSeconds()));
                while (!points.isEmpty() && points.peekFirst().at() < cutoff) {
                    points.removeFirst();
                }
            }
        }
    }

    /** Builds {@code group}'s document (on the sampling thread); {@code lag} null: sample it now. */
    private void publishGroup(String group, GroupLag lag) {
        if (lag == null) {
            GroupSampler.Sampling s = sampler.sample(List.of(group));
            window.add(s.groups().get(group));
            lag = window.evaluate(s.groups().get(group), Duration.ofMinutes(2));
            record(group, lag, s.at());
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("group", group);
        doc.put("at", Instant.now().toString());
        doc.put("status", lag.status());
        doc.put("phase", lag.phase());
        doc.put("phaseEvidence", lag.phaseEvidence());
        doc.put("coordinator", coordinator(lag.phase()));
        doc.put("totalLag", lag.totalLag());
        doc.put("maxLagSeconds", lag.maxLagSeconds());
        List<MemberView> members = new ArrayList<>();
        for (Member m : clients.zk().members(group, null).entries()) {
            members.add(new MemberView(m.id().value(), MemberHost.of(group, m.id().value()).orElse(null)));
        }
        doc.put("members", members);
        doc.put("partitions", lag.partitions());
        Map<String, List<Point>> chart = new LinkedHashMap<>();
        charts.getOrDefault(group, Map.of()).forEach((tp, points) -> {
            synchronized (points) {
                chart.put(tp, List.copyOf(points));
            }
        });
        doc.put("chart", new java.util.TreeMap<>(chart));
        List<HistoryEvent> history = new HistoryService(clients).history(group, Instant.now().minus(Duration.ofDays(7)), staleAfter);
        doc.put("history", history.subList(Math.max(0, history.size() - HISTORY_SHOWN), history.size()));
        groupDocs.put(group, doc);
    }

    /** Which coordinator holds the group's offsets, in words. */
    static String coordinator(String phase) {
        return switch (phase) {
            case "zookeeper-only" -> "ZooKeeper";
            case "dual-commit" -> "ZooKeeper and Kafka (dual commit)";
            case "kafka-only" -> "Kafka";
            default -> "unknown";
        };
    }

    @Override
    public void close() {
        loop.shutdownNow();
    }
}
