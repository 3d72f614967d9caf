package io.zkgroups.registry.store;

import io.zkgroups.registry.RegistryException;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.ZooKeeper;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;

import org.apache.curator.framework.api.BackgroundCallback;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.framework.api.transaction.CuratorOp;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

/**
 * The few ZooKeeper primitives the stores share, with 0.8.2.2's semantics: parents are persistent with
 * explicit empty data (never containers, never Curator's default data), a missing node reads as empty,
 * and every failure names its path.
 */
public final class Znodes {

    private static final byte[] EMPTY = new byte[0];
    private static final long PIPELINE_TIMEOUT_SECONDS = 30;

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

    /**
     * The session id of the client's current ZooKeeper handle.
     *
     * @throws RegistryException while a session is being established: the handle then reports 0, which would make
     *                           persistent nodes (ephemeral owner 0) look like this session's ephemerals and says
     *                           nothing about whether the previous session ended
     */
    public long sessionId() {
        long session;
        try {
            session = client.getZookeeperClient().getZooKeeper().getSessionId();
        } catch (Exception e) {
            throw RegistryException.of("reading the session id of", "the ZooKeeper client", e);
        }
        if (session == 0) {
            throw new RegistryException("no ZooKeeper session yet: the client is (re)connecting");
        }
        return session;
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

    /**
     * Data of every path, read at once: the requests go out back to back and the replies come back together,
     * so many znodes cost about one round trip instead of one each. Missing nodes are absent from the result;
     * {@code watcher} (if given) is armed on each node that exists.
     */
    public Map<String, Data> readAll(Collection<String> paths, Watcher watcher) {
        Map<String, Data> read = new ConcurrentHashMap<>();
        pipeline(paths, (path, callback) -> sendRead(path, watcher, callback), collectInto(read));
        return new TreeMap<>(read);
    }

    /** An asynchronous read of {@code path}, arming {@code watcher} if given. */
    private void sendRead(String path, Watcher watcher, BackgroundCallback callback) throws Exception {
        if (watcher == null) {
            client.getData().inBackground(callback).forPath(path);
        } else {
            client.getData().usingWatcher(watcher).inBackground(callback).forPath(path);
        }
    }

    /** Puts the data of each read that found its node into {@code read}. */
    private static BiConsumer<String, CuratorEvent> collectInto(Map<String, Data> read) {
        return (path, event) -> {
            if (event.getResultCode() == KeeperException.Code.OK.intValue()) {
                read.put(path, new Data(event.getData(), event.getStat()));
            }
        };
    }

    /** Children of every path, listed at once (about one round trip); missing nodes are absent. */
    public Map<String, List<String>> childrenAll(Collection<String> paths) {
        Map<String, List<String>> listed = new ConcurrentHashMap<>();
        pipeline(paths, (path, callback) -> client.getChildren().inBackground(callback).forPath(path), (path, event) -> {
            if (event.getResultCode() == KeeperException.Code.OK.intValue()) {
                listed.put(path, event.getChildren());
            }
        });
        return new TreeMap<>(listed);
    }

    /**
     * Deletes those of {@code paths} that are ephemeral nodes of this client's session, all in one transaction
     * (after one pipelined read that finds which they are); nodes of other sessions are left alone. If the
     * transaction fails (something changed between the read and the delete), it goes one by one, skipping what
     * is gone. Returns the paths deleted.
     */
    public List<String> deleteOwnEphemerals(Collection<String> paths) {
        return deleteAll(sessionId(), ownEphemerals(readAll(paths, null)));
    }

    /**
     * Deletes every path of {@code versions} (path → expected version, -1 for any) in one transaction, the caller
     * knowing them to be ephemerals of {@code session}: sent on that session's handle only ({@link #deleteVouched}).
     * If the transaction fails, something changed since the caller looked (or the session ended): the nodes are read
     * again and those that are the current session's are deleted one by one. Returns the paths deleted.
     */
    public List<String> deleteAll(long session, Map<String, Integer> versions) {
        if (versions.isEmpty()) {
            return List.of();
        }
        boolean[] deleted = {false};
        Replies replies = new Replies(1);
        try {
            deleteVouched(session, versions, (rc, path, ctx, results) -> {
                deleted[0] = rc == KeeperException.Code.OK.intValue();
                replies.arrived();
            });
        } catch (Exception e) {
            throw RegistryException.of("deleting", describe(versions.keySet()), e);
        }
        replies.await(versions.keySet());
        if (deleted[0]) {
            return List.copyOf(versions.keySet());
        }
        List<String> gone = new ArrayList<>();
        ownEphemerals(readAll(versions.keySet(), null)).forEach((path, version) -> {
            try {
                client.delete().withVersion(version).forPath(path);
                gone.add(path);
            } catch (KeeperException.NoNodeException | KeeperException.BadVersionException notOurs) {
                // not ours any more
            } catch (Exception e) {
                throw RegistryException.of("deleting", path, e);
            }
        });
        return gone;
    }

    /** Of the nodes {@code read}, those that are ephemerals of this session, with their versions. */
    Map<String, Integer> ownEphemerals(Map<String, Data> read) {
        long session = sessionId();
        Map<String, Integer> versions = new TreeMap<>();
        read.forEach((path, data) -> {
            if (data.stat().getEphemeralOwner() == session) {
                versions.put(path, data.stat().getVersion());
            }
        });
        return versions;
    }

    /** An asynchronous ZooKeeper request for one path, answering to {@code callback}. */
    private interface AsyncRequest {
        void send(String path, BackgroundCallback callback) throws Exception;
    }

    /** Sends {@code request} for every path at once and waits for all replies; fails on any error but NONODE. */
    private void pipeline(Collection<String> paths, AsyncRequest request, BiConsumer<String, CuratorEvent> onReply) {
        if (paths.isEmpty()) {
            return;
        }
        Replies replies = new Replies(paths.size());
        BackgroundCallback callback = replies.callback(onReply);
        try {
            for (String path : paths) {
                request.send(path, callback);
            }
        } catch (Exception e) {
            throw RegistryException.of("reading", describe(paths), e);
        }
        replies.await(paths);
    }

    /**
     * What {@link #deleteCommitRead} got back: whether the deletes went through, whether the transaction was
     * committed, and the data of every path read (missing nodes are absent).
     */
    public record Committed(boolean deleted, boolean committed, Map<String, Data> reads) {
    }

    /**
     * Three requests back to back, about one round trip for all: {@code deletes} (path → version, -1 for any) in one
     * transaction bound to {@code session}, then {@code transaction}, then reads of {@code paths} arming {@code watcher}
     * (if given) on each node that exists. ZooKeeper answers a session's requests in the order they were sent, so the
     * reads see the outcome of both transactions. Failed transactions are reported in the result, not thrown; empty
     * ones are skipped and count as done.
     * <p>
     * The deletes are for nodes the caller knows to be {@code session}'s ephemerals without reading them. They go out
     * on that session's handle only ({@link #deleteVouched}); if the session has ended they fail, as they must.
     */
    public Committed deleteCommitRead(long session, Map<String, Integer> deletes, List<CuratorOp> transaction,
                                      Collection<String> paths, Watcher watcher) {
        boolean[] deleted = {deletes.isEmpty()};
        boolean[] committed = {transaction.isEmpty()};
        Map<String, Data> read = new ConcurrentHashMap<>();
        Replies replies = new Replies((deletes.isEmpty() ? 0 : 1) + (transaction.isEmpty() ? 0 : 1) + paths.size());
        BackgroundCallback readCallback = replies.callback(collectInto(read));
        try {
            if (!deletes.isEmpty()) {
                deleteVouched(session, deletes, (rc, path, ctx, opResults) -> {
                    deleted[0] = rc == KeeperException.Code.OK.intValue();
                    replies.arrived();
                });
            }
            if (!transaction.isEmpty()) {
                client.transaction().inBackground((c, event) -> {
                    committed[0] = event.getResultCode() == KeeperException.Code.OK.intValue();
                    replies.arrived();
                }).forOperations(transaction);
            }
            for (String path : paths) {
                sendRead(path, watcher, readCallback);
            }
        } catch (Exception e) {
            throw RegistryException.of("committing and reading", paths.isEmpty() ? "a transaction" : describe(paths), e);
        }
        replies.await(paths.isEmpty() ? List.of("a transaction") : paths);
        return new Committed(deleted[0], committed[0], new TreeMap<>(read));
    }

    /**
     * Sends the deletes of {@code versions} as one transaction on the ZooKeeper handle of {@code session} itself, not
     * through Curator, which would replay it on a new session after an expiry: there, a node at the same path with the
     * same version may be another member's claim. If the current handle is not {@code session}'s, {@code callback}
     * hears SESSIONEXPIRED at once.
     */
    private void deleteVouched(long session, Map<String, Integer> versions, AsyncCallback.MultiCallback callback)
            throws Exception {
        ZooKeeper handle = client.getZookeeperClient().getZooKeeper();
        if (handle.getSessionId() != session) {
            callback.processResult(KeeperException.Code.SESSIONEXPIRED.intValue(), null, null, null);
            return;
        }
        List<Op> ops = new ArrayList<>();
        versions.forEach((path, version) -> ops.add(Op.delete(ZKPaths.fixForNamespace(client.getNamespace(), path), version)));
        handle.multi(ops, callback, null);
    }

    /** {@code path} as the ZooKeeper handle sees it: with the client's namespace (chroot), if any. */
    public String namespaced(String path) {
        return ZKPaths.fixForNamespace(client.getNamespace(), path);
    }

    /**
     * Runs {@code ops} (built with {@link #namespaced} paths) as one {@code multi()} on the ZooKeeper handle of
     * {@code session} itself, synchronously, and never again: Curator would retry it after a connection loss, on a new
     * session too, where what the caller checked (its own ephemerals) may be someone else's. A connection loss leaves
     * the outcome unknown; then the request either was applied while the session was alive, or never will be.
     *
     * @throws KeeperException.SessionExpiredException if the client's handle is no longer {@code session}'s
     */
    public List<org.apache.zookeeper.OpResult> multiOnSession(long session, List<Op> ops)
            throws KeeperException, InterruptedException {
        ZooKeeper handle;
        try {
            handle = client.getZookeeperClient().getZooKeeper();
        } catch (Exception e) {
            throw new KeeperException.ConnectionLossException();
        }
        if (handle.getSessionId() != session) {
            throw new KeeperException.SessionExpiredException();
        }
        return handle.multi(ops);
    }

    /**
     * The ephemeral nodes of {@code session} under {@code prefix} (a path prefix, not only children), in one request
     * on that session's own handle; empty when the handle is no longer {@code session}'s or the server predates the
     * request (ZooKeeper 3.6): then the caller knows nothing more than before.
     */
    public Optional<List<String>> ephemeralsOfSession(long session, String prefix) {
        try {
            ZooKeeper handle = client.getZookeeperClient().getZooKeeper();
            if (handle.getSessionId() != session) {
                return Optional.empty();
            }
            // getEphemerals is the one request the client does not chroot: add the chroot, and take it off the answers
            String chroot = Objects.requireNonNullElse(new org.apache.zookeeper.client.ConnectStringParser(
                    client.getZookeeperClient().getCurrentConnectionString()).getChrootPath(), "");
            String root = chroot + namespaced("/");
            String strip = root.endsWith("/") ? root.substring(0, root.length() - 1) : root;
            List<String> paths = new ArrayList<>();
            for (String path : handle.getEphemerals(chroot + namespaced(prefix))) {
                if (path.startsWith(strip + "/")) {
                    paths.add(path.substring(strip.length()));
                }
            }
            return Optional.of(paths);
        } catch (KeeperException.UnimplementedException | KeeperException.SessionExpiredException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw RegistryException.of("listing the ephemerals of this session under", prefix, e);
        } catch (Exception e) {
            throw RegistryException.of("listing the ephemerals of this session under", prefix, e);
        }
    }

    /** Counts the replies of requests sent back to back and collects the unexpected errors among them. */
    private static final class Replies {
        private final CountDownLatch pending;
        private final int expected;
        private final List<String> failures = Collections.synchronizedList(new ArrayList<>());

        Replies(int expected) {
            this.expected = expected;
            this.pending = new CountDownLatch(expected);
        }

        void arrived() {
            pending.countDown();
        }

        /** A callback that hands OK and NONODE replies to {@code onReply} and records any other error. */
        BackgroundCallback callback(BiConsumer<String, CuratorEvent> onReply) {
            return (c, event) -> {
                try {
                    int rc = event.getResultCode();
                    if (rc == KeeperException.Code.OK.intValue() || rc == KeeperException.Code.NONODE.intValue()) {
                        onReply.accept(event.getPath(), event);
                    } else {
                        failures.add(event.getPath() + ": " + KeeperException.Code.get(rc));
                    }
                } finally {
                    pending.countDown();
                }
            };
        }

        /** Waits for every reply; throws if one did not come or was an unexpected error. */
        void await(Collection<String> paths) {
            try {
                if (!pending.await(PIPELINE_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                    throw new RegistryException("no reply from ZooKeeper within " + PIPELINE_TIMEOUT_SECONDS + " s for "
                            + pending.getCount() + " of " + expected + " requests, e.g. for " + paths.iterator().next()
                            + " (is ZooKeeper reachable?)");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw RegistryException.of("reading", describe(paths), e);
            }
            if (!failures.isEmpty()) {
                throw new RegistryException("reading " + failures.size() + " of " + paths.size() + " znodes failed, e.g. "
                        + failures.get(0));
            }
        }
    }

    private static String describe(Collection<String> paths) {
        return paths.iterator().next() + (paths.size() > 1 ? " (and " + (paths.size() - 1) + " more)" : "");
    }

    public static String parentOf(String path) {
        int slash = path.lastIndexOf('/');
        return slash <= 0 ? "/" : path.substring(0, slash);
    }
}
