package io.zkgroups.chaos.monitor;

import io.zkgroups.chaos.monitor.History.Delivery;
import io.zkgroups.chaos.monitor.History.MemberEvent;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks zkgroups' promises over a recorded {@link History}, with no I/O of its own:
 * <ol>
 *   <li>{@code lost}: every acknowledged record is handed out;</li>
 *   <li>{@code duplicate}: a record is handed out again only within the uncommitted window of a tenure that ended
 *       uncleanly (kill, vanished process, lost session, timed-out revocation);</li>
 *   <li>{@code unclean-window}: such a window holds no more than the run's configuration allows
 *       ({@link UncleanWindows});</li>
 *   <li>{@code exclusivity}: no partition is handed out by two processes at overlapping times;</li>
 *   <li>{@code ownership}: a process hands out only partitions it owns, by its own listener and by ZooKeeper;</li>
 *   <li>{@code offset-backwards}: no committed offset moves backwards, in ZooKeeper or in {@code __consumer_offsets};</li>
 *   <li>{@code stall}: no partition has a backlog and no hand-out for longer than the bound,
 *       {@code unhealthy}: the group became healthy after every fault, and {@code not-resumed}: it then committed
 *       past what had been acknowledged within the run's wait;</li>
 *   <li>{@code unchecked}: every check could run (no missing log, no malformed line but a torn last one).</li>
 * </ol>
 */
public final class InvariantMonitor {

    public static final List<String> INVARIANTS = List.of("lost", "duplicate", "unclean-window", "exclusivity",
            "ownership", "offset-backwards", "stall", "unhealthy", "not-resumed", "unchecked");

    /**
     * Bounds of the checks: the longest stall allowed, the clock tolerance of ZooKeeper owner times, and what an
     * unclean end's uncommitted window may hold, from the run's configuration: for zkgroups members their
     * {@code zkgroups.max.uncommitted.records} ({@code uncommittedCap}); for 0.8.2.2 consumers (which have no such
     * cap), and for zkgroups members of runs made without it (0), the members' commit interval, the produce rate per
     * partition (records/s), the session timeout (the lease) and {@code max.poll.records}.
     */
    public record Bounds(Duration stall, Duration ownershipTolerance, Duration commitInterval,
                         double recordsPerSecondPerPartition, Duration sessionTimeout, long maxPollRecords,
                         long uncommittedCap) {

        /** For histories whose uncommitted windows are not judged (tests of other invariants). */
        public Bounds(Duration stall, Duration ownershipTolerance) {
            this(stall, ownershipTolerance, Duration.ZERO, 0, Duration.ZERO, Long.MAX_VALUE / 2, 0);
        }

        /** The most records one unclean end of {@code process}'s tenure may hand out again: {@link UncleanWindows}. */
        public long uncleanWindow(String process, Set<String> legacyProcesses) {
            return uncommittedCap > 0 && !legacyProcesses.contains(process) ? uncommittedCap : rateWindow();
        }

        /** The bound without a cap: what a member commits every interval and hands out in a lease and a poll. */
        public long rateWindow() {
            return (long) Math.ceil(recordsPerSecondPerPartition
                    * (commitInterval.toNanos() + sessionTimeout.toNanos()) / 1e9) + maxPollRecords;
        }
    }

    private InvariantMonitor() {
    }

