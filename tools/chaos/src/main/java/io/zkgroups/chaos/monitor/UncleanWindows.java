package io.zkgroups.chaos.monitor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToLongFunction;

/**
 * The uncommitted window of each tenure that ended uncleanly (KILLED, VANISHED, LOST, REVOKE-TIMEOUT): how many of its
 * records were handed out again, against what the run's configuration allows. A zkgroups member hands out no record
 * of a partition more than {@code zkgroups.max.uncommitted.records} {@code N} past its last confirmed commit, and the
 * next owner starts at that commit or a later one, so for a zkgroups member's tenure:
 * <pre>
 *   bound = N
 * </pre>
 * A 0.8.2.2 consumer has no such cap (nor had zkgroups members of runs recorded without one). A member commits every {@code C};
 * a commit that takes longer than the session timeout {@code S} cannot succeed (the lease behind it has lapsed), and a
 * member whose commits cannot get through hands out for at most its lease, {@code S}; and one poll hands out at most
 * {@code max.poll.records} {@code P} (a take-over's backlog included). So with {@code r} the partition's produce rate:
 * <pre>
 *   bound = ceil(r * (C + S)) + P
 * </pre>
 * Every unclean end whose repeats exceed it is an {@code unclean-window} violation, whatever the member did.
 */
final class UncleanWindows {

    /** One unclean tenure end: its repeats and its bound. */
    record Window(Tenures.Tenure tenure, long repeats, long bound) {
    }

    private static final long[] BUCKETS = {0, 5, 10, 20, 50, 100};

    private UncleanWindows() {
    }

    static List<Window> measure(Tenures tenures, Map<Tenures.Tenure, Long> repeats,
                                ToLongFunction<Tenures.Tenure> bound) {
        List<Window> windows = new ArrayList<>();
        for (Tenures.Tenure t : tenures.all()) {
            if (t.unclean()) {
                windows.add(new Window(t, repeats.getOrDefault(t, 0L), bound.applyAsLong(t)));
            }
        }
        windows.sort(java.util.Comparator.comparingLong((Window w) -> w.tenure().end()));
        return windows;
    }

    /** An {@code unclean-window} violation for every unclean end whose repeats exceed the bound. */
    static void check(List<Window> windows, History history, List<Violation> out) {
        for (Window w : windows) {
            Tenures.Tenure t = w.tenure();
            if (w.repeats() > w.bound()) {
                out.add(new Violation("unclean-window", t.partition(), -1, t.process(), t.end(), w.repeats()
                        + " records handed out again after " + t.process() + "'s tenure ended " + t.endedBy() + " ("
                        + history.faultAt(t.end()) + "), more than the configuration allows: " + w.bound()));
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
