package io.zkgroups.registry.server;

import io.zkgroups.registry.RegistryException;
import org.apache.curator.CuratorZookeeperClient;
import org.apache.curator.framework.CuratorFramework;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.WeakHashMap;

/**
 * The {@link ServerGeneration} each ZooKeeper client works with: declared by its owner (the setting
 * {@code zkgroups.zookeeper.server.version}) or learned by {@link ServerProbe} on first use, and learned again later
 * if that rested on a server's silence ({@link LearnedGeneration}). Kept per Curator connection, so every view of one
 * client (a watcher-removing facade, the stores) agrees.
 */
public final class ServerCapabilities {

    private static final Logger LOG = LoggerFactory.getLogger(ServerCapabilities.class);
    private static final Map<CuratorZookeeperClient, ServerGeneration> DECLARED = new WeakHashMap<>();
    private static final Map<CuratorZookeeperClient, LearnedGeneration> LEARNED = new WeakHashMap<>();

    private ServerCapabilities() {
    }

    /** Uses {@code generation} for {@code client} instead of learning it from the servers. */
    public static void declare(CuratorFramework client, ServerGeneration generation) {
        Objects.requireNonNull(generation, "generation cannot be null");
        synchronized (DECLARED) {
            DECLARED.put(client.getZookeeperClient(), generation);
        }
        LOG.info("ZooKeeper servers taken as {} (zkgroups.zookeeper.server.version){}", generation, consequences(generation));
    }

    /**
     * The generation of {@code client}'s servers, learned on the first call (one read and a {@code srvr} per server).
     *
     * @throws RegistryException if the servers cannot be asked (e.g. no connection)
     */
    public static ServerGeneration of(CuratorFramework client) {
        CuratorZookeeperClient key = client.getZookeeperClient();
        LearnedGeneration learned;
        synchronized (DECLARED) {
            ServerGeneration declared = DECLARED.get(key);
            if (declared != null) {
                return declared;
            }
            learned = LEARNED.computeIfAbsent(key, k -> new LearnedGeneration());
        }
        LearnedGeneration.Learned now;
        try {
            now = learned.get(System.nanoTime(), () -> ServerProbe.probe(client));
        } catch (Exception e) {
            throw RegistryException.of("learning the version of", "the ZooKeeper servers", e);
        }
        if (now.news != null) {
            Duration again = learned.holdsFor();
            LOG.info("ZooKeeper servers are {}: {}{}{}", now.generation, now.news.evidence(), consequences(now.generation),
                    again == null ? "" : "; asked again in " + again.getSeconds() + " s");
        }
        return now.generation;
    }

    /**
     * Starts learning {@code client}'s generation on a short-lived daemon thread, unless one was declared: its first
     * user (a member's join) then finds it learned, or waits for this probe instead of making its own. A probe that
     * fails here is only logged at debug: the first user asks again and reports it.
     */
    public static void learnAhead(CuratorFramework client) {
        synchronized (DECLARED) {
            if (DECLARED.containsKey(client.getZookeeperClient())) {
                return;
            }
        }
        Thread probe = new Thread(() -> {
            try {
                of(client);
            } catch (RuntimeException e) {
                LOG.debug("learning the ZooKeeper servers' version ahead of use failed; asked again on use", e);
            }
        }, "zkgroups-zookeeper-probe");
        probe.setDaemon(true);
        probe.start();
    }

    private static String consequences(ServerGeneration generation) {
        switch (generation) {
            case V3_4:
                return "; creates go as transactions, owner znodes are read back to be watched";
            case V3_5:
                return "; owner znodes are read back to be watched (persistent watches are 3.6+)";
            default:
                return "";
        }
    }
}
