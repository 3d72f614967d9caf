package io.zkgroups.tool.migrate;

/** What {@code migrate execute}/{@code rollback} does with one partition. */
public enum MoveAction {
    /** Target has no offset: write the source's. */
    COPY(true),
    /** Target is behind: move it forward to the source's. */
    ADVANCE(true),
    /** Target is ahead and {@code --allow-rewind} was given: move it back to the source's. */
    REWIND(true),
    /** Already equal: nothing to do (this is what makes re-runs idempotent). */
    IN_SYNC(false),
    /** Target is ahead: left alone, because copying would move an offset backwards. */
    SKIP_REWIND(false),
    /** Source offset is negative: nothing sensible to copy. */
    SKIP_INVALID(false),
    /** The partition does not exist in the cluster: Kafka would refuse it. */
    SKIP_NO_PARTITION(false),
    /** Only the target has an offset: left alone. */
    TARGET_ONLY(false);

    private final boolean writes;

    MoveAction(boolean writes) {
        this.writes = writes;
    }

    public boolean writes() {
        return writes;
    }
}