    public static Verdict check(History history, Bounds bounds) {
        List<Violation> violations = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        DeliveryIndex deliveries = new DeliveryIndex(history.deliveries());
        Tenures tenures = new Tenures(history.events(), history.processEnds());

        LostRecords.check(history.acks(), deliveries, violations);
        Duplicates.Counts duplicates = Duplicates.check(deliveries, tenures, violations);
        List<UncleanWindows.Window> windows = UncleanWindows.measure(tenures, duplicates.explainedByTenure(),
                t -> bounds.uncleanWindow(t.process(), history.legacyProcesses()));
        UncleanWindows.check(windows, history, violations);
        Exclusivity.check(deliveries, tenures, violations);
        Ownership.check(deliveries, tenures, history.owners(), history.zkHistoryKnown(), history.legacyProcesses(),
                history::consumerId, bounds.ownershipTolerance().toNanos(), violations);
        if (history.zkHistoryKnown()) {
            OffsetMonotonicity.Restored restored = OffsetMonotonicity.check(history.offsets(), history.owners(), violations);
            notes.add("from ZooKeeper's transaction logs: " + history.owners().size() + " owner changes, "
                    + history.offsets().size() + " offset writes");
            if (restored.count() > 0) {
                notes.add(restored.count() + " offsets written backwards and put back by their owner before the owner "
                        + "znode changed (the rewind guard), the longest standing " + restored.longestNanos() / 1_000_000 + " ms");
            }
        }
        if (history.kafkaCommits() != null) {
            OffsetMonotonicity.checkKafka(history.kafkaCommits(), history.events(), violations);
            notes.add("from __consumer_offsets: " + history.kafkaCommits().size() + " offset commits of the topic");
        } else {
            notes.add("__consumer_offsets: the run did not copy it (a rolling bounce keeps offsets in ZooKeeper)");
        }
        List<Violation> stalls = new ArrayList<>();
        Map<Integer, Long> longest = Stalls.check(history.acks(), deliveries, end(history), bounds.stall().toNanos(),
                excused(history), history::faultAt, stalls);
        stalls.forEach(s -> violations.add(blameHolder(s, tenures, bounds.stall().toNanos())));
        history.unhealthy().forEach((fault, ms) -> violations.add(new Violation("unhealthy", -1, -1, "-", -1,
                "the group was not healthy " + ms + " ms after fault #" + fault)));
        history.notResumed().forEach((fault, ms) -> violations.add(new Violation("not-resumed", -1, -1, "-", -1,
                "the group was healthy after fault #" + fault + " but had not committed past what was acknowledged "
                        + ms + " ms later")));
        history.unchecked().forEach(why -> violations.add(new Violation("unchecked", -1, -1, "-", -1, why)));

        Map<String, Integer> counts = new LinkedHashMap<>();
        INVARIANTS.forEach(i -> counts.put(i, 0));
        violations.forEach(v -> counts.merge(v.invariant(), 1, Integer::sum));
        Set<String> distinct = new HashSet<>();
        history.deliveries().forEach(d -> distinct.add(d.partition() + "@" + d.offset()));
        return new Verdict(history.acks().size(), history.deliveries().size(), distinct.size(), duplicates.explained(),
                longest, counts, List.copyOf(violations), UncleanWindows.summarize(windows), List.copyOf(notes));
    }

    /**
     * A stall is the fault of the one process that held the partition when it outlasted the bound (by its own
     * account), if one did; else of no process (e.g. nobody owned it).
     */
    private static Violation blameHolder(Violation stall, Tenures tenures, long boundNanos) {
        List<String> holders = tenures.holders(stall.partition(), stall.nanos() + boundNanos);
        if (holders.size() != 1) {
            return stall;
        }
        return new Violation(stall.invariant(), stall.partition(), stall.offset(), holders.get(0), stall.nanos(),
                stall.message() + "; " + holders.get(0) + " held the partition");
    }

    /**
     * Time no stall counts in: until the group first formed (the members start one after another while the producer
     * already runs), and the broker's restarts.
     */
    private static List<History.Span> excused(History history) {
        List<History.Span> spans = new ArrayList<>(history.brokerDown());
        if (history.groupFormed() != Long.MIN_VALUE) {
            spans.add(new History.Span(Long.MIN_VALUE / 2, history.groupFormed()));
        }
        return spans;
    }

    /** The last moment the history knows of. */
    private static long end(History history) {
        long end = Long.MIN_VALUE;
        for (Delivery d : history.deliveries()) {
            end = Math.max(end, d.nanos());
        }
        for (History.Ack a : history.acks()) {
            end = Math.max(end, a.nanos());
        }
        for (List<MemberEvent> events : history.events().values()) {
            if (!events.isEmpty()) {
                end = Math.max(end, events.get(events.size() - 1).nanos());
            }
        }
        return end;
    }
}
