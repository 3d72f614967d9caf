package io.zkgroups.registry.store;

import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;

import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * The one watcher an {@link OwnerRegistry} arms on owner znodes — on each one it reads, or once per topic directory
 * as a persistent recursive watch ({@link OwnerDirectoryWatch}) — and what it learns from it.
 * <p>
 * <b>Vouched claims.</b> An owner znode this session created while this watch covered it stays the same node until
 * the watch fires: owner znodes are never rewritten, so any change to it — deleted by an operator, deleted and created
 * again by another member — is a {@code NodeDeleted} or {@code NodeDataChanged} on this watch first. Until then it
 * can be released without being read again, which takes a round trip off every release. (Reading it first would not
 * be safer: the read and the delete are two requests either way.) A claim vouches only if no event for its path, and
 * no disconnection, came after the {@link #mark()} it took before sending: an event that arrived between the reply
 * and the vouch is not lost. A disconnection drops every vouch: ZooKeeper does not replay the events a persistent
 * watch missed meanwhile.
 * <p>
 * <b>Presence.</b> Under a directory its persistent watch covers, which owner znodes exist: the listing taken after
 * arming the watch, then every {@code NodeCreated} and {@code NodeDeleted} (each sets the state of its path, so events
 * older than the listing that are handled after it leave the state of the listing's moment). A hint for when to claim;
 * the claim itself decides. Forgotten on a disconnection, like the vouches.
 * <p>
 * <b>Deletion waiters.</b> A claim blocked by a previous owner waits for that owner znode to be deleted; the waiter
 * registered for a path hears the {@code NodeDeleted} of the watch this class arms. One watcher per registry means
 * repeated reads of a znode that never goes away do not pile up watches.
 */
final class WatchedOwners implements Watcher {

    private static final class Vouched {
        private final long session;
        private final int version;

        private Vouched(long session, int version) {
            this.session = session;
            this.version = version;
        }

        public long session() {
            return session;
        }

        public int version() {
            return version;
        }

        @Override
        public boolean equals(Object o) {
            if (o == this) {
                return true;
            }
            if (!(o instanceof Vouched)) {
                return false;
            }
            Vouched that = (Vouched) o;
            return session == that.session
                    && version == that.version;
        }

        @Override
        public int hashCode() {
            int h = 0;
            h = 31 * h + Long.hashCode(session);
            h = 31 * h + Integer.hashCode(version);
            return h;
        }

        @Override
        public String toString() {
            return "Vouched[session=" + session + ", version=" + version + "]";
        }
    }

    private final Map<String, Vouched> vouched = new HashMap<>();
    private final Map<String, Watcher> deletionWaiters = new HashMap<>();
    /** The mark of the last event of each path that was deleted or changed. */
    private final Map<String, Long> lastChange = new HashMap<>();
    /** The owner znode names under each listed directory (see Presence above). */
    private final Map<String, Set<String>> present = new HashMap<>();
    private long marks;
    private long lastDisconnection;

    /** A point in this watch's history: {@link #vouch} ignores claims that something happened to since. */
    synchronized long mark() {
        return ++marks;
    }

    /** Marks of disconnections: a persistent watch armed before the latest one may have missed events. */
    synchronized long lastDisconnection() {
        return lastDisconnection;
    }

    /**
     * {@code path} was created or read, with this watch covering it, as an ephemeral of {@code session} holding our
     * claim, by requests sent after {@code since}; unless it changed or the connection dropped after that.
     */
    synchronized void vouch(String path, long session, int version, long since) {
        if (lastDisconnection < since && lastChange.getOrDefault(path, 0L) < since) {
            vouched.put(path, new Vouched(session, version));
        }
    }

    /**
     * {@code dir} was listed after its persistent watch was armed, when {@link #lastDisconnection()} was
     * {@code disconnection}; ignored if the connection dropped since.
     */
    synchronized void listed(String dir, Collection<String> children, long disconnection) {
        if (lastDisconnection == disconnection) {
            present.put(dir, new HashSet<>(children));
        }
    }

    /** Whether the owner znode {@code path} exists as far as the events tell; empty if its directory is not listed. */
    synchronized Optional<Boolean> exists(String path) {
        Set<String> children = present.get(Znodes.parentOf(path));
        return children == null ? Optional.empty() : Optional.of(children.contains(path.substring(path.lastIndexOf('/') + 1)));
    }

    /** The version of {@code path} if it is a vouched claim of {@code session}. */
    synchronized OptionalInt vouchedVersion(String path, long session) {
        Vouched v = vouched.get(path);
        return v != null && v.session() == session ? OptionalInt.of(v.version()) : OptionalInt.empty();
    }

    /** {@code path} is being deleted by us: nothing to vouch for any more. */
    synchronized void forget(String path) {
        vouched.remove(path);
    }

    /** {@code waiter} hears the deletion of {@code path} (replacing whoever waited for it before). */
    synchronized void awaitDeletion(String path, Watcher waiter) {
        deletionWaiters.put(path, waiter);
    }

    synchronized void stopAwaiting(String path) {
        deletionWaiters.remove(path);
    }

    /**
     * The persistent watch on {@code dir} was removed: what it told is forgotten (which znodes exist there, the vouches
     * below it: they are read before their release again). Returns the deletion waiters below it, removed: nothing
     * tells them of a deletion any more, so the caller tells them to look again.
     */
    synchronized List<Map.Entry<String, Watcher>> unwatched(String dir) {
        present.remove(dir);
        vouched.keySet().removeIf(path -> Znodes.parentOf(path).equals(dir));
        List<Map.Entry<String, Watcher>> waiters = new ArrayList<>();
        for (Iterator<Map.Entry<String, Watcher>> it = deletionWaiters.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, Watcher> waiter = it.next();
            if (Znodes.parentOf(waiter.getKey()).equals(dir)) {
                waiters.add(new AbstractMap.SimpleImmutableEntry<>(waiter));
                it.remove();
            }
        }
        return waiters;
    }

    @Override
    public void process(WatchedEvent event) {
        Watcher waiter = record(event);
        if (waiter != null) {
            waiter.process(event); // outside the lock: the waiter may call back into the registry
        }
    }

    /** Applies {@code event}; returns the deletion waiter to tell, if any. */
    private synchronized Watcher record(WatchedEvent event) {
        String path = event.getPath();
        if (event.getType() == Event.EventType.None) {
            if (event.getState() != Event.KeeperState.SyncConnected) {
                lastDisconnection = ++marks;
                vouched.clear();
                present.clear();
            }
            return null;
        }
        if (path == null) {
            return null;
        }
        Set<String> siblings = present.get(Znodes.parentOf(path));
        if (siblings != null && event.getType() == Event.EventType.NodeCreated) {
            siblings.add(path.substring(path.lastIndexOf('/') + 1));
        } else if (siblings != null && event.getType() == Event.EventType.NodeDeleted) {
            siblings.remove(path.substring(path.lastIndexOf('/') + 1));
        }
        if (event.getType() == Event.EventType.NodeCreated) {
            return null; // a creation changes nothing we vouch for: a vouched path is deleted first
        }
        lastChange.put(path, ++marks);
        vouched.remove(path);
        return event.getType() == Event.EventType.NodeDeleted ? deletionWaiters.remove(path) : null;
    }
}
