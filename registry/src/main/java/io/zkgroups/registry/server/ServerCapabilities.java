package io.zkgroups.registry.server;

import io.zkgroups.registry.RegistryException;
import org.apache.curator.CuratorZookeeperClient;
import org.apache.curator.framework.CuratorFramework;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.Objects;
import java.util.WeakHashMap;

/**
 * The {@link ServerGeneration} each ZooKeeper client works with: declared by its owner (the setting
 * {@code zkgroups.zookeeper.server.version}) or learned once by {@link ServerProbe} on first use. Kept per Curator
 * connection, so every view of one client (a watcher-removing facade, the stores) agrees.
 */
public final class ServerCapabilities {

    private static final Logger LOG = LoggerFactory.getLogger(ServerCapabilities.class);
    private static final Map<CuratorZookeeperClient, ServerGeneration> KNOWN = new WeakHashMap<>();

    private ServerCapabilities() {
    }

    /** Uses {@code generation} for {@code client} instead of learning it from the servers. */
    public static void declare(CuratorFramework client, ServerGeneration generation) {
        Objects.requireNonNull(generation, "generation cannot be null");
        synchronized (KNOWN) {
            KNOWN.put(client.getZookeeperClient(), generation);
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
        synchronized (KNOWN) {
            ServerGeneration known = KNOWN.get(key);
            if (known != null) {
                return known;
            }
        }
        ServerProbe.Finding finding;
        try {
            finding = ServerProbe.probe(client);
        } catch (Exception e) {
            throw RegistryException.of("learning the version of", "the ZooKeeper servers", e);
        }
        synchronized (KNOWN) {
            ServerGeneration raced = KNOWN.putIfAbsent(key, finding.generation());
            if (raced != null) {
                return raced;
            }
        }
        LOG.info("ZooKeeper servers are {}: {}{}", finding.generation(), finding.evidence(), consequences(finding.generation()));
        return finding.generation();
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
