package io.zkgroups.rebalancer.group;

import org.apache.zookeeper.KeeperException;

import java.util.Optional;

/**
 * A request a ZooKeeper server does not implement (UNIMPLEMENTED) somewhere in a failure's causes. Like a denial it
 * does not go away by retrying, and the server closes the connection after answering it, so a member that retried
 * would reconnect again and again and own nothing.
 */
final class UnimplementedRequest {

    private UnimplementedRequest() {
    }

    static Optional<KeeperException.UnimplementedException> in(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof KeeperException.UnimplementedException) {
                return Optional.of((KeeperException.UnimplementedException) t);
            }
        }
        return Optional.empty();
    }

    static String explain(String generation, Throwable failure) {
        return "a ZooKeeper server does not implement a request this member sent (UNIMPLEMENTED: " + failure.getMessage()
                + "); the servers were taken as ZooKeeper " + generation + ": set zkgroups.zookeeper.server.version to"
                + " the oldest server version of the ensemble (3.4, 3.5 or 3.6)";
    }
}
