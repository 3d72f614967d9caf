package io.zkgroups.registry.store;

import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collection;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One persistent recursive watch per owner topic directory ({@code /consumers/G/owners/T}), armed once per session
 * and connection with {@link WatchedOwners} as its watcher: it hears the deletion or change of every owner znode
 * below, so a claim needs no read of what it created to be vouched for, nor a read per held znode to wait for it.
 * <p>
 * Persistent watches are ZooKeeper 3.6+. An older server (3.4, 3.5) answers {@code addWatch} with UNIMPLEMENTED:
 * from then on this registry never asks again and {@link #covers} is false, so claims read their owner znodes back
 * under one-shot watches, as they always did. A directory is armed again after every disconnection (ZooKeeper does
 * not replay what a persistent watch missed, and the next server may be an older one) and every new session.
 * A per-topic children watch would not do instead: it says that some child changed, not which, and during a
 * rebalance it fires on every other member's claim, so it could vouch for nothing.
 */
final class OwnerDirectoryWatch {

    private static final Logger LOG = LoggerFactory.getLogger(OwnerDirectoryWatch.class);

    /** The session and disconnection mark a directory's watch was armed in. */
    private record Armed(long session, long afterDisconnection) {
    }

    private final Znodes znodes;
    private final WatchedOwners watched;
    private final Map<String, Armed> armed = new ConcurrentHashMap<>();
    private volatile boolean unsupported;

    OwnerDirectoryWatch(Znodes znodes, WatchedOwners watched) {
        this.znodes = Objects.requireNonNull(znodes, "znodes cannot be null");
        this.watched = Objects.requireNonNull(watched, "watched cannot be null");
    }

    /**
     * Whether every directory of {@code dirs} is watched in {@code session} since its last disconnection, arming those
     * that are not (one request each). False on a server without persistent watches, or if arming failed: then the
     * caller reads what it claims, as on such a server.
     */
    boolean covers(long session, Collection<String> dirs) {
        if (unsupported) {
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
        try {
            znodes.client().watchers().add().withMode(AddWatchMode.PERSISTENT_RECURSIVE).usingWatcher(watched)
                    .forPath(dir);
        } catch (KeeperException.UnimplementedException olderServer) {
            LOG.info("ZooKeeper has no persistent watches (a server before 3.6): owner znodes are read back to be watched");
            unsupported = true;
            return false;
        } catch (Exception e) {
            LOG.debug("persistent watch on {} not armed (claims read back their owner znodes): {}", dir, e.toString());
            return false;
        }
        // armed on the session and connection we looked at, unless either changed while the request was out
        if (!inSession(session) || watched.lastDisconnection() != disconnection) {
            return false;
        }
        armed.put(dir, new Armed(session, disconnection));
        return true;
    }

    private boolean inSession(long session) {
        try {
            return znodes.sessionId() == session;
        } catch (RuntimeException reconnecting) {
            return false;
        }
    }
}
