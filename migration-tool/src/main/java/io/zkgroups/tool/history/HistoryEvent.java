package io.zkgroups.tool.history;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;

/**
 * One thing that happened to a group. Null fields do not apply to the event's type.
 *
 * @param at          when (ISO-8601, ZooKeeper's clock where the event comes from a znode's stat)
 * @param type        what ({@link Type#label()})
 * @param member      the consumer id (joins, leaves) or thread id (ownership) concerned
 * @param host        the member's host, when its id tells it
 * @param topic       the partition concerned, with {@code partition}
 * @param from        previous owner thread, for ownership moves
 * @param before      the offset before, for offset changes
 * @param after       the offset after
 * @param durationMs  for a rebalance's end: how long it took
 * @param detail      in words: the cause of a rebalance, the command that wrote offsets, ...
 * @param attribution who made an offset change: {@code user@host}, a member, or {@code unattributed}
 * @param source      {@code watcher} (recorded as it happened), {@code audit} (written by the tool that made the
 *                    change) or {@code znode-stats} (rebuilt from the znodes' ctime and mtime)
 * @param changes     for audited writes: per partition and store, before and after
 */
public record HistoryEvent(String at, String type, String member, String host, String topic, Integer partition, String from,
                           Long before, Long after, Long durationMs, String detail, String attribution, String source,
                           List<io.zkgroups.tool.audit.AuditEntry.Change> changes) {

    /**
     * Oldest first, by the instant: as text, {@code at} would misorder a whole second, which ISO-8601 writes without
     * its fraction ({@code …:18Z} sorts after {@code …:18.005Z}). Events of one instant keep their order.
     */
    public static final Comparator<HistoryEvent> CHRONOLOGICAL = Comparator.comparing(e -> Instant.parse(e.at()));

    public HistoryEvent {
        changes = changes == null ? List.of() : List.copyOf(changes);
    }

    /** The kinds of event. */
    public enum Type {
        MEMBER_JOINED, MEMBER_LEFT, REBALANCE_STARTED, REBALANCE_ENDED, OWNERSHIP_MOVED, PARTITION_CLAIMED,
        COMMIT_STALLED, OFFSET_REWOUND, OFFSETS_WRITTEN, COORDINATOR_CHANGED, LAST_COMMIT;

        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        }
    }

    static HistoryEvent of(String at, Type type, String source) {
        return new HistoryEvent(at, type.label(), null, null, null, null, null, null, null, null, null, null, source, null);
    }

    HistoryEvent member(String id, String hostName) {
        return new HistoryEvent(at, type, id, hostName, topic, partition, from, before, after, durationMs, detail,
                attribution, source, changes);
    }

    HistoryEvent partition(String t, int p) {
        return new HistoryEvent(at, type, member, host, t, p, from, before, after, durationMs, detail, attribution, source,
                changes);
    }

    HistoryEvent moved(String previous) {
        return new HistoryEvent(at, type, member, host, topic, partition, previous, before, after, durationMs, detail,
                attribution, source, changes);
    }

    HistoryEvent offsets(Long b, Long a) {
        return new HistoryEvent(at, type, member, host, topic, partition, from, b, a, durationMs, detail, attribution,
                source, changes);
    }

    HistoryEvent duration(long ms) {
        return new HistoryEvent(at, type, member, host, topic, partition, from, before, after, ms, detail, attribution,
                source, changes);
    }

    HistoryEvent detail(String d) {
        return new HistoryEvent(at, type, member, host, topic, partition, from, before, after, durationMs, d, attribution,
                source, changes);
    }

    HistoryEvent attribution(String a) {
        return new HistoryEvent(at, type, member, host, topic, partition, from, before, after, durationMs, detail, a,
                source, changes);
    }

    HistoryEvent changes(List<io.zkgroups.tool.audit.AuditEntry.Change> c) {
        return new HistoryEvent(at, type, member, host, topic, partition, from, before, after, durationMs, detail,
                attribution, source, c);
    }
}
