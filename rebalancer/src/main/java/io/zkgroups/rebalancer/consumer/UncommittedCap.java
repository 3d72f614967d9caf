package io.zkgroups.rebalancer.consumer;

/**
 * The most records of one partition a consumer hands out past its last confirmed commit
 * ({@code zkgroups.max.uncommitted.records}): what a kill, a lost session or a revocation released without a commit
 * can hand out again is at most this many records per partition, whatever the backlog. A pure rule over offsets; the
 * {@link PartitionFetcher} applies it to each batch and stops fetching a partition that reached it until a commit
 * moves it on.
 * <p>
 * Example, a cap of 100: committed 500, a batch of 150 records from 560 → 40 go out (560–599), the fetcher withholds
 * 600–709, and the partition waits at the cap until a commit above 500 is confirmed.
 * <p>
 * <b>Threading.</b> Immutable.
 */
final class UncommittedCap {

    private final int records;

    /** {@code records} per partition; 0: no cap. */
    UncommittedCap(int records) {
        if (records < 0) {
            throw new IllegalArgumentException("the cap cannot be negative: " + records);
        }
        this.records = records;
    }

    boolean enabled() {
        return records > 0;
    }

    int records() {
        return records;
    }

    /**
     * Of {@code count} records from {@code firstOffset}, how many may go out when the uncommitted ones begin at
     * {@code from} (null: not known, all of them).
     */
    int allowed(Long from, long firstOffset, int count) {
        if (!enabled() || from == null) {
            return count;
        }
        long room = from + records - firstOffset;
        return (int) Math.max(0, Math.min(count, room));
    }

    /** Whether a partition whose next offset is {@code position} has handed out all it may past {@code from}. */
    boolean reached(Long from, Long position) {
        return enabled() && from != null && position != null && position - from >= records;
    }

    /** Whether it handed out half of that or more: auto-commit commits it then, before it reaches the cap. */
    boolean pastHalf(Long from, Long position) {
        return enabled() && from != null && position != null && position - from >= Math.max(1, records / 2);
    }
}
