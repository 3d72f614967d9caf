package io.zkgroups.tool.health;

import io.zkgroups.registry.model.TopicAndPartition;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code health --max-stall D}: a partition with backlog whose committed offset has not advanced for {@code D}. The time
 * an offset last changed is its ZooKeeper znode's mtime when the group reads ZooKeeper's offset (0.8.2.2 and zkgroups
 * rewrite a ZooKeeper offset only when it changes, so the mtime is the last advance); for an offset read from Kafka,
 * whose commit time the Admin API does not tell, it is the first time this check saw the current value — so such
 * partitions can only be judged once they have been watched for {@code D}. Keeps that memory between evaluations; the
 * judgement itself is pure.
 */
public final class StallCheck {

    /**
     * One partition: the offset the group reads, the log end, and the offset's last change when the store tells it
     * (a ZooKeeper mtime; null for Kafka).
     */
    public record Progress(long offset, long logEnd, Instant changedAt) {
    }

    /** The check's verdict: the stalled partitions in words, and when a partition not judged yet can be. */
    public record Result(List<String> stalled, Optional<Instant> judgeableAt) {
    }

    private record Seen(long offset, Instant since) {
    }

    private final Duration maxStall;
    private final Map<TopicAndPartition, Seen> seen = new HashMap<>();
    private Instant firstEvaluation;

    public StallCheck(Duration maxStall) {
        this.maxStall = Objects.requireNonNull(maxStall, "maxStall");
    }

    /**
     * Judges {@code partitions} as of {@code now} (ZooKeeper's time). A partition whose offset is read from Kafka and
     * has not changed since the first evaluation is judgeable {@code D} after it; one that changed meanwhile has
     * advanced, and is not waited for.
     */
    public Result evaluate(Map<TopicAndPartition, Progress> partitions, Instant now) {
        if (firstEvaluation == null) {
            firstEvaluation = now;
        }
        List<String> stalled = new ArrayList<>();
        Instant judgeable = null;
        seen.keySet().retainAll(partitions.keySet());
        for (Map.Entry<TopicAndPartition, Progress> e : partitions.entrySet()) {
            TopicAndPartition tp = e.getKey();
            Progress p = e.getValue();
            Seen before = seen.get(tp);
            if (before == null || before.offset() != p.offset()) {
                before = new Seen(p.offset(), now);
                seen.put(tp, before);
            }
            long backlog = p.logEnd() - p.offset();
            if (backlog <= 0) {
                continue;
            }
            boolean observed = p.changedAt() == null;
            Instant since = observed ? before.since() : p.changedAt();
            Duration unchanged = Duration.between(since, now);
            if (unchanged.compareTo(maxStall) >= 0) {
                stalled.add(tp.topic() + ":" + tp.partition() + " at offset " + p.offset() + " with " + backlog
                        + " records behind, unchanged for " + unchanged.toSeconds() + " s"
                        + (observed ? " (as watched)" : " (ZooKeeper mtime)"));
            } else if (observed && before.since().equals(firstEvaluation)) {
                Instant at = since.plus(maxStall);
                judgeable = judgeable == null || at.isBefore(judgeable) ? at : judgeable;
            }
        }
        return new Result(stalled, Optional.ofNullable(judgeable));
    }
}
