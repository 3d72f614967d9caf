package io.zkgroups.bench;

import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * The floor of a burst ({@link ConnectOnlyFloor}): a JVM that only connects to ZooKeeper, with the client both kinds of
 * consumer use, one session per member it stands for; prints {@code CONNECTED} once every session is established, and
 * stays until its input ends or it is killed. A burst of consumer processes cannot be stable sooner than the same
 * number of these is connected.
 *
 * <pre>ZooKeeperConnectMain CONNECT_STRING [SESSIONS]</pre>
 */
public final class ZooKeeperConnectMain {

    private ZooKeeperConnectMain() {
    }

    public static void main(String[] args) throws Exception {
        int sessions = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        CountDownLatch connected = new CountDownLatch(sessions);
        List<ZooKeeper> clients = new ArrayList<>();
        try {
            for (int i = 0; i < sessions; i++) {
                CountDownLatch once = new CountDownLatch(1);
                clients.add(new ZooKeeper(args[0], 30_000, event -> {
                    if (event.getState() == Watcher.Event.KeeperState.SyncConnected && once.getCount() > 0) {
                        once.countDown();
                        connected.countDown();
                    }
                }));
            }
            connected.await();
            System.out.println("CONNECTED");
            System.out.flush();
            while (System.in.read() >= 0) {
                // until the bench ends the input
            }
        } finally {
            for (ZooKeeper zk : clients) {
                zk.close();
            }
        }
    }
}
