package io.zkgroups.rebalancer.restart;

import io.zkgroups.registry.store.PromptClosingZooKeeper;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.client.ConnectStringParser;
import org.apache.zookeeper.client.StaticHostProvider;
import org.apache.zookeeper.client.ZKClientConfig;

import java.io.IOException;

/**
 * A ZooKeeper handle that can let go of its server connection without ending its session. {@code ZooKeeper.close()}
 * sends closeSession, and the server then deletes the session's ephemeral znodes; {@link #detach()} only stops the
 * client's send and event threads and closes the socket, so the session lives on until its timeout and another
 * process can resume it with the same id and password.
 * <p>
 * Its {@link #close()} ends the session as {@code ZooKeeper.close()} does but does not wait for the client's threads
 * ({@link PromptClosingZooKeeper}).
 */
final class DetachableZooKeeper extends PromptClosingZooKeeper {

    DetachableZooKeeper(String connectString, int sessionTimeout, Watcher watcher, boolean canBeReadOnly,
                        ZKClientConfig clientConfig) throws IOException {
        super(connectString, sessionTimeout, watcher, canBeReadOnly, clientConfig);
    }

    /** Resumes {@code session}: the server accepts it while the session has not expired, else it reports Expired. */
    DetachableZooKeeper(String connectString, int sessionTimeout, Watcher watcher, SessionCredentials session,
                        boolean canBeReadOnly, ZKClientConfig clientConfig) throws IOException {
        super(connectString, sessionTimeout, watcher, session.sessionId(), session.password(), canBeReadOnly,
                new StaticHostProvider(new ConnectStringParser(connectString).getServerAddresses()),
                clientConfig == null ? new ZKClientConfig() : clientConfig);
    }

    /**
     * Drops the connection, keeping the session on the server. The client never reconnects afterwards: its state is
     * CLOSED when this returns (so a later {@link #close()} sends nothing), and its send thread closes the socket on
     * its way out. Returns the session's credentials as they were at the moment of the drop.
     */
    SessionCredentials detach() {
        SessionCredentials credentials = new SessionCredentials(getSessionId(), getSessionPasswd());
        tearDownInBackground();
        while (getState().isAlive()) {
            Thread.yield(); // the first thing disconnect() does is set CLOSED: microseconds
        }
        return credentials;
    }
}
