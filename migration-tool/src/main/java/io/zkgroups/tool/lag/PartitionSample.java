package io.zkgroups.tool.lag;

import java.time.Instant;
import java.util.Objects;

/**
 * One partition of one group, as one sample saw it.
 *
 * @param at          ZooKeeper's time of the sample
 * @param offset      the committed offset the group reads (the next to consume), null when it has none
 * @param committedAt when that offset was written, if the store says (a ZooKeeper offset's mtime); null otherwise
 * @param logStart    the log start offset
 * @param logEnd      the log end offset
 * @param owned       whether a registered member's thread owns the partition
 */
public record PartitionSample(Instant at, Long offset, Instant committedAt, long logStart, long logEnd, boolean owned) {

    public PartitionSample {
        Objects.requireNonNull(at, "at");
    }

    /** Records between the committed offset and the log end (never negative); null without an offset. */
    public Long lag() {
        return offset == null ? null : Math.max(0, logEnd - offset);
    }
}
