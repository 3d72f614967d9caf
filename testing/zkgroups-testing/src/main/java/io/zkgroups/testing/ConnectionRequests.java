package io.zkgroups.testing;

import org.apache.curator.framework.CuratorFramework;

import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;

/**
 * The requests an in-process test ZooKeeper server received on one client's current connection, as the server
 * counts them: the {@code PacketsReceived} of its per-connection JMX bean, found by session id.
 */
public final class ConnectionRequests {

    private static final MBeanServer JMX = ManagementFactory.getPlatformMBeanServer();

    private ConnectionRequests() {
    }

    /** Requests received so far from {@code client} on its current connection to the server at {@code connectString}. */
    public static long of(String connectString, CuratorFramework client) {
        String port = connectString.substring(connectString.lastIndexOf(':') + 1);
        try {
            String session = "0x" + Long.toHexString(client.getZookeeperClient().getZooKeeper().getSessionId());
            ObjectName connections = new ObjectName(
                    "org.apache.ZooKeeperService:name0=StandaloneServer_port" + port + ",name1=Connections,*");
            for (ObjectName connection : JMX.queryNames(connections, null)) {
                if (session.equals(JMX.getAttribute(connection, "SessionId"))) {
                    return (Long) JMX.getAttribute(connection, "PacketsReceived");
                }
            }
            throw new IllegalStateException("the ZooKeeper server on port " + port + " has no connection of session " + session);
        } catch (IllegalStateException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the ZooKeeper server's connection beans on port " + port + ": " + e, e);
        }
    }
}
