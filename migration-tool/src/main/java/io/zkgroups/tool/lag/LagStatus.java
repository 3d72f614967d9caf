package io.zkgroups.tool.lag;

import java.util.Collection;

/**
 * How a partition's consumption looks over a window of samples ({@link LagEvaluator}), from best to worst. The order is
 * the exporter's status code ({@code zkgroups_partition_status}: 0 OK ... 5 ERR): never reorder.
 */
public enum LagStatus {
    /** Caught up at some point in the window, or moving at least as fast as the log grows. */
    OK,
    /** The offset moves, but the lag grows across the window: the group is falling behind. */
    WARN,
    /** The offset has not moved for longer than the idle time, with backlog, while a live member owns the partition. */
    STALL,
    /** The offset has not moved for longer than the idle time, with backlog, and no live member owns the partition. */
    STOP,
    /** The committed offset moved backwards within the window. */
    REWIND,
    /** The committed offset is behind the log start: records were deleted before the group read them. */
    ERR;

    /** The worst of {@code statuses}; OK when there is none. */
    public static LagStatus worst(Collection<LagStatus> statuses) {
        LagStatus worst = OK;
        for (LagStatus s : statuses) {
            if (s != null && s.compareTo(worst) > 0) {
                worst = s;
            }
        }
        return worst;
    }
}
