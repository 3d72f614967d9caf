package io.zkgroups.demo;

/** A group member the demo can start, stop gracefully, or kill. */
interface Member extends AutoCloseable {

    String name();

    /** What kind of consumer this is, for the demo's lines ("zkgroups", "zkgroups (child JVM)", "kafka 0.8.2.2"). */
    String kind();

    /**
     * When this member began to join (System.nanoTime): when it subscribed, or for the 0.8.2.2 consumer, whose
     * first rebalance runs inside its start-up, when its process started.
     */
    long joinStartedNanos();

    /** Leaves the group gracefully (commit, release). */
    @Override
    void close();

    /** kill -9: no commit, no release; the group notices when its ZooKeeper session expires. */
    default void kill() {
        throw new UnsupportedOperationException(kind() + " members run in this JVM and cannot be killed");
    }

    default boolean killable() {
        return false;
    }
}
