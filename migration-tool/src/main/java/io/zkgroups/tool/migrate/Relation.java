package io.zkgroups.tool.migrate;

/** How a partition's target offset relates to its source offset. */
public enum Relation {
    /** Both stores hold the same offset. */
    EQUAL,
    /** Only the source holds an offset. */
    TARGET_MISSING,
    /** The target's offset is lower: copying moves it forward. */
    TARGET_BEHIND,
    /** The target's offset is higher: copying would move it backwards. */
    TARGET_AHEAD,
    /** Only the target holds an offset (nothing to copy). */
    TARGET_ONLY,
    /** The source offset is negative (e.g. a {@code -1} written by hand): not an offset to copy. */
    SOURCE_INVALID,
    /** The partition does not exist (any more) in the cluster: Kafka would refuse an offset for it. */
    NO_SUCH_PARTITION
}
