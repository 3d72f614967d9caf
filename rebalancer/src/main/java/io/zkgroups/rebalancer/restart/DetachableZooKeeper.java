package io.zkgroups.rebalancer.restart;

import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ConnectStringParser;
import org.apache.zookeeper.client.StaticHostProvider;
import org.apache.zookeeper.client.ZKClientConfig;

import java.io.IOException;

/**
 * A ZooKeeper handle that can let go of its server connection without ending its session. {@link ZooKeeper#close()}
 * sends closeSession, and the server then deletes the session's ephemeral znodes; {@link #detach()} only stops the
 * client's send and event threads and closes the socket, so the session lives on until its timeout and another
 * process can resume it with the same id and password.
 */
final class DetachableZooKeeper extends ZooKeeper {

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
     * Drops the connection, keeping the session on the server. The client never reconnects afterwards (its state is
     * CLOSED, so a later {@link #close()} is a no-op that sends nothing). Returns the session's credentials as they
     * were at the moment of the drop.
     */
    SessionCredentials detach() {
        SessionCredentials credentials = new SessionCredentials(getSessionId(), getSessionPasswd());
        cnxn.disconnect(); // joins the send thread: the socket is closed when this returns
        return credentials;
    }
}
