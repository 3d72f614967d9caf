package io.zkgroups.rebalancer.restart;

import org.apache.curator.utils.ZookeeperFactory;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;

import java.util.Optional;

/**
 * The {@link ZookeeperFactory} of a consumer that can take part in a session hand-over. Its first handle resumes the
 * session a predecessor handed over, if any; every later one (Curator builds a new handle after an expiry) starts a
 * fresh session. {@link #detach()} drops the current connection without ending its session and makes every later
 * request for a handle fail: the process that handed its session over must never reconnect with it, or the server
 * would close its successor's connection.
 */
public final class HandoverZooKeeperFactory implements ZookeeperFactory {

    private SessionCredentials toResume;
    private DetachableZooKeeper current;
    private boolean detached;

    /** @param toResume the session the first handle resumes; empty: every handle starts a new session */
    public HandoverZooKeeperFactory(Optional<SessionCredentials> toResume) {
        this.toResume = toResume.orElse(null);
    }

    @Override
    public ZooKeeper newZooKeeper(String connectString, int sessionTimeout, Watcher watcher, boolean canBeReadOnly)
            throws Exception {
        return newZooKeeper(connectString, sessionTimeout, watcher, canBeReadOnly, null);
    }

    @Override
    public synchronized ZooKeeper newZooKeeper(String connectString, int sessionTimeout, Watcher watcher,
                                               boolean canBeReadOnly, ZKClientConfig clientConfig) throws Exception {
        if (detached) {
            throw new IllegalStateException("this client handed its ZooKeeper session over to a successor: "
                    + "it must not connect again");
        }
        SessionCredentials resume = toResume;
        toResume = null; // first handle only
        current = resume == null
                ? new DetachableZooKeeper(connectString, sessionTimeout, watcher, canBeReadOnly, clientConfig)
                : new DetachableZooKeeper(connectString, sessionTimeout, watcher, resume, canBeReadOnly, clientConfig);
        return current;
    }

    /**
     * Drops the connection of the current handle, keeping its session alive on the server, and forbids new handles.
     *
     * @throws IllegalStateException if no handle was ever built, or this was detached already
     */
    public synchronized SessionCredentials detach() {
        if (detached || current == null) {
            throw new IllegalStateException(detached ? "the session was handed over already" : "no ZooKeeper session yet");
        }
        detached = true;
        return current.detach();
    }
}
