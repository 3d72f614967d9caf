package io.zkgroups.tool.lag;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Judges a partition's consumption over a window of samples, after Burrow's consumer lag evaluation rules, with no lag
 * threshold. Pure. The rules, in order:
 * <ol>
 *   <li>{@code ERR}: the committed offset is behind the log start — records were deleted unread;</li>
 *   <li>{@code OK}: the lag was zero in some sample of the window;</li>
 *   <li>{@code REWIND}: the committed offset moved backwards between two samples;</li>
 *   <li>the offset did not move across the window: if it was committed longer than {@code idleAfter} ago (a ZooKeeper
 *       offset's mtime; for Kafka offsets, whose commit time the Admin API does not tell, the first sample that saw
 *       it), {@code STALL} when a live member owns the partition (it holds it without progress) and {@code STOP} when
 *       none does (nobody consumes); otherwise {@code OK} (not idle long enough to tell);</li>
 *   <li>the offset moved: {@code WARN} when the lag, taken at each sample where the offset changed (Burrow evaluates
 *       at commits), never decreased and ended higher than it started; {@code OK} otherwise.</li>
 * </ol>
 * Where Burrow tells a stalled consumer (one re-committing the same offset) from a stopped one (no commits), ZooKeeper
 * cannot: 0.8.2.2 and zkgroups skip unchanged offsets. The owner znode can, so zkgroups judges by it.
 */
public final class LagEvaluator {

    /** A partition's status over a window, its current lag, and why, in words. */
    public record Verdict(LagStatus status, long lag, String reason) {
    }

    private LagEvaluator() {
    }

    /**
     * @param window    samples of one partition, oldest first; the newest must have an offset
     * @param idleAfter how long an offset with backlog may stay unchanged before it counts as stopped or stalled
     */
    public static Verdict evaluate(List<PartitionSample> window, Duration idleAfter) {
        List<PartitionSample> samples = window.stream().filter(s -> s.offset() != null).toList();
        if (samples.isEmpty() || window.get(window.size() - 1).offset() == null) {
            throw new IllegalArgumentException("the newest sample has no committed offset: nothing to evaluate");
        }
        PartitionSample first = samples.get(0);
        PartitionSample last = samples.get(samples.size() - 1);
        long lag = last.lag();
        if (last.offset() < last.logStart()) {
            return new Verdict(LagStatus.ERR, lag, "offset " + last.offset() + " is behind the log start " + last.logStart()
                    + ": " + (last.logStart() - last.offset()) + " records were deleted before they were consumed");
        }
        if (samples.stream().anyMatch(s -> s.lag() == 0)) {
            return new Verdict(LagStatus.OK, lag, lag == 0 ? "caught up" : "caught up within the window");
        }
        for (int i = 1; i < samples.size(); i++) {
            if (samples.get(i).offset() < samples.get(i - 1).offset()) {
                return new Verdict(LagStatus.REWIND, lag, "offset moved back from " + samples.get(i - 1).offset() + " to "
                        + samples.get(i).offset());
            }
        }
        if (last.offset().equals(first.offset())) {
            Instant committed = last.committedAt() != null ? last.committedAt() : first.at();
            Duration idle = Duration.between(committed, last.at());
            if (idle.compareTo(idleAfter) > 0) {
                String why = "offset " + last.offset() + " unchanged for " + seconds(idle) + " with " + lag + " records behind";
                return last.owned() ? new Verdict(LagStatus.STALL, lag, why + ", owned by a live member")
                        : new Verdict(LagStatus.STOP, lag, why + ", owned by no live member");
            }
            return new Verdict(LagStatus.OK, lag, "offset unchanged for " + seconds(idle) + " (idle after " + seconds(idleAfter) + ")");
        }
        List<Long> lagAtCommits = new ArrayList<>();
        lagAtCommits.add(first.lag());
        for (int i = 1; i < samples.size(); i++) {
            if (!samples.get(i).offset().equals(samples.get(i - 1).offset())) {
                lagAtCommits.add(samples.get(i).lag());
            }
        }
        boolean neverDecreased = true;
        for (int i = 1; i < lagAtCommits.size(); i++) {
            neverDecreased &= lagAtCommits.get(i) >= lagAtCommits.get(i - 1);
        }
        if (neverDecreased && lagAtCommits.get(lagAtCommits.size() - 1) > lagAtCommits.get(0)) {
            return new Verdict(LagStatus.WARN, lag, "lag grew from " + lagAtCommits.get(0) + " to " + lag
                    + " while the offset moved from " + first.offset() + " to " + last.offset());
        }
        return new Verdict(LagStatus.OK, lag, "offset moving (" + first.offset() + " to " + last.offset() + ")");
    }

    private static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : String.format(java.util.Locale.ROOT, "%.1f s", d.toMillis() / 1000.0);
    }
}
