package io.zkgroups.rebalancer.group;

import org.apache.zookeeper.KeeperException;

import java.util.Optional;

/**
 * A ZooKeeper permission error (NOAUTH) somewhere in a failure's causes. Unlike a lost connection it does not go
 * away by retrying: the client's credentials do not match the group znodes' ACLs until an operator changes one of
 * them, so a member that retried would sit in the group silently, owning nothing, forever.
 */
final class ZooKeeperDenial {

    private ZooKeeperDenial() {
    }

    /** The NOAUTH error behind {@code failure}, if there is one. */
    static Optional<KeeperException.NoAuthException> in(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof KeeperException.NoAuthException) {
                return Optional.of((KeeperException.NoAuthException) t);
            }
        }
        return Optional.empty();
    }

    /** What the member says when it gives up: where it was denied and what to check. */
    static String explain(String group, KeeperException.NoAuthException denied) {
        String where = denied.getPath() == null ? "a znode of group " + group : denied.getPath();
        return "ZooKeeper denied access to " + where + " (NOAUTH): this client's credentials do not match the ACLs"
                + " of group " + group + "'s znodes; check zkgroups.zookeeper.auth, zookeeper.sasl.* and the client"
                + " certificate against the ACLs (zookeeper.set.acl writes them)";
    }
}
