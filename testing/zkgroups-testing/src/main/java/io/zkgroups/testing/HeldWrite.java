package io.zkgroups.testing;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.utils.ZookeeperFactory;
import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.admin.ZooKeeperAdmin;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Holds one write request of a real client at the moment it is handed to its ZooKeeper handle, so that a test can
 * change the world in between — end the session, let another member take the path — and then let it go on. Only
 * {@code delete} and {@code multi} (every write the stores make to ephemerals) count as writes; reads pass.
 * <pre>{@code
 * HeldWrite held = new HeldWrite();
 * CuratorFramework client = held.newClient(server);
 * held.holdAfter(1);          // the first write passes, the second is held
 * ... start the operation in another thread ...
 * held.awaitHeld();           // the second write is at the handle
 * TestZooKeeper.expireSession(client); ...
 * held.release();             // it goes to its handle now
 * }</pre>
 * The held request goes to the handle it was given to (the one of the session that sent it), exactly as if the
 * client thread had been slow; what a retry does afterwards is up to the code under test.
 */
public final class HeldWrite {

    private static final int NOT_ARMED = -1;

    private final AtomicInteger toPass = new AtomicInteger(NOT_ARMED);
    private final CountDownLatch held = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);

    /** A started client on {@code server} (10 s session) whose writes this instance can hold. */
    public CuratorFramework newClient(TestZooKeeper server) {
        ZookeeperFactory factory = (connect, sessionTimeout, watcher, canBeReadOnly) ->
                new Gated(connect, sessionTimeout, watcher, canBeReadOnly);
        CuratorFramework client = CuratorFrameworkFactory.builder()
                .connectString(server.connectString())
                .sessionTimeoutMs(10_000)
                .connectionTimeoutMs(5_000)
                .retryPolicy(new ExponentialBackoffRetry(50, 10, 500))
                .zookeeperFactory(factory)
                .build();
        server.adopt(client);
        return client;
    }

    /** Lets {@code passing} writes through from now on, then holds the next one until {@link #release()}. */
    public void holdAfter(int passing) {
        toPass.set(passing);
    }

    /** Waits until a write is held. */
    public void awaitHeld() throws InterruptedException {
        if (!held.await(20, TimeUnit.SECONDS)) {
            throw new IllegalStateException("no write reached the ZooKeeper handle");
        }
    }

    /** Lets the held write go to its handle (and every later write through). */
    public void release() {
        released.countDown();
    }

    private void gate() {
        if (toPass.get() == NOT_ARMED || toPass.getAndDecrement() > 0) {
            return;
        }
        toPass.set(NOT_ARMED);
        held.countDown();
        try {
            if (!released.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the held write was never released");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A handle that passes every write through {@link #gate()} first. */
    private final class Gated extends ZooKeeperAdmin {

        Gated(String connect, int sessionTimeout, Watcher watcher, boolean canBeReadOnly) throws IOException {
            super(connect, sessionTimeout, watcher, canBeReadOnly);
        }

        @Override
        public void delete(String path, int version) throws InterruptedException, KeeperException {
            gate();
            super.delete(path, version);
        }

        @Override
        public void delete(String path, int version, AsyncCallback.VoidCallback cb, Object ctx) {
            gate();
            super.delete(path, version, cb, ctx);
        }

        @Override
        public List<OpResult> multi(Iterable<Op> ops) throws InterruptedException, KeeperException {
            gate();
            return super.multi(ops);
        }

        @Override
        public void multi(Iterable<Op> ops, AsyncCallback.MultiCallback cb, Object ctx) {
            gate();
            super.multi(ops, cb, ctx);
        }
    }

    /** The session id of {@code client}'s current handle (0 while it has none). */
    public static long sessionOf(CuratorFramework client) {
        try {
            ZooKeeper zk = client.getZookeeperClient().getZooKeeper();
            return zk.getSessionId();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
