package io.zkgroups.rebalancer.group;

import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Whether the view a member's last attempt read may be out of date, which decides if the next attempt must read the
 * group again or may finish what the last one left waiting (a claim parked until previous owners let go).
 * <p>
 * Any event but an owner letting go makes it stale, except a member joining or leaving that carries its zxid
 * (ZooKeeper 3.9): that one only if the last read of the member list had not reached it. ZooKeeper delivers a watch
 * event before the reply to a read that sees the change, so the read a member's leave triggers at once (its
 * registration's data watch) is often answered after the same leave's children event has been heard; that event then
 * changes nothing in the view. Events come from any thread; {@link #read} and {@link #takeStale} from the event loop.
 * <p>
 * Curator 5.9 hands watch events on without their zxid ({@code NamespaceWatchedEvent}), so through it every event
 * marks the view stale; a single leave is acted on without a read by {@code MemberList.afterLeaveHeard} instead,
 * which relies on the order of the events rather than on their zxids.
 */
final class ViewFreshness {

    private final AtomicBoolean stale = new AtomicBoolean(true);
    /** Made stale by a membership event (which a read of the member list covers), not by anything else. */
    private final AtomicBoolean membershipStale = new AtomicBoolean();
    /** The highest zxid of joins and leaves heard of since {@link #takeStale} (0: none). */
    private final AtomicLong heardZxid = new AtomicLong();
    /** The pzxid of {@code ids} at the last read of the member list (-1: never read, or no {@code ids}). */
    private long readZxid = -1;

    /** Something happened that the view cannot have seen. */
    void markStale() {
        stale.set(true);
    }

    /** A watch event on the membership: marks the view stale, or notes the zxid to compare at the next attempt. */
    void heard(WatchedEvent event) {
        Watcher.Event.EventType type = event.getType();
        boolean joinedOrLeft = type == Watcher.Event.EventType.NodeDeleted
                || type == Watcher.Event.EventType.NodeChildrenChanged;
        if (joinedOrLeft && event.getZxid() > 0) {
            heardZxid.accumulateAndGet(event.getZxid(), Math::max);
        } else {
            membershipStale.set(true);
        }
    }

    /**
     * A read of the member list begins outside an attempt: the membership events heard so far are in it (ZooKeeper
     * delivers a change's watch event before any reply that sees it; what comes during the read marks the view stale
     * again). Staleness from anything else (topics, reconnections, retries) stays: that read does not cover it.
     */
    void readBegins() {
        membershipStale.set(false);
        heardZxid.set(0);
    }

    /** The member list was read at {@code pzxid}: the view built from it has seen every join and leave up to it. */
    void read(long pzxid) {
        readZxid = pzxid;
    }

    /** Whether the last view may be out of date; clears what it was told so far (an attempt begins). */
    boolean takeStale() {
        long heard = heardZxid.getAndSet(0);
        return stale.getAndSet(false) | membershipStale.getAndSet(false) | heard > readZxid;
    }
}
