package io.zkgroups.registry.store;

import io.zkgroups.registry.RegistryException;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The few ZooKeeper primitives the stores share, with 0.8.2.2's semantics: parents are persistent with
 * explicit empty data (never containers, never Curator's default data), a missing node reads as empty,
 * and every failure names its path.
 */
public final class Znodes {

    private static final byte[] EMPTY = new byte[0];

    private final CuratorFramework client;

    public Znodes(CuratorFramework client) {
        this.client = Objects.requireNonNull(client, "client cannot be null");
    }

    public CuratorFramework client() {
        return client;
    }

    /** Data and stat of a znode. */
    public record Data(byte[] bytes, Stat stat) {
    }

    /** The session id of the client's current ZooKeeper handle. */
    public long sessionId() {
        try {
            return client.getZookeeperClient().getZooKeeper().getSessionId();
        } catch (Exception e) {
            throw RegistryException.of("reading the session id of", "the ZooKeeper client", e);
        }
    }

    /** Creates {@code path} and its missing ancestors as persistent nodes with empty data; idempotent. */
    public void ensurePersistent(String path) {
        try {
            client.create().creatingParentsIfNeeded().withMode(CreateMode.PERSISTENT).forPath(path, EMPTY);
        } catch (KeeperException.NodeExistsException alreadyThere) {
            // fine: parents are shared by every member
        } catch (Exception e) {
            throw RegistryException.of("creating", path, e);
        }
    }

    /** Data of {@code path}, empty when it does not exist; arms {@code watcher} (if given) on the node. */
    public Optional<Data> read(String path, Watcher watcher) {
        Stat stat = new Stat();
        try {
            byte[] bytes = watcher == null
                    ? client.getData().storingStatIn(stat).forPath(path)
                    : client.getData().storingStatIn(stat).usingWatcher(watcher).forPath(path);
            return Optional.of(new Data(bytes, stat));
        } catch (KeeperException.NoNodeException missing) {
            if (watcher != null) {
                existsWatch(path, watcher);
            }
            return Optional.empty();
        } catch (Exception e) {
            throw RegistryException.of("reading", path, e);
        }
    }

    public Optional<Data> read(String path) {
        return read(path, null);
    }

    /** Children of {@code path}, empty when it does not exist; arms {@code watcher} (if given). */
    public List<String> children(String path, Watcher watcher) {
        try {
            return watcher == null
                    ? client.getChildren().forPath(path)
                    : client.getChildren().usingWatcher(watcher).forPath(path);
        } catch (KeeperException.NoNodeException missing) {
            if (watcher != null) {
                existsWatch(path, watcher);
            }
            return List.of();
        } catch (Exception e) {
            throw RegistryException.of("listing", path, e);
        }
    }

    public List<String> children(String path) {
        return children(path, null);
    }

    /** Arms {@code watcher} on the creation (or change) of {@code path}; returns whether it exists. */
    public boolean existsWatch(String path, Watcher watcher) {
        try {
            return client.checkExists().usingWatcher(watcher).forPath(path) != null;
        } catch (Exception e) {
            throw RegistryException.of("watching", path, e);
        }
    }

    public boolean exists(String path) {
        try {
            return client.checkExists().forPath(path) != null;
        } catch (Exception e) {
            throw RegistryException.of("checking", path, e);
        }
    }

    /** 0.8.2.2's {@code updatePersistentPath}: unconditional write, creating the node (and parents) if needed. */
    public void writePersistent(String path, byte[] data) {
        try {
            try {
                client.setData().forPath(path, data);
            } catch (KeeperException.NoNodeException missing) {
                try {
                    client.create().creatingParentsIfNeeded().withMode(CreateMode.PERSISTENT).forPath(path, data);
                } catch (KeeperException.NodeExistsException raced) {
                    client.setData().forPath(path, data);
                }
            }
        } catch (Exception e) {
            throw RegistryException.of("writing", path, e);
        }
    }

    /** Deletes {@code path} and everything below it; a missing node is fine. */
    public void deleteRecursively(String path) {
        try {
            client.delete().deletingChildrenIfNeeded().forPath(path);
        } catch (KeeperException.NoNodeException gone) {
            // already gone
        } catch (Exception e) {
            throw RegistryException.of("deleting", path, e);
        }
    }

    public static String parentOf(String path) {
        int slash = path.lastIndexOf('/');
        return slash <= 0 ? "/" : path.substring(0, slash);
    }
}
