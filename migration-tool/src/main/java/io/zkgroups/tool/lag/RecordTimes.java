package io.zkgroups.tool.lag;

import io.zkgroups.registry.model.TopicAndPartition;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * When the record at a group's committed offset (the next one it will consume) was written, for lag in seconds:
 * <ol>
 *   <li>its timestamp, read with one small fetch per partition per sample ({@code fetch}), and kept while some group
 *       still reads at that offset (a timestamp never changes, so an unmoved offset costs no fetch);</li>
 *   <li>otherwise interpolated from a {@link LogEndHistory} of the log end offsets this tool has sampled;</li>
 *   <li>otherwise, for a record older than that table, the table's oldest sample as a lower bound.</li>
 * </ol>
 * When several groups read one partition at different offsets, one offset is fetched per sample and the others are
 * estimated until a later sample fetches them. Not thread-safe.
 */
public final class RecordTimes {

    /** How a {@link Written} time was found. */
    public enum Source {
        /** The record's own timestamp (CreateTime or LogAppendTime). */
        TIMESTAMP("timestamp"),
        /** Interpolated between two log end samples. */
        INTERPOLATED("interpolated"),
        /** Older than every log end sample: the record was written before this time, the lag is at least this. */
        AT_LEAST("at-least");

        private final String label;

        Source(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /** When a record was written, and how that is known. */
    public record Written(Instant at, Source source) {
    }

    /** A partition read at an offset, with its log bounds. */
    public record Want(TopicAndPartition partition, long offset, long logStart, long logEnd) {
    }

    private final Function<Map<TopicAndPartition, Long>, Map<TopicAndPartition, Long>> fetch;
    private final LogEndHistory history;
    private Map<TopicAndPartition, Map<Long, Long>> timestamps = new HashMap<>();

    /**
     * @param fetch     reads the timestamps (ms) of the records at one offset per partition; absent when unknown
     * @param history   the log end samples to interpolate from
     */
    public RecordTimes(Function<Map<TopicAndPartition, Long>, Map<TopicAndPartition, Long>> fetch, LogEndHistory history) {
        this.fetch = Objects.requireNonNull(fetch, "fetch");
        this.history = Objects.requireNonNull(history, "history");
    }

    /** Records the log ends of one sample taken at {@code at}. */
    public void logEnds(Map<TopicAndPartition, Long> logEnds, Instant at) {
        logEnds.forEach((tp, end) -> history.add(tp, end, at));
        history.retain(logEnds.keySet());
    }

    /**
     * When the records at {@code wanted} were written; absent for offsets at or beyond the log end (nothing to consume)
     * and where nothing is known. Fetches at most one offset per partition.
     */
    public Map<Want, Written> of(Set<Want> wanted) {
        Map<TopicAndPartition, Map<Long, Long>> kept = new HashMap<>();
        Map<TopicAndPartition, Long> toFetch = new TreeMap<>();
        for (Want w : wanted) {
            if (w.offset() >= w.logEnd()) {
                continue;
            }
            long readable = Math.max(w.offset(), w.logStart()); // deleted records: the oldest left is a lower bound
            Long known = timestamps.getOrDefault(w.partition(), Map.of()).get(readable);
            if (known != null) {
                kept.computeIfAbsent(w.partition(), k -> new HashMap<>()).put(readable, known);
            } else {
                toFetch.putIfAbsent(w.partition(), readable);
            }
        }
        fetch.apply(toFetch).forEach((tp, ts) ->
                kept.computeIfAbsent(tp, k -> new HashMap<>()).put(toFetch.get(tp), ts));
        timestamps = kept;

        Map<Want, Written> result = new HashMap<>();
        for (Want w : wanted) {
            if (w.offset() >= w.logEnd()) {
                continue;
            }
            long readable = Math.max(w.offset(), w.logStart());
            Long ts = kept.getOrDefault(w.partition(), Map.of()).get(readable);
            if (ts != null) {
                result.put(w, new Written(Instant.ofEpochMilli(ts), readable == w.offset() ? Source.TIMESTAMP : Source.AT_LEAST));
                continue;
            }
            LogEndHistory.Estimate estimate = history.writtenAt(w.partition(), w.offset());
            if (estimate != null) {
                result.put(w, new Written(estimate.writtenAt(), estimate.lowerBound() ? Source.AT_LEAST : Source.INTERPOLATED));
            }
        }
        return result;
    }
}
