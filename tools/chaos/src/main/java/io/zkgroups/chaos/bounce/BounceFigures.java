package io.zkgroups.chaos.bounce;

import io.zkgroups.chaos.monitor.History;
import io.zkgroups.chaos.monitor.History.Ack;
import io.zkgroups.chaos.monitor.History.Delivery;
import io.zkgroups.chaos.monitor.Verdict;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The figures of one rolling bounce, the same definitions for every implementation (docs/benchmarks.md, "Rolling
 * bounce under load"). The bounce window runs from the bounce's first action (the first SIGTERM, or the launch of the
 * first successor started ahead of it) until the last step is done (its gate passed, its old process gone); the
 * catch-up window from that start until every record acknowledged before that last gate had been delivered
 * (records never delivered are the monitor's {@code lost}).
 *
 * @param steps                 the bounce's steps, as the journal recorded them
 * @param bounceMs              the bounce window's length
 * @param catchUpMs             the bounce window's start to the catch-up point
 * @param backlog               backlog-without-delivery partition-seconds, for each slice width analysed
 * @param moves                 ownership moves in the bounce window (every change of owner)
 * @param netMoves              partitions whose owner changed between consecutive gates, summed over the steps
 * @param unownedSeconds        partition-seconds without an owner znode in the bounce window
 * @param verdict               the invariant monitor's verdict over the whole run
 */
public record BounceFigures(List<BounceTimeline.Step> steps, long bounceMs, long catchUpMs, List<Backlog> backlog,
                            int moves, int netMoves, double unownedSeconds, Verdict verdict) {

    /**
     * Backlog-without-delivery partition-seconds with slices of {@code sliceMs}: in the bounce window, to the catch-up
     * point, and per second of the steady state before the first SIGTERM (the figure's noise floor: a member that
     * keeps up but is descheduled for longer than a slice counts too; NaN if the run had no steady state).
     */
    public record Backlog(long sliceMs, double bounceWindow, double toCatchUp, double steadyPerSecond) {
    }

    /** Whether the run measured what it should: every gate passed and the monitor found nothing. */
    public boolean valid() {
        return verdict.passed() && steps.stream().allMatch(BounceTimeline.Step::healthy);
    }

    /**
     * Computes the figures, the backlog for each of {@code slicesMs}; {@code firstHealthy}: when the group was healthy
     * before the bounce (the first gate's start).
     */
    static BounceFigures of(History history, BounceTimeline timeline, int partitions, List<Long> slicesMs,
                            long firstHealthy, Verdict verdict) {
        long start = timeline.start();
        long end = timeline.end();
        long caughtUp = caughtUp(history.acks(), history.deliveries(), end);
        BacklogSlices slices = new BacklogSlices(history.acks(), history.deliveries());
        OwnerHistory owners = new OwnerHistory(history.owners(), partitions);
        int net = 0;
        long previous = firstHealthy;
        for (BounceTimeline.Step s : timeline.steps()) {
            net += owners.netMoves(previous, s.gated());
            previous = s.gated();
        }
        List<Backlog> backlog = new java.util.ArrayList<>();
        for (long sliceMs : slicesMs) {
            long slice = sliceMs * 1_000_000;
            double steady = Double.NaN;
            if (timeline.delivering() != Long.MIN_VALUE && timeline.delivering() < start) {
                double seconds = (start - timeline.delivering()) / 1e9;
                steady = slices.partitionSeconds(timeline.delivering(), start, slice) / seconds;
            }
            backlog.add(new Backlog(sliceMs, slices.partitionSeconds(start, end, slice),
                    slices.partitionSeconds(start, caughtUp, slice), steady));
        }
        return new BounceFigures(timeline.steps(), (end - start) / 1_000_000, (caughtUp - start) / 1_000_000,
                List.copyOf(backlog), owners.moves(start, end), net, owners.unownedSeconds(start, end), verdict);
    }

    /**
     * The first moment at or after {@code after} by which every record acknowledged before {@code after} had been
     * delivered (its first delivery). A record never delivered is the monitor's {@code lost}, not a late one: it does
     * not count here.
     */
    static long caughtUp(List<Ack> acks, List<Delivery> deliveries, long after) {
        Map<Long, Long> first = new HashMap<>();
        for (Delivery d : deliveries) {
            first.merge(key(d.partition(), d.offset()), d.nanos(), Math::min);
        }
        long caughtUp = after;
        for (Ack a : acks) {
            Long delivered = first.get(key(a.partition(), a.offset()));
            if (a.nanos() < after && delivered != null) {
                caughtUp = Math.max(caughtUp, delivered);
            }
        }
        return caughtUp;
    }

    private static long key(int partition, long offset) {
        return ((long) partition << 40) | offset;
    }
}
