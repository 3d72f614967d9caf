package io.zkgroups.tool.health;

import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;

import java.util.concurrent.TimeUnit;

/**
 * A ZooKeeper watcher that counts change events, so a waiting thread can block until something changed since
 * it last looked (no polling of ZooKeeper). One instance is armed on many znodes; ZooKeeper keeps one watch
 * per znode for it.
 */
public final class Signal implements Watcher {

    private long version;

    @Override
    public synchronized void process(WatchedEvent event) {
        if (event.getType() != Event.EventType.None) {
            version++;
            notifyAll();
        }
    }

    public synchronized long version() {
        return version;
    }

    /** Waits until an event arrives after {@code seen} or {@code nanos} pass; true if something changed. */
    public synchronized boolean awaitChange(long seen, long nanos) throws InterruptedException {
        long deadline = System.nanoTime() + nanos;
        while (version == seen) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return true;
    }
}
