package io.zkgroups.chaos.monitor;

import io.zkgroups.chaos.monitor.History.Delivery;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The uncommitted window of each tenure that ended uncleanly: how many of its records were handed out again, against
 * what the commit interval allows. A member commits every {@code C} and a commit takes {@code L}, so when it dies the
 * records handed out since its last confirmed commit began are at most those that arrived in {@code C + L}, plus the
 * records of one poll (a poll hands out everything that arrived since the one before, a backlog after a take-over
 * included):
 * <pre>
 *   bound = ceil(r * (C + L)) + B
 * </pre>
 * with {@code r} the partition's produce rate, {@code L} the tenure's slowest confirmed commit and {@code B} its
 * largest single poll of that partition. A kill ({@code KILLED}) whose repeats exceed it is a {@code kill-window}
 * violation. Lost sessions and timed-out revocations are measured against the same bound and reported, not judged:
 * their windows also hold what was handed out while a commit could not get through (the lease, up to a session
 * timeout, decides there).
 */
final class UncleanWindows {

    /** One unclean tenure end: its repeats and its bound. */
    record Window(Tenures.Tenure tenure, long repeats, long bound) {
    }

    private static final long[] BUCKETS = {0, 5, 10, 20, 50, 100};

    private UncleanWindows() {
    }

    static List<Window> measure(Tenures tenures, Map<Tenures.Tenure, Long> repeats, DeliveryIndex deliveries,
                                double recordsPerSecondPerPartition, long commitIntervalNanos) {
        List<Window> windows = new ArrayList<>();
        for (Tenures.Tenure t : tenures.all()) {
            if (!t.unclean()) {
                continue;
            }
            long slowestCommit = tenures.slowestCommit(t.process(), t.start(), t.end());
            long steady = (long) Math.ceil(recordsPerSecondPerPartition * (commitIntervalNanos + slowestCommit) / 1e9);
            windows.add(new Window(t, repeats.getOrDefault(t, 0L), steady + largestPoll(deliveries, t)));
        }
        windows.sort(java.util.Comparator.comparingLong((Window w) -> w.tenure().end()));
        return windows;
    }

    /** The most records of the tenure's partition that one poll of its process handed out. */
    private static long largestPoll(DeliveryIndex deliveries, Tenures.Tenure t) {
        Map<Long, Long> perPoll = new HashMap<>();
        for (Delivery d : deliveries.of(t.partition())) {
            if (d.process().equals(t.process()) && t.contains(d.nanos())) {
                perPoll.merge(d.nanos(), 1L, Long::sum);
            }
        }
        return perPoll.values().stream().mapToLong(Long::longValue).max().orElse(0);
    }

    /** A {@code kill-window} violation for every kill whose repeats exceed the bound. */
    static void check(List<Window> windows, History history, List<Violation> out) {
        for (Window w : windows) {
            Tenures.Tenure t = w.tenure();
            if (t.endedBy().equals("KILLED") && w.repeats() > w.bound()) {
                out.add(new Violation("kill-window", t.partition(), -1, t.process(), t.end(), w.repeats()
                        + " records handed out again after " + t.process() + " was killed (" + history.faultAt(t.end())
                        + "), more than the commit interval allows: " + w.bound()));
            }
        }
    }

    /** Per way of ending: how many ends, their repeats, the largest, how many exceed their bound, and a histogram. */
    static List<Verdict.WindowSummary> summarize(List<Window> windows) {
        Map<String, List<Window>> byEnd = new TreeMap<>();
        windows.forEach(w -> byEnd.computeIfAbsent(w.tenure().endedBy(), k -> new ArrayList<>()).add(w));
        List<Verdict.WindowSummary> result = new ArrayList<>();
        byEnd.forEach((endedBy, list) -> {
            Map<String, Integer> histogram = new LinkedHashMap<>();
            for (int i = 0; i <= BUCKETS.length; i++) {
                histogram.put(bucket(i), 0);
            }
            long total = 0;
            long max = 0;
            long maxBound = 0;
            int over = 0;
            for (Window w : list) {
                total += w.repeats();
                max = Math.max(max, w.repeats());
                maxBound = Math.max(maxBound, w.bound());
                over += w.repeats() > w.bound() ? 1 : 0;
                histogram.merge(bucket(bucketOf(w.repeats())), 1, Integer::sum);
            }
            histogram.values().removeIf(n -> n == 0);
            result.add(new Verdict.WindowSummary(endedBy, list.size(), total, max, maxBound, over, histogram));
        });
        return result;
    }

    private static int bucketOf(long repeats) {
        for (int i = 0; i < BUCKETS.length; i++) {
            if (repeats <= BUCKETS[i]) {
                return i;
            }
        }
        return BUCKETS.length;
    }

    private static String bucket(int i) {
        if (i == 0) {
            return "0";
        }
        if (i == BUCKETS.length) {
            return ">" + BUCKETS[BUCKETS.length - 1];
        }
        return (BUCKETS[i - 1] + 1) + "-" + BUCKETS[i];
    }
}
