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
 * bounce under load"). The bounce window runs from the first SIGTERM to the gate passing after the last restart; the
 * catch-up window from the first SIGTERM until every record acknowledged before that last gate had been delivered.
 *
 * @param steps                 the bounce's steps, as the journal recorded them
 * @param bounceMs              first SIGTERM to the last gate
 * @param catchUpMs             first SIGTERM to the catch-up point (-1: a record acknowledged before the last gate was
 *                              never delivered; the catch-up figure then runs to the end of the history)
 * @param backlogSeconds        backlog-without-delivery partition-seconds in the bounce window
 * @param backlogCatchUpSeconds the same to the catch-up point
 * @param steadyBacklogPerSecond the same per second of the steady state before the first SIGTERM (the figure's noise
 *                              floor; NaN if the run had no such time)
 * @param moves                 ownership moves in the bounce window (every change of owner)
 * @param netMoves              partitions whose owner changed between consecutive gates, summed over the steps
 * @param unownedSeconds        partition-seconds without an owner znode in the bounce window
 * @param verdict               the invariant monitor's verdict over the whole run
 */
public record BounceFigures(List<BounceTimeline.Step> steps, long bounceMs, long catchUpMs, double backlogSeconds,
                            double backlogCatchUpSeconds, double steadyBacklogPerSecond, int moves, int netMoves,
                            double unownedSeconds, Verdict verdict) {

    /** Whether the run measured what it should: every gate passed and the monitor found nothing. */
    public boolean valid() {
        return verdict.passed() && steps.stream().allMatch(BounceTimeline.Step::healthy);
    }

    /** Computes the figures; {@code firstHealthy}: when the group was healthy before the bounce (the first gate's start). */
    static BounceFigures of(History history, BounceTimeline timeline, int partitions, long sliceNanos, long firstHealthy,
                            Verdict verdict) {
        long start = timeline.start();
        long end = timeline.end();
        long caughtUp = caughtUp(history.acks(), history.deliveries(), end);
        long catchUpEnd = Math.min(caughtUp, lastMoment(history)); // a record never delivered: to the history's end
        BacklogSlices slices = new BacklogSlices(history.acks(), history.deliveries());
        OwnerHistory owners = new OwnerHistory(history.owners(), partitions);
        int net = 0;
        long previous = firstHealthy;
        for (BounceTimeline.Step s : timeline.steps()) {
            net += owners.netMoves(previous, s.gated());
            previous = s.gated();
        }
        double steady = Double.NaN;
        if (timeline.delivering() != Long.MIN_VALUE && timeline.delivering() < start) {
            double seconds = (start - timeline.delivering()) / 1e9;
            steady = slices.partitionSeconds(timeline.delivering(), start, sliceNanos) / seconds;
        }
        return new BounceFigures(timeline.steps(), (end - start) / 1_000_000,
                caughtUp == Long.MAX_VALUE ? -1 : (caughtUp - start) / 1_000_000,
                slices.partitionSeconds(start, end, sliceNanos), slices.partitionSeconds(start, catchUpEnd, sliceNanos),
                steady, owners.moves(start, end), net, owners.unownedSeconds(start, end), verdict);
    }

    /**
     * The first moment at or after {@code after} by which every record acknowledged before {@code after} had been
     * delivered (its first delivery); {@code Long.MAX_VALUE} if one never was.
     */
    static long caughtUp(List<Ack> acks, List<Delivery> deliveries, long after) {
        Map<Long, Long> first = new HashMap<>();
        for (Delivery d : deliveries) {
            first.merge(key(d.partition(), d.offset()), d.nanos(), Math::min);
        }
        long caughtUp = after;
        for (Ack a : acks) {
            if (a.nanos() < after) {
                caughtUp = Math.max(caughtUp, first.getOrDefault(key(a.partition(), a.offset()), Long.MAX_VALUE));
            }
        }
        return caughtUp;
    }

    private static long lastMoment(History history) {
        long last = Long.MIN_VALUE;
        for (Ack a : history.acks()) {
            last = Math.max(last, a.nanos());
        }
        for (Delivery d : history.deliveries()) {
            last = Math.max(last, d.nanos());
        }
        return last;
    }

    private static long key(int partition, long offset) {
        return ((long) partition << 40) | offset;
    }
}
