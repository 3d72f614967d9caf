package io.zkgroups.registry.store;

import org.apache.curator.utils.ZookeeperFactory;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.HostProvider;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.proto.RequestHeader;

import java.io.IOException;

/**
 * A ZooKeeper handle whose {@link #close()} ends the session — closeSession, and its answer: the server has deleted
 * the session's ephemerals — and lets the client's threads finish in the background. {@code ZooKeeper.close()} waits
 * for those threads, and the NIO socket's cleanup sleeps a fixed 100 ms in there: a tenth of a second added to every
 * command-line run and every member's exit. {@link #factory()} builds them for Curator.
 */
public class PromptClosingZooKeeper extends ZooKeeper {

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
        super(connectString, sessionTimeout, watcher, canBeReadOnly, clientConfig);
    }

    /** Resumes the session {@code sessionId}. */
    protected PromptClosingZooKeeper(String connectString, int sessionTimeout, Watcher watcher, long sessionId,
                                     byte[] password, boolean canBeReadOnly, HostProvider hosts,
                                     ZKClientConfig clientConfig) throws IOException {
        super(connectString, sessionTimeout, watcher, sessionId, password, canBeReadOnly, hosts, clientConfig);
    }

    @Override
    public synchronized void close() throws InterruptedException {
        if (!getState().isAlive()) {
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
