package io.zkgroups.registry.store;

import org.apache.curator.utils.ZookeeperFactory;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.HostProvider;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.proto.RequestHeader;

import java.io.IOException;

/**
 * A ZooKeeper handle whose {@link #close()} ends the session — closeSession, and its answer: the server has deleted
 * the session's ephemerals — and lets the client's threads finish in the background; disconnected, it only lets them
 * finish. {@code ZooKeeper.close()} waits for those threads, and the NIO socket's cleanup sleeps a fixed 100 ms in
 * there: a tenth of a second added to every command-line run and every member's exit. {@link #factory()} builds them
 * for Curator.
 */
public class PromptClosingZooKeeper extends ZooKeeper {

    /** Passes every event on to the client's watcher, noting from the connection events whether the link is up. */
    private static final class LinkWatcher implements Watcher {
        private final Watcher delegate;
        private volatile boolean connected;

        LinkWatcher(Watcher delegate) {
            this.delegate = delegate;
        }

        @Override
        public void process(WatchedEvent event) {
            if (event.getType() == Event.EventType.None) {
                Event.KeeperState state = event.getState();
                connected = state == Event.KeeperState.SyncConnected || state == Event.KeeperState.ConnectedReadOnly;
            }
            if (delegate != null) {
                delegate.process(event);
            }
        }
    }

    private final LinkWatcher link;

    /** Handles for {@code CuratorFrameworkFactory.Builder.zookeeperFactory}. */
    public static ZookeeperFactory factory() {
        return new ZookeeperFactory() {
            @Override
            public ZooKeeper newZooKeeper(String connectString, int sessionTimeout, Watcher watcher, boolean canBeReadOnly)
                    throws IOException {
                return new PromptClosingZooKeeper(connectString, sessionTimeout, watcher, canBeReadOnly, null);
            }

            @Override
            public ZooKeeper newZooKeeper(String connectString, int sessionTimeout, Watcher watcher,
                                          boolean canBeReadOnly, ZKClientConfig clientConfig) throws IOException {
                return new PromptClosingZooKeeper(connectString, sessionTimeout, watcher, canBeReadOnly, clientConfig);
            }
        };
    }

    protected PromptClosingZooKeeper(String connectString, int sessionTimeout, Watcher watcher, boolean canBeReadOnly,
                                     ZKClientConfig clientConfig) throws IOException {
        this(connectString, sessionTimeout, new LinkWatcher(watcher), canBeReadOnly, clientConfig);
    }

    private PromptClosingZooKeeper(String connectString, int sessionTimeout, LinkWatcher link, boolean canBeReadOnly,
                                   ZKClientConfig clientConfig) throws IOException {
        super(connectString, sessionTimeout, link, canBeReadOnly, clientConfig);
        this.link = link;
    }

    /** Resumes the session {@code sessionId}. */
    protected PromptClosingZooKeeper(String connectString, int sessionTimeout, Watcher watcher, long sessionId,
                                     byte[] password, boolean canBeReadOnly, HostProvider hosts,
                                     ZKClientConfig clientConfig) throws IOException {
        this(connectString, sessionTimeout, new LinkWatcher(watcher), sessionId, password, canBeReadOnly, hosts,
                clientConfig);
    }

    private PromptClosingZooKeeper(String connectString, int sessionTimeout, LinkWatcher link, long sessionId,
                                   byte[] password, boolean canBeReadOnly, HostProvider hosts,
                                   ZKClientConfig clientConfig) throws IOException {
        super(connectString, sessionTimeout, link, sessionId, password, canBeReadOnly, hosts, clientConfig);
        this.link = link;
    }

    /**
     * Ends the session if connected. Disconnected, closeSession could go out only after a reconnection, and the client
     * would hold it (and every request waiting) through its next connection attempt, up to a connection timeout: the
     * client is torn down at once and the server ends the session when it times out. (The client's own state still
     * says CONNECTED between a connection loss and the next attempt; the last connection event says what the link is.)
     */
    @Override
    public synchronized void close() throws InterruptedException {
        if (!getState().isAlive()) {
            return;
        }
        if (!getState().isConnected() || !link.connected) {
            tearDownInBackground();
            return;
        }
        RequestHeader closeSession = new RequestHeader();
        closeSession.setType(ZooDefs.OpCode.closeSession);
        try {
            cnxn.submitRequest(closeSession, null, null, null);
        } finally {
            tearDownInBackground();
        }
    }

    /** As {@link #close()}: the session has ended when it returns; the client's threads are not waited for. */
    @Override
    public boolean close(int waitForShutdownTimeoutMs) throws InterruptedException {
        close();
        return true;
    }

    /** Stops the client's send and event threads and closes the socket, on a daemon thread of its own. */
    protected final void tearDownInBackground() {
        Thread teardown = new Thread(cnxn::disconnect, "zookeeper-disconnect-0x" + Long.toHexString(getSessionId()));
        teardown.setDaemon(true);
        teardown.start();
    }
}
