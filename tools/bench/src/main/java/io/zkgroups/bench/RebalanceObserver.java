package io.zkgroups.bench;

import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.store.Znodes;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The coordinator's view of one group in ZooKeeper, through watches: when each member registration appeared
 * and disappeared ({@code /consumers/G/ids}), and who owns which partition ({@code /consumers/G/owners/T}).
 */
final class RebalanceObserver implements AutoCloseable {

    private final CuratorFramework client;
    private final String idsPath;
    private final String ownersPath;
    private final Map<String, Long> registeredAt = new ConcurrentHashMap<>();
    private final Map<String, Long> unregisteredAt = new ConcurrentHashMap<>();
    /** The server's request count (members' sessions) when each registration was seen appear / disappear. */
    private final Map<String, Long> requestsAtRegistration = new ConcurrentHashMap<>();
    private final Map<String, Long> requestsAtUnregistration = new ConcurrentHashMap<>();
    private final ServerRequests requests;
    private final Set<String> present = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    RebalanceObserver(CuratorFramework client, ServerRequests requests, String group, String topic) {
        this(client, requests, group, topic, true);
    }

    /**
     * {@code watchRegistrations} false: no watch on the registrations (nothing is known of them), for groups so large
     * that a listing after each registration would load the server being measured.
     */
    RebalanceObserver(CuratorFramework client, ServerRequests requests, String group, String topic,
                      boolean watchRegistrations) {
        this.client = client;
        this.requests = requests;
        this.idsPath = ZkLayout.root().memberIds(group);
        this.ownersPath = ZkLayout.root().owners(group, topic);
        if (watchRegistrations) {
            watchIds();
        }
    }

    /** When the registration of {@code consumerId} was first seen (nanoTime), or 0. */
    long registeredAt(String consumerId) {
        return registeredAt.getOrDefault(consumerId, 0L);
    }

    /** When the registration of {@code consumerId} was seen gone (nanoTime), or 0. */
    long unregisteredAt(String consumerId) {
        return unregisteredAt.getOrDefault(consumerId, 0L);
    }

    /** The members' request count at the server when the registration of {@code consumerId} was seen, or -1. */
    long requestsAtRegistration(String consumerId) {
        return requestsAtRegistration.getOrDefault(consumerId, -1L);
    }

    /** The members' request count at the server when the registration of {@code consumerId} was seen gone, or -1. */
    long requestsAtUnregistration(String consumerId) {
        return requestsAtUnregistration.getOrDefault(consumerId, -1L);
    }

    private void watchIds() {
        if (closed) {
            return;
        }
        Watcher again = event -> watchIds();
        try {
            List<String> children;
            try {
                children = client.getChildren().usingWatcher(again).forPath(idsPath);
            } catch (KeeperException.NoNodeException missing) {
                if (client.checkExists().usingWatcher(again).forPath(idsPath) != null) {
                    watchIds();
                }
                return;
            }
            long now = System.nanoTime();
            long count = requests.members();
            Set<String> seen = new HashSet<>(children);
            for (String child : seen) {
                if (present.add(child)) {
                    registeredAt.put(child, now);
                    requestsAtRegistration.put(child, count);
                    unregisteredAt.remove(child);
                }
            }
            for (String gone : Set.copyOf(present)) {
                if (!seen.contains(gone)) {
                    present.remove(gone);
                    unregisteredAt.put(gone, now);
                    requestsAtUnregistration.put(gone, count);
                }
            }
            synchronized (RebalanceProcess.MONITOR) {
                RebalanceProcess.MONITOR.notifyAll();
            }
        } catch (Exception e) {
            if (!closed) {
                System.err.println("observer: cannot watch " + idsPath + ": " + e);
            }
        }
    }

    /** Partition → owner znode value, as it is now. */
    Map<Integer, String> owners() throws Exception {
        return owners(null, null);
    }

    /**
     * Partition → owner znode value; when the listing is not exactly {@code expectedPartitions} (if given), only the
     * listed partitions with empty values: the values cannot match yet, and reading thousands of them at every step of
     * a rebalance would load the server being measured. Values are read pipelined.
     */
    private Map<Integer, String> owners(Watcher watcher, Set<Integer> expectedPartitions) throws Exception {
        Map<Integer, String> owners = new TreeMap<>();
        List<String> children;
        try {
            children = watcher == null ? client.getChildren().forPath(ownersPath)
                    : client.getChildren().usingWatcher(watcher).forPath(ownersPath);
        } catch (KeeperException.NoNodeException missing) {
            if (watcher != null) {
                client.checkExists().usingWatcher(watcher).forPath(ownersPath);
            }
            return owners;
        }
        Set<Integer> listed = new HashSet<>();
        children.forEach(child -> listed.add(Integer.valueOf(child)));
        if (expectedPartitions != null && !listed.equals(expectedPartitions)) {
            listed.forEach(partition -> owners.put(partition, ""));
            return owners;
        }
        List<String> paths = children.stream().map(child -> ownersPath + "/" + child).toList();
        // released while we read: not in the answer, and the watch fires again
        new Znodes(client).readAll(paths, null).forEach((path, data) -> owners.put(
                Integer.valueOf(path.substring(path.lastIndexOf('/') + 1)),
                data.bytes() == null ? "" : new String(data.bytes(), StandardCharsets.UTF_8)));
        return owners;
    }

    /**
     * Waits, through watches on the owners' children, until the owner znodes are exactly {@code expected};
     * returns the nanoTime at which the listing that matched was requested (at most a round trip before the server
     * saw every owner znode there; they are never rewritten, so the reads of their values after it do not count), or
     * -1 on timeout.
     */
    long awaitOwners(Map<Integer, String> expected, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            CountDownLatch changed = new CountDownLatch(1);
            long listed = System.nanoTime();
            Map<Integer, String> now = owners(event -> changed.countDown(), expected.keySet());
            if (now.equals(expected)) {
                return listed;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0 || !changed.await(left, TimeUnit.NANOSECONDS)) {
                long listedLast = System.nanoTime();
                Map<Integer, String> last = owners();
                return last.equals(expected) ? listedLast : -1;
            }
        }
    }

    @Override
    public void close() {
        closed = true;
    }
}
