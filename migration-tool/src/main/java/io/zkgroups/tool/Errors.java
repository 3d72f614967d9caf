package io.zkgroups.tool;

import io.zkgroups.registry.RegistryException;
import io.zkgroups.registry.ZkNames;
import io.zkgroups.registry.store.CorruptZnodeException;
import org.apache.zookeeper.KeeperException;

/** Turns any failure into a {@link CliException}: one line for the user and an exit code. */
public final class Errors {

    private Errors() {
    }

    public static CliException translate(Throwable e) {
        if (e instanceof CliException cli) {
            return cli;
        }
        if (e instanceof ZkNames.InvalidNameException invalid) {
            return new CliException(ExitCode.USAGE, invalid.getMessage(), e);
        }
        if (e instanceof CorruptZnodeException corrupt) {
            return new CliException(ExitCode.UNREADABLE_ZNODE, corrupt.getMessage(), e);
        }
        if (e instanceof RegistryException registry) {
            KeeperException ke = keeperCause(e);
            if (ke != null) {
                switch (ke.code()) {
                    case NOAUTH, AUTHFAILED, SESSIONCLOSEDREQUIRESASLAUTH -> {
                        return new CliException(ExitCode.UNREACHABLE, "ZooKeeper refused access: " + registry.getMessage()
                                + " (check --zk-auth)", e);
                    }
                    case CONNECTIONLOSS, SESSIONEXPIRED, OPERATIONTIMEOUT, SESSIONMOVED -> {
                        return new CliException(ExitCode.UNREACHABLE, "lost ZooKeeper: " + registry.getMessage(), e);
                    }
                    default -> {
                        return new CliException(ExitCode.INTERNAL, "ZooKeeper error: " + registry.getMessage(), e);
                    }
                }
            }
            if (String.valueOf(registry.getMessage()).contains("is ZooKeeper reachable")) {
                return new CliException(ExitCode.UNREACHABLE, registry.getMessage(), e);
            }
            return new CliException(ExitCode.INTERNAL, "ZooKeeper error: " + registry.getMessage(), e);
        }
        return new CliException(ExitCode.INTERNAL, "internal error: " + e.getClass().getName()
                + (e.getMessage() == null ? "" : ": " + e.getMessage()) + " (rerun with --verbose for the stack trace)", e);
    }

    private static KeeperException keeperCause(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof KeeperException ke) {
                return ke;
            }
        }
        return null;
    }
}
