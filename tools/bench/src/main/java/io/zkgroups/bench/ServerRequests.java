package io.zkgroups.bench;

import org.apache.curator.framework.CuratorFramework;

import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.util.Set;

/**
 * Requests the ZooKeeper server (in this JVM) has received, counted by the server itself: its JMX
 * {@code PacketsReceived} minus what the server counted for the coordinator's own session (the observer's watches and
 * owner reads, the RTT sampler), found by session id among the server's per-connection beans. What remains is the
 * members' doing, plus the broker's rare pings.
 */
final class ServerRequests {

    private static final MBeanServer JMX = ManagementFactory.getPlatformMBeanServer();

    private final ObjectName server;
    private final ObjectName coordinator;

    ServerRequests(String connectString, CuratorFramework coordinatorClient) {
        String port = connectString.substring(connectString.lastIndexOf(':') + 1);
        try {
            this.server = new ObjectName("org.apache.ZooKeeperService:name0=StandaloneServer_port" + port);
            String session = "0x" + Long.toHexString(coordinatorClient.getZookeeperClient().getZooKeeper().getSessionId());
            Set<ObjectName> connections = JMX.queryNames(new ObjectName(server + ",name1=Connections,*"), null);
            ObjectName own = null;
            for (ObjectName connection : connections) {
                if (session.equals(JMX.getAttribute(connection, "SessionId"))) {
                    own = connection;
                }
            }
            if (own == null) {
                throw new IllegalStateException("the ZooKeeper server on port " + port + " has no connection bean for the "
                        + "coordinator's session " + session + " (beans: " + connections + ")");
            }
            this.coordinator = own;
        } catch (IllegalStateException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the ZooKeeper server's JMX beans on port " + port + ": " + e, e);
        }
    }

    /**
     * The server-wide traffic and watch counters at one moment (everyone's, the coordinator's included: the scaling
     * bench takes them before its own reads of the owner znodes). -1 where the server does not count it.
     */
    static final class Traffic {
        final long bytesReceived;
        final long responseBytes;
        final long watchBytes;
        final long watches;

        Traffic(long bytesReceived, long responseBytes, long watchBytes, long watches) {
            this.bytesReceived = bytesReceived;
            this.responseBytes = responseBytes;
            this.watchBytes = watchBytes;
            this.watches = watches;
        }
    }

    /** What the in-process server has counted so far ({@code ServerMetrics}) and the watches armed now (JMX). */
    Traffic traffic() {
        org.apache.zookeeper.server.ServerMetrics metrics = org.apache.zookeeper.server.ServerMetrics.getMetrics();
        long watches;
        try {
            watches = ((Number) JMX.getAttribute(new ObjectName(server + ",name1=InMemoryDataTree"), "WatchCount")).longValue();
        } catch (Exception e) {
            watches = -1;
        }
        return new Traffic(metrics.BYTES_RECEIVED_COUNT.get(), metrics.RESPONSE_BYTES.get(), metrics.WATCH_BYTES.get(),
                watches);
    }

    /** Requests received so far from every session but the coordinator's. */
    long members() {
        try {
            return (Long) JMX.getAttribute(server, "PacketsReceived") - (Long) JMX.getAttribute(coordinator, "PacketsReceived");
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the ZooKeeper server's request counters: " + e, e);
        }
    }
}
