package io.zkgroups.chaos.monitor;

import io.zkgroups.chaos.monitor.History.MemberEvent;
import io.zkgroups.chaos.monitor.History.ProcessEnd;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The tenures of every process over every partition, by its own account: from {@code ASSIGNED} to the
 * {@code REVOKED} or {@code LOST} of that partition, or to the end of the process. Each tenure knows how it ended
 * and the last offset the process had confirmed committing for the partition by the time its next tenure of it
 * began (the commit of a revocation comes just after {@code REVOKED}).
 */
final class Tenures {

    /**
     * How a tenure ended: {@code REVOKED}, {@code CLOSED} (clean), {@code LOST}, {@code REVOKE-TIMEOUT} (released
     * without a commit because the application did not finish revoking in time), {@code KILLED}, {@code VANISHED},
     * {@code RUNNING}.
     */
    record Tenure(String process, int partition, long start, long end, String endedBy, long committedAtEnd) {

        boolean contains(long nanos) {
            return nanos >= start && nanos <= end;
        }

        /** Ended without a clean let-go: what is not committed may be handed out again. */
        boolean unclean() {
            return endedBy.equals("LOST") || endedBy.equals("REVOKE-TIMEOUT") || endedBy.equals("KILLED")
                    || endedBy.equals("VANISHED");
        }
    }

    private final Map<String, Map<Integer, List<Tenure>>> byProcess = new HashMap<>();
    /** Per process and partition: the commits it saw succeed, as {nanos of COMMITTED, offset}, in order. */
    private final Map<String, Map<Integer, List<long[]>>> confirmedCommits = new HashMap<>();

    Tenures(Map<String, List<MemberEvent>> events, Map<String, ProcessEnd> ends) {
        events.forEach((process, list) -> {
            Map<Integer, List<long[]>> confirmed = new HashMap<>();
            confirmedCommits.put(process, confirmed);
            byProcess.put(process, build(process, list, ends.get(process), confirmed));
        });
    }

    private static Map<Integer, List<Tenure>> build(String process, List<MemberEvent> events, ProcessEnd end,
                                                    Map<Integer, List<long[]>> confirmed) {
        Map<Integer, Long> open = new HashMap<>();
        Map<Integer, List<long[]>> closed = new HashMap<>(); // start, end
        Map<Integer, List<String>> endedBy = new HashMap<>();
        Map<Integer, Long> pendingCommit = null;
        long last = Long.MIN_VALUE;
        for (MemberEvent e : events) {
            last = Math.max(last, e.nanos());
            switch (e.kind()) {
                case "ASSIGNED" -> e.partitions().forEach(p -> open.putIfAbsent(p, e.nanos()));
                case "REVOKED", "LOST", "REVOKE-TIMEOUT" -> e.partitions().forEach(p -> {
                    Long start = open.remove(p);
                    if (start != null) {
                        closed.computeIfAbsent(p, k -> new ArrayList<>()).add(new long[]{start, e.nanos()});
                        endedBy.computeIfAbsent(p, k -> new ArrayList<>()).add(e.kind());
                    } else if (e.kind().equals("REVOKE-TIMEOUT") && endedBy.containsKey(p)) {
                        // after the REVOKED of a revocation that outlasted the timeout: it ended without a commit
                        List<String> ends = endedBy.get(p);
                        if (ends.get(ends.size() - 1).equals("REVOKED")) {
                            ends.set(ends.size() - 1, "REVOKE-TIMEOUT");
                        }
                    }
                });
                case "COMMIT" -> pendingCommit = e.offsets();
                case "COMMITTED" -> {
                    if (pendingCommit != null) {
                        pendingCommit.forEach((p, o) -> confirmed.computeIfAbsent(p, k -> new ArrayList<>())
                                .add(new long[]{e.nanos(), o}));
                    }
                    pendingCommit = null;
                }
                case "COMMIT-FAILED" -> pendingCommit = null;
                default -> {
                    // START, CLOSED, ERROR, SLOW-*: no tenure change
                }
            }
        }
        long endNanos = end != null ? end.nanos() : Long.MAX_VALUE;
        String endKind = end != null ? end.how() : "RUNNING";
        for (Map.Entry<Integer, Long> o : open.entrySet()) {
            closed.computeIfAbsent(o.getKey(), k -> new ArrayList<>()).add(new long[]{o.getValue(), Math.max(endNanos, last)});
            endedBy.computeIfAbsent(o.getKey(), k -> new ArrayList<>()).add(endKind);
        }
        Map<Integer, List<Tenure>> result = new HashMap<>();
        closed.forEach((p, spans) -> {
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < spans.size(); i++) {
                order.add(i);
            }
            order.sort((a, b) -> Long.compare(spans.get(a)[0], spans.get(b)[0]));
            List<Tenure> tenures = new ArrayList<>();
            for (int k = 0; k < order.size(); k++) {
                long[] span = spans.get(order.get(k));
                long nextStart = k + 1 < order.size() ? spans.get(order.get(k + 1))[0] : Long.MAX_VALUE;
                long committed = -1;
                for (long[] c : confirmed.getOrDefault(p, List.of())) {
                    if (c[0] >= span[0] && c[0] < nextStart) {
                        committed = c[1];
                    }
                }
                tenures.add(new Tenure(process, p, span[0], span[1], endedBy.get(p).get(order.get(k)), committed));
            }
            result.put(p, tenures);
        });
        return result;
    }

    /** Every tenure of every process. */
    List<Tenure> all() {
        List<Tenure> all = new ArrayList<>();
        byProcess.values().forEach(partitions -> partitions.values().forEach(all::addAll));
        return all;
    }

    /** The tenure of {@code process} over {@code partition} that contains {@code nanos}. */
    Optional<Tenure> at(String process, int partition, long nanos) {
        for (Tenure t : byProcess.getOrDefault(process, Map.of()).getOrDefault(partition, List.of())) {
            if (t.contains(nanos)) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }

    /** The last offset {@code process} saw committed for {@code partition} at a time in {@code [from, until]}; -1 if none. */
    long confirmedCommit(String process, int partition, long from, long until) {
        long offset = -1;
        for (long[] c : confirmedCommits.getOrDefault(process, Map.of()).getOrDefault(partition, List.of())) {
            if (c[0] >= from && c[0] <= until) {
                offset = c[1];
            }
        }
        return offset;
    }

    /** The processes whose tenure of {@code partition} contains {@code nanos}, by their own accounts. */
    List<String> holders(int partition, long nanos) {
        List<String> holders = new ArrayList<>();
        byProcess.forEach((process, partitions) -> {
            for (Tenure t : partitions.getOrDefault(partition, List.of())) {
                if (t.contains(nanos)) {
                    holders.add(process);
                    break;
                }
            }
        });
        holders.sort(null);
        return holders;
    }
}
