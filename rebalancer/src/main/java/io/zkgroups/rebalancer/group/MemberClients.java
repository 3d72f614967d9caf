package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.security.ZkClientSecurity;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;

/**
 * How a group member's Curator client is set up: the consumer's ({@code ZooKeeperConnection}) and that of anyone who
 * runs a bare {@link ZkGroupMember} the same way (the benchmarks).
 */
public final class MemberClients {

    private MemberClients() {
    }

    /**
     * A builder for a member's client of {@code connectString}, with {@code security} applied: ZooKeeper's client
     * configuration without a TLS set-up nobody asked for, and no ensemble tracker — as 0.8.2.2, the connect string is
     * the one configured (Curator's tracker would read and watch {@code /zookeeper/config} on every connection and
     * could replace the string: proxies, DNS names, chroot). The chroot is in the connect string, so the layout the
     * client sees starts at its root.
     */
    public static CuratorFrameworkFactory.Builder builder(String connectString, int sessionTimeoutMs,
                                                          int connectionTimeoutMs, ZkClientSecurity security) {
        CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
                .connectString(connectString)
                .sessionTimeoutMs(sessionTimeoutMs)
                .connectionTimeoutMs(connectionTimeoutMs)
                .retryPolicy(new ExponentialBackoffRetry(100, 29, 1_000))
                .ensembleTracker(false);
        return security.applyTo(builder, ZkLayout.root());
    }
}
