package io.zkgroups.registry.store;

import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;

import java.util.Optional;

/**
 * The watch events a {@link MemberList} has heard since its last read began, reduced to what
 * {@link MemberList#afterLeaveHeard} asks: was the first of them one registration's deletion, followed by nothing but
 * the listing's own event? ZooKeeper sends a client's watch events in the order of their transactions and Curator
 * hands them over in that order; its events carry no zxid, so an event of a change the read already saw (one that
 * arrives while the read is answered) counts as news, which only ever rules a prediction out. Written by ZooKeeper's
 * event thread, read by the list's caller: every method is synchronized.
 */
final class MembershipEvents {

    /** The member whose registration's deletion was the first event heard, if it was. */
    private String firstLeave;
    /** Whether the listing's children event was heard. */
    private boolean listingEvent;
    /** Anything else was heard: an event before the deletion, a second deletion, a rewritten registration, ... */
    private boolean other;

    synchronized void clear() {
        firstLeave = null;
        listingEvent = false;
        other = false;
    }

    synchronized void heard(WatchedEvent event, String ids) {
        Watcher.Event.EventType type = event.getType();
        String path = event.getPath();
        if (type == Watcher.Event.EventType.None || path == null) {
            return; // connection states: the list checks its session itself
        }
        boolean first = firstLeave == null && !listingEvent && !other;
        if (path.equals(ids) && type == Watcher.Event.EventType.NodeChildrenChanged && !first && !listingEvent) {
            listingEvent = true; // the deletion's own: the listing's watch fires at the first change after the read
        } else if (first && path.startsWith(ids + "/") && type == Watcher.Event.EventType.NodeDeleted) {
            firstLeave = path.substring(ids.length() + 1);
        } else {
            other = true;
        }
    }

    /** The name (a child of {@code ids}) of the member whose leave is all that was heard, if it is. */
    synchronized Optional<String> onlyLeave() {
        return other ? Optional.empty() : Optional.ofNullable(firstLeave);
    }
}
