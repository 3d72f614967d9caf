package io.zkgroups.bench;

import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

import java.util.concurrent.CountDownLatch;

/**
 * The floor of a burst ({@link ProductBench}): a JVM that only connects to ZooKeeper, with the client both kinds of
 * consumer use, prints {@code CONNECTED} once its session is established, and stays until its input ends or it is
 * killed. A burst of consumer processes cannot be stable sooner than the same number of these is connected.
 *
 * <pre>ZooKeeperConnectMain CONNECT_STRING</pre>
 */
public final class ZooKeeperConnectMain {

    private ZooKeeperConnectMain() {
    }

    public static void main(String[] args) throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        try (ZooKeeper zk = new ZooKeeper(args[0], 30_000, event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        })) {
            connected.await();
            System.out.println("CONNECTED");
            System.out.flush();
            while (System.in.read() >= 0) {
                // until the bench ends the input
            }
        }
    }
}
