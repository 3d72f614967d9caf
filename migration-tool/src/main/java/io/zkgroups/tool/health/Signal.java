package io.zkgroups.tool.health;

import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;

import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A ZooKeeper watcher that counts change events, so a waiting thread can block until something changed since
 * it last looked (no polling of ZooKeeper). One instance is armed on many znodes; ZooKeeper keeps one watch
 * per znode for it.
 * <p>
 * It keeps two counts: every change, and the changes to the group's shape — everything but the paths
 * {@code routine} accepts (committed offsets, which a live group writes several times a second). A settle waits
 * for the shape to stay still; offsets moving is the group working, not the group changing.
 */
public final class Signal implements Watcher {

    private final Predicate<String> routine;
    private long version;
    private long shapeVersion;

    /** A signal for which every change is a change of shape. */
    public Signal() {
        this(path -> false);
    }

    /** @param routine the paths whose changes do not change the group's shape */
    public Signal(Predicate<String> routine) {
        this.routine = routine;
    }

    @Override
    public synchronized void process(WatchedEvent event) {
        if (event.getType() != Event.EventType.None) {
            version++;
            if (event.getPath() == null || !routine.test(event.getPath())) {
                shapeVersion++;
            }
            notifyAll();
        }
    }

    public synchronized long version() {
        return version;
    }

    public synchronized long shapeVersion() {
        return shapeVersion;
    }

    /** Waits until an event arrives after {@code seen} or {@code nanos} pass; true if something changed. */
    public synchronized boolean awaitChange(long seen, long nanos) throws InterruptedException {
        return await(true, seen, nanos);
    }

    /** Waits until a change of shape arrives after {@code seenShape} or {@code nanos} pass; true if one did. */
    public synchronized boolean awaitShapeChange(long seenShape, long nanos) throws InterruptedException {
        return await(false, seenShape, nanos);
    }

    private boolean await(boolean any, long seen, long nanos) throws InterruptedException {
        long deadline = System.nanoTime() + nanos;
        while ((any ? version : shapeVersion) == seen) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return true;
    }
}
