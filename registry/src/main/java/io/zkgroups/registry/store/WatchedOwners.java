package io.zkgroups.registry.store;

import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;

import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The one watcher an {@link OwnerRegistry} arms on every owner znode it reads, and what it learns from it.
 * <p>
 * <b>Vouched claims.</b> An owner znode this session created and then read back with this watch armed stays the same
 * node until the watch fires: owner znodes are never rewritten, so any change to it — deleted by an operator, deleted
 * and created again by another member — is a {@code NodeDeleted} or {@code NodeDataChanged} on this watch first. Until
 * then it can be released without being read again, which takes a round trip off every release. (Reading it first
 * would not be safer: the read and the delete are two requests either way.)
 * <p>
 * <b>Deletion waiters.</b> A claim blocked by a previous owner waits for that owner znode to be deleted; the waiter
 * registered for a path hears the {@code NodeDeleted} of the watch this class arms. One watcher per registry means
 * repeated reads of a znode that never goes away do not pile up watches.
 */
final class WatchedOwners implements Watcher {

    private record Vouched(long session, int version) {
    }

    private final Map<String, Vouched> vouched = new ConcurrentHashMap<>();
    private final Map<String, Watcher> deletionWaiters = new ConcurrentHashMap<>();

    /** {@code path} was read, with this watch, as an ephemeral of {@code session} holding our claim. */
    void vouch(String path, long session, int version) {
        vouched.put(path, new Vouched(session, version));
    }

    /** The version of {@code path} if it is a vouched claim of {@code session}. */
    OptionalInt vouchedVersion(String path, long session) {
        Vouched v = vouched.get(path);
        return v != null && v.session() == session ? OptionalInt.of(v.version()) : OptionalInt.empty();
    }

    /** {@code path} is being deleted by us: nothing to vouch for any more. */
    void forget(String path) {
        vouched.remove(path);
    }

    /** {@code waiter} hears the deletion of {@code path} (replacing whoever waited for it before). */
    void awaitDeletion(String path, Watcher waiter) {
        deletionWaiters.put(path, waiter);
    }

    void stopAwaiting(String path) {
        deletionWaiters.remove(path);
    }

    @Override
    public void process(WatchedEvent event) {
        String path = event.getPath();
        if (path == null || event.getType() == Event.EventType.None) {
            return;
        }
        vouched.remove(path);
        if (event.getType() == Event.EventType.NodeDeleted) {
            Watcher waiter = deletionWaiters.remove(path);
            if (waiter != null) {
                waiter.process(event);
            }
        }
    }
}
