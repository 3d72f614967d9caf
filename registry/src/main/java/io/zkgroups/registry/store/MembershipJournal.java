package io.zkgroups.registry.store;

import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;

import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The joins, leaves and rewrites a {@link MemberList}'s persistent recursive watch on {@code /consumers/G/ids} has heard
 * since it was last drained, reduced per member to what a read must do: read the registration again, or drop it. From
 * these the list updates its last read instead of listing {@code ids} again, so a change costs each member one event
 * (and one read of the registration that joined or was rewritten), not a listing of every member.
 * <p>
 * ZooKeeper sends a client's events in the order of their transactions, so the last event heard for a name says what
 * became of it: created or rewritten, read it; deleted, drop it. An event already reflected in the read it is applied to
 * (one that arrived while that read's listing was answered) leads to the same result, or to one read too many.
 * Events on {@code ids} itself (the group's directory created or deleted) cannot be applied: only a listing tells what
 * it holds then. Written by ZooKeeper's event thread, drained by the list's caller: every method is synchronized.
 */
final class MembershipJournal {

    /** What a read must do about the members named, and whether it must list {@code ids} instead. */
    static final class Changes {
        static final Changes NONE = new Changes(Collections.<String>emptySet(), Collections.<String>emptySet(), 0, false);

        private final Set<String> toRead;
        private final Set<String> gone;
        private final int joinsAndLeaves;
        private final boolean needsListing;

        private Changes(Set<String> toRead, Set<String> gone, int joinsAndLeaves, boolean needsListing) {
            this.toRead = toRead;
            this.gone = gone;
            this.joinsAndLeaves = joinsAndLeaves;
            this.needsListing = needsListing;
        }

        /** Names created or rewritten since the last drain, and not deleted after. */
        Set<String> toRead() {
            return toRead;
        }

        /** Names whose last event was their deletion. */
        Set<String> gone() {
            return gone;
        }

        /** The creations and deletions heard: what they added to the cversion of {@code ids}. */
        int joinsAndLeaves() {
            return joinsAndLeaves;
        }

        /** {@code ids} itself was created or deleted: the members can only be listed. */
        boolean needsListing() {
            return needsListing;
        }
    }

    /** Per name, whether its last event left it to be read (true) or gone (false). */
    private final Map<String, Boolean> lastByName = new HashMap<>();
    private int joinsAndLeaves;
    private boolean directoryChanged;

    synchronized void clear() {
        lastByName.clear();
        joinsAndLeaves = 0;
        directoryChanged = false;
    }

    synchronized void heard(WatchedEvent event, String ids) {
        Watcher.Event.EventType type = event.getType();
        String path = event.getPath();
        if (path == null || type == Watcher.Event.EventType.None
                || type == Watcher.Event.EventType.NodeChildrenChanged) {
            return; // states are the list's to judge; a listing's children event repeats a creation or deletion heard
        }
        if (path.equals(ids)) {
            directoryChanged |= type == Watcher.Event.EventType.NodeCreated || type == Watcher.Event.EventType.NodeDeleted;
            return;
        }
        if (!path.startsWith(ids + "/") || path.indexOf('/', ids.length() + 1) >= 0) {
            return; // not a registration (nothing lives below one)
        }
        String name = path.substring(ids.length() + 1);
        if (type == Watcher.Event.EventType.NodeDeleted) {
            lastByName.put(name, false);
            joinsAndLeaves++;
        } else if (type == Watcher.Event.EventType.NodeCreated || type == Watcher.Event.EventType.NodeDataChanged) {
            lastByName.put(name, true);
            joinsAndLeaves += type == Watcher.Event.EventType.NodeCreated ? 1 : 0;
        }
    }

    /** What was heard since the last drain or clear, and forgets it. */
    synchronized Changes drain() {
        if (!directoryChanged && lastByName.isEmpty()) {
            return Changes.NONE;
        }
        Set<String> toRead = new HashSet<>();
        Set<String> gone = new HashSet<>();
        lastByName.forEach((name, read) -> (read ? toRead : gone).add(name));
        Changes changes = new Changes(toRead, gone, joinsAndLeaves, directoryChanged);
        clear();
        return changes;
    }
}
