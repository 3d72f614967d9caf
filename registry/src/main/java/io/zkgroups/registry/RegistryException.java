package io.zkgroups.registry;

/**
 * A ZooKeeper operation of the registry failed. The message names the path and what to do next; the
 * cause is the underlying ZooKeeper or Curator exception.
 */
public class RegistryException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public RegistryException(String message) {
        super(message);
    }

    public RegistryException(String message, Throwable cause) {
        super(message, cause);
    }

    /** Wraps a failure of an operation on {@code path}, keeping interruption visible to the caller. */
    public static RegistryException of(String operation, String path, Exception cause) {
        if (cause instanceof InterruptedException) {
            Thread.currentThread().interrupt();
        }
        if (cause instanceof RegistryException) {
            return (RegistryException) cause;
        }
        return new RegistryException(operation + " " + path + " failed: " + describe(cause), cause);
    }

    private static String describe(Exception cause) {
        if (cause instanceof org.apache.zookeeper.KeeperException) {
            org.apache.zookeeper.KeeperException ke = (org.apache.zookeeper.KeeperException) cause;
            return ke.code().name() + (ke.code() == org.apache.zookeeper.KeeperException.Code.CONNECTIONLOSS
                    || ke.code() == org.apache.zookeeper.KeeperException.Code.SESSIONEXPIRED
                    ? " (is ZooKeeper reachable?)" : "");
        }
        return cause.getClass().getSimpleName() + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
    }
}
