package io.zkgroups.bench;

import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The floors of {@link ConnectOnlyFloor} and {@link HearOnlyFloor}: a JVM that only connects to ZooKeeper, with the
 * client both kinds of consumer use, one session per member it stands for; prints {@code CONNECTED} once every session
 * is established, and stays until its input ends or it is killed. A burst of consumer processes cannot be stable
 * sooner than the same number of these is connected.
 * <p>
 * Given a directory, every session also hears the changes below it as a zkgroups member hears its group's
 * registrations (one persistent recursive watch, ZooKeeper 3.6+), armed before {@code CONNECTED}: a child created is
 * read by every session, then the line {@code READ <path> <nanoTime>} says when the last of them had its data; a child
 * deleted gives {@code GONE <path> <nanoTime>} once every session heard it. The clock is {@link System#nanoTime}, which
 * on Linux is the machine's monotonic clock, the same in every JVM. No member can have reacted to a join or a leave
 * sooner than every session of these has heard it.
 *
 * <pre>ZooKeeperConnectMain CONNECT_STRING [SESSIONS [DIRECTORY]]</pre>
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
            if (args.length > 2) {
                Hearing hearing = new Hearing(args[2], sessions);
                for (ZooKeeper zk : clients) {
                    zk.addWatch(args[2], event -> hearing.heard(zk, event), AddWatchMode.PERSISTENT_RECURSIVE);
                }
            }
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

    /** Counts, per child of the directory, the sessions that read it (created) or heard it go (deleted). */
    private static final class Hearing {
        private final String directory;
        private final int sessions;
        private final Map<String, AtomicInteger> read = new ConcurrentHashMap<>();
        private final Map<String, AtomicInteger> gone = new ConcurrentHashMap<>();

        Hearing(String directory, int sessions) {
            this.directory = directory;
            this.sessions = sessions;
        }

        /** On {@code zk}'s event thread. */
        void heard(ZooKeeper zk, org.apache.zookeeper.WatchedEvent event) {
            String path = event.getPath();
            if (path == null || !path.startsWith(directory + "/") || path.indexOf('/', directory.length() + 1) >= 0) {
                return; // the directory itself, or deeper
            }
            switch (event.getType()) {
                case NodeCreated -> zk.getData(path, false, (rc, p, ctx, data, stat) -> count(read, "READ", path), null);
                case NodeDeleted -> count(gone, "GONE", path);
                default -> {
                    // a rewrite: not measured
                }
            }
        }

        private void count(Map<String, AtomicInteger> counts, String what, String path) {
            if (counts.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet() == sessions) {
                long now = System.nanoTime();
                synchronized (System.out) {
                    System.out.println(what + " " + path + " " + now);
                    System.out.flush();
                }
            }
        }
    }
}
