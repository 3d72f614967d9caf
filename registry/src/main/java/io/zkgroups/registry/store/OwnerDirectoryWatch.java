package io.zkgroups.registry.store;

import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * One persistent recursive watch per owner topic directory ({@code /consumers/G/owners/T}), armed once per session
 * and connection with {@link WatchedOwners} as its watcher, then listed: it hears the creation, deletion or change of
 * every owner znode below, so a claim needs no read of what it created to be vouched for, nor a read per held znode to
 * wait for it, and a member can tell which of the partitions it is about to claim are still held before it claims.
 * <p>
 * Persistent watches are ZooKeeper 3.6+. An older server (3.4, 3.5) answers {@code addWatch} with UNIMPLEMENTED and
 * closes the connection, so nothing is armed unless the client's servers are known to be 3.6+
 * ({@link Znodes#generation()}): otherwise {@link #covers} is false and claims read their owner znodes back under
 * one-shot watches. Should a server refuse all the same (the setting claimed 3.6+), this registry never asks again.
 * A directory is armed again after every disconnection (ZooKeeper does
 * not replay what a persistent watch missed, and the next server may be an older one) and every new session.
 * A per-topic children watch would not do instead: it says that some child changed, not which, and during a
 * rebalance it fires on every other member's claim, so it could vouch for nothing.
 */
final class OwnerDirectoryWatch {

    private static final Logger LOG = LoggerFactory.getLogger(OwnerDirectoryWatch.class);

    /** The session and disconnection mark a directory's watch was armed in. */
    private static final class Armed {
        private final long session;
        private final long afterDisconnection;

        private Armed(long session, long afterDisconnection) {
            this.session = session;
            this.afterDisconnection = afterDisconnection;
        }

        public long session() {
            return session;
        }

        public long afterDisconnection() {
            return afterDisconnection;
        }

        @Override
        public boolean equals(Object o) {
            if (o == this) {
                return true;
            }
            if (!(o instanceof Armed)) {
                return false;
            }
            Armed that = (Armed) o;
            return session == that.session
                    && afterDisconnection == that.afterDisconnection;
        }

        @Override
        public int hashCode() {
            int h = 0;
            h = 31 * h + Long.hashCode(session);
            h = 31 * h + Long.hashCode(afterDisconnection);
            return h;
        }

        @Override
        public String toString() {
            return "Armed[session=" + session + ", afterDisconnection=" + afterDisconnection + "]";
        }
    }

    private final Znodes znodes;
    private final WatchedOwners watched;
    /** Hears of each directory listed that exists. */
    private final Consumer<String> listedDirectory;
    private final Map<String, Armed> armed = new ConcurrentHashMap<>();
    private volatile boolean unsupported;
    /** False while the group is too large for every member to hear every owner znode change ({@link #wanted}). */
    private volatile boolean wanted = true;

    OwnerDirectoryWatch(Znodes znodes, WatchedOwners watched, Consumer<String> listedDirectory) {
        this.znodes = Objects.requireNonNull(znodes, "znodes cannot be null");
        this.watched = Objects.requireNonNull(watched, "watched cannot be null");
        this.listedDirectory = Objects.requireNonNull(listedDirectory, "listedDirectory cannot be null");
    }

    /**
     * Whether every directory of {@code dirs} is watched and listed in {@code session} since its last disconnection,
     * arming and listing those that are not (two requests each). False on a server without persistent watches, or if arming failed: then the
     * caller reads what it claims, as on such a server.
     */
    boolean covers(long session, Collection<String> dirs) {
        if (unsupported || !wanted || !znodes.generation().hasPersistentWatches()) {
            return false;
        }
        boolean all = true;
        for (String dir : dirs) {
            all &= isArmed(dir, session) || arm(dir, session);
        }
        return all;
    }

    private boolean isArmed(String dir, long session) {
        Armed a = armed.get(dir);
        return a != null && a.session() == session && a.afterDisconnection() == watched.lastDisconnection();
    }

    private boolean arm(String dir, long session) {
        long disconnection = watched.lastDisconnection();
        // the watch and the listing go out back to back, in one round trip: the watch is armed before the listing
        CompletableFuture<KeeperException.Code> arming = znodes.addRecursiveWatchAsync(dir, watched);
        Optional<List<String>> children;
        try {
            children = znodes.childrenIfExists(dir);
        } catch (RuntimeException e) {
            LOG.debug("owner directory {} not listed: {}", dir, e.toString());
            return false;
        }
        KeeperException.Code answer = znodes.awaitAnswer(arming);
        if (answer == KeeperException.Code.UNIMPLEMENTED) {
            LOG.warn("a ZooKeeper server refused addWatch (persistent watches are 3.6+; zkgroups.zookeeper.server.version"
                    + " says more than the servers do): owner znodes are read back to be watched from now on");
            unsupported = true;
            return false;
        }
        if (answer != KeeperException.Code.OK) {
            LOG.debug("persistent watch on {} not armed (claims read back their owner znodes): {}", dir, answer);
            return false;
        }
        // what exists already: the events tell the rest
        watched.listed(dir, children.orElse(Collections.<String>emptyList()), disconnection);
        if (children.isPresent()) {
            listedDirectory.accept(dir);
        }
        // armed on the session and connection we looked at, unless either changed while the request was out
        if (!inSession(session) || watched.lastDisconnection() != disconnection) {
            return false;
        }
        armed.put(dir, new Armed(session, disconnection));
        return true;
    }

    /**
     * Whether directories are to be watched. Every member's watch hears every owner znode change below: a rebalance
     * of N members that moves P partitions sends N × P events, where one-shot watches on what each member claims and
     * waits for send P. When no longer wanted, every armed watch is removed on the server (a request each; if that
     * fails, on this client only, and the server keeps sending until the session ends), what it told is forgotten,
     * and whoever waited for a deletion below it is told to look again (a synthetic {@code NodeDeleted}: the claim that
     * follows decides). Directories are armed again on the next {@link #covers} once wanted again.
     */
    void wanted(boolean wanted) {
        this.wanted = wanted;
        if (wanted) {
            return;
        }
        for (String dir : armed.keySet()) {
            armed.remove(dir);
            try {
                znodes.client().watchers().remove(watched).ofType(Watcher.WatcherType.Any).quietly().forPath(dir);
            } catch (Exception e) {
                LOG.debug("persistent watch on {} not removed on the server: {}", dir, e.toString());
                try {
                    znodes.client().watchers().remove(watched).ofType(Watcher.WatcherType.Any).locally().forPath(dir);
                } catch (Exception locally) {
                    LOG.debug("persistent watch on {} not removed: {}", dir, locally.toString());
                }
            }
            for (Map.Entry<String, Watcher> waiter : watched.unwatched(dir)) {
                waiter.getValue().process(new WatchedEvent(Watcher.Event.EventType.NodeDeleted,
                        Watcher.Event.KeeperState.SyncConnected, waiter.getKey()));
            }
        }
    }

    /**
     * Stops hearing the directories' events on this client, without a request (the server drops the watches with the
     * session). Curator's {@code removeWatchers()} does not: it forgets a watch once it has fired, and a persistent one
     * keeps firing.
     */
    void stop() {
        unsupported = true; // nothing is armed again
        for (String dir : armed.keySet()) {
            try {
                znodes.client().watchers().remove(watched).ofType(Watcher.WatcherType.Any).locally().forPath(dir);
            } catch (Exception e) {
                LOG.debug("persistent watch on {} not removed: {}", dir, e.toString());
            }
        }
        armed.clear();
    }

    private boolean inSession(long session) {
        try {
            return znodes.sessionId() == session;
        } catch (RuntimeException reconnecting) {
            return false;
        }
    }
}
