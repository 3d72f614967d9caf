package io.zkgroups.registry.store;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import io.zkgroups.registry.Immutable;
import io.zkgroups.registry.RegistryException;
import io.zkgroups.registry.server.ServerCapabilities;
import io.zkgroups.registry.server.ServerGeneration;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.BackgroundCallback;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.framework.api.transaction.CuratorTransactionResult;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.ZooKeeper;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;

/**
 * The few ZooKeeper primitives the stores share, with 0.8.2.2's semantics: parents are persistent with
 * explicit empty data (never containers, never Curator's default data), a missing node reads as empty,
 * and every failure names its path. Writes to the ephemerals of a session are not here but in
 * {@link SessionWrites}: they must not go through Curator's retries.
 * <p>
 * No request goes out that the client's servers do not implement ({@link ServerGeneration}): on 3.4 a create is a
 * one-operation transaction instead of Curator's {@code create2}.
 * <p>
 * Thread-safe: it keeps no state of its own beyond the client, which is.
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

    /** What the client's ZooKeeper servers implement (learned on the first call, see {@link ServerCapabilities}). */
    public ServerGeneration generation() {
        return ServerCapabilities.of(client);
    }

    /**
     * Creates {@code path} (its parent must exist) with {@code data}, through Curator's retries, with a request every
     * server generation implements; returns the path created (with a sequential suffix, for a sequential mode).
     */
    public String create(String path, byte[] data, CreateMode mode) throws Exception {
        if (generation().hasCreate2()) {
            return client.create().withMode(mode).forPath(path, data);
        }
        List<CuratorTransactionResult> results = client.transaction()
                .forOperations(client.transactionOp().create().withMode(mode).forPath(path, data));
        return results.get(0).getResultPath();
    }

    /** As {@link #create}, and the new node's stat: answered with the create from 3.5 on, read after it on 3.4. */
    public Stat createForStat(String path, byte[] data, CreateMode mode) throws Exception {
        Stat stat = new Stat();
        if (generation().hasCreate2()) {
            client.create().storingStatIn(stat).withMode(mode).forPath(path, data);
            return stat;
        }
        String created = create(path, data, mode);
        Stat read = client.checkExists().forPath(created);
        if (read == null) {
            throw new KeeperException.NoNodeException(created); // an ephemeral whose session ended meanwhile
        }
        return read;
    }

    /** Data and stat of a znode; a value: equal when both the bytes and the stat are. */
    @JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY) // JSON output (CLI) shows the fields
    public static final class Data {
        private final byte[] bytes;
        private final Stat stat;

        public Data(byte[] bytes, Stat stat) {
            this.bytes = bytes;
            this.stat = stat;
        }

        public byte[] bytes() {
            return bytes;
        }

        public Stat stat() {
            return stat;
        }

        @Override
        public boolean equals(Object o) {
            if (o == this) {
                return true;
            }
            if (!(o instanceof Data)) {
                return false;
            }
            Data that = (Data) o;
            return Arrays.equals(bytes, that.bytes)
                    && Objects.equals(stat, that.stat);
        }

        @Override
        public int hashCode() {
            int h = 0;
            h = 31 * h + Arrays.hashCode(bytes);
            h = 31 * h + Objects.hashCode(stat);
            return h;
        }

        /** The bytes as text when they are printable UTF-8 (all 0.8 data is), else in hex; the stat's version and owner. */
        @Override
        public String toString() {
            String stated = stat == null ? "null"
                    : "[version=" + stat.getVersion() + ", ephemeralOwner=0x" + Long.toHexString(stat.getEphemeralOwner()) + "]";
            return "Data[bytes=" + readable(bytes) + ", stat=" + stated + "]";
        }

        static String readable(byte[] bytes) {
            if (bytes == null) {
                return "null";
            }
            String text = new String(bytes, StandardCharsets.UTF_8);
            boolean printable = Arrays.equals(text.getBytes(StandardCharsets.UTF_8), bytes)
                    && text.codePoints().noneMatch(c -> Character.isISOControl(c) && c != '\n' && c != '\t');
            if (printable) {
                return '"' + text + '"';
            }
            StringBuilder hex = new StringBuilder("0x");
            for (byte b : bytes) {
                hex.append(String.format("%02x", b));
            }
            return hex.toString();
        }
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
            createWithParents(path, EMPTY);
        } catch (KeeperException.NodeExistsException alreadyThere) {
            // fine: parents are shared by every member
        } catch (Exception e) {
            throw RegistryException.of("creating", path, e);
        }
    }

    /** Creates the persistent {@code path} with {@code data}, and its missing ancestors with empty data. */
    private void createWithParents(String path, byte[] data) throws Exception {
        try {
            create(path, data, CreateMode.PERSISTENT);
        } catch (KeeperException.NoNodeException noParent) {
            String parent = parentOf(path);
            if (parent.equals("/")) {
                throw noParent;
            }
            try {
                createWithParents(parent, EMPTY);
            } catch (KeeperException.NodeExistsException raced) {
                // another client made it: fine
            }
            create(path, data, CreateMode.PERSISTENT);
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
            return Collections.emptyList();
        } catch (Exception e) {
            throw RegistryException.of("listing", path, e);
        }
    }

    public List<String> children(String path) {
        return children(path, null);
    }

    /** Children of {@code path}; empty if {@code path} does not exist. */
    public Optional<List<String>> childrenIfExists(String path) {
        try {
            return Optional.of(client.getChildren().forPath(path));
        } catch (KeeperException.NoNodeException missing) {
            return Optional.empty();
        } catch (Exception e) {
            throw RegistryException.of("listing", path, e);
        }
    }

    /**
     * Sends the addition of a persistent recursive {@code watcher} on {@code path} and returns at once, so that a
     * read sent next goes in the same round trip (a session's requests are applied in order: the watch is armed
     * before the read is answered). The result: OK, or the code ZooKeeper answered with.
     */
    public CompletableFuture<KeeperException.Code> addRecursiveWatchAsync(String path, Watcher watcher) {
        CompletableFuture<KeeperException.Code> answer = new CompletableFuture<>();
        try {
            client.watchers().add().withMode(AddWatchMode.PERSISTENT_RECURSIVE)
                    .inBackground((c, event) -> answer.complete(KeeperException.Code.get(event.getResultCode())))
                    .usingWatcher(watcher).forPath(path);
        } catch (Exception e) {
            answer.completeExceptionally(e);
        }
        return answer;
    }

    /**
     * The answer of {@link #addRecursiveWatchAsync}, awaited after the read sent behind it was answered (so it came
     * already, or is on its way through the client's event thread); any failure, or no answer within the
     * connection's timeout, is a code other than OK.
     */
    public KeeperException.Code awaitAnswer(CompletableFuture<KeeperException.Code> answer) {
        try {
            return answer.get(client.getZookeeperClient().getConnectionTimeoutMs(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return KeeperException.Code.OPERATIONTIMEOUT;
        } catch (ExecutionException e) {
            return e.getCause() instanceof KeeperException ? ((KeeperException) e.getCause()).code()
                    : KeeperException.Code.SYSTEMERROR;
        } catch (TimeoutException e) {
            return KeeperException.Code.OPERATIONTIMEOUT;
        }
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
                    createWithParents(path, data);
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

    /** The most reads one {@link #readSmall} request carries: far below {@code jute.maxbuffer} for small znodes. */
    static final int MULTI_READ_BATCH = 500;

    /**
     * Data of every path, as {@link #readAll} without a watcher, for znodes whose data is small (offsets): where the
     * servers have multi-reads (3.6+) in one request per {@value #MULTI_READ_BATCH} paths, through Curator's retries
     * (reads are safe to repeat); elsewhere one request each, pipelined. Missing nodes are absent from the result, which
     * is in no particular order: its callers look paths up, and a sorted map of a thousand long paths that share their
     * first 60 characters spends its time comparing them.
     */
    public Map<String, Data> readSmall(Collection<String> paths) {
        if (paths.size() < 2 || !generation().hasMultiRead()) {
            return readAll(paths, null);
        }
        Map<String, Data> read = new HashMap<>(paths.size() * 2);
        List<String> all = Immutable.list(paths);
        for (int from = 0; from < all.size(); from += MULTI_READ_BATCH) {
            List<String> batch = all.subList(from, Math.min(all.size(), from + MULTI_READ_BATCH));
            List<Op> ops = batch.stream().map(path -> Op.getData(namespaced(path))).collect(Immutable.toList());
            List<org.apache.zookeeper.OpResult> results;
            try {
                results = org.apache.curator.RetryLoop.callWithRetry(client.getZookeeperClient(),
                        () -> client.getZookeeperClient().getZooKeeper().multi(ops));
            } catch (Exception e) {
                throw RegistryException.of("reading", describe(batch), e);
            }
            for (int i = 0; i < batch.size(); i++) {
                if (results.get(i) instanceof org.apache.zookeeper.OpResult.GetDataResult) {
                    org.apache.zookeeper.OpResult.GetDataResult found = (org.apache.zookeeper.OpResult.GetDataResult) results.get(i);
                    read.put(batch.get(i), new Data(found.getData(), found.getStat()));
                }
            }
        }
        return read;
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
    void sendRead(String path, Watcher watcher, BackgroundCallback callback) throws Exception {
        if (watcher == null) {
            client.getData().inBackground(callback).forPath(path);
        } else {
            client.getData().usingWatcher(watcher).inBackground(callback).forPath(path);
        }
    }

    /** Puts the data of each read that found its node into {@code read}. */
    static BiConsumer<String, CuratorEvent> collectInto(Map<String, Data> read) {
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

    /** Of the nodes {@code read}, those that are ephemerals of {@code session}, with their versions. */
    static Map<String, Integer> ephemeralsOf(long session, Map<String, Data> read) {
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
        if (!generation().hasGetEphemerals()) {
            return Optional.empty();
        }
        try {
            ZooKeeper handle = client.getZookeeperClient().getZooKeeper();
            if (handle.getSessionId() != session) {
                return Optional.empty();
            }
            // getEphemerals is the one request the client does not chroot: add the chroot, and take it off the answers
            String chrootPath = new org.apache.zookeeper.client.ConnectStringParser(
                    client.getZookeeperClient().getCurrentConnectionString()).getChrootPath();
            String chroot = chrootPath == null ? "" : chrootPath;
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

    static String describe(Collection<String> paths) {
        return paths.iterator().next() + (paths.size() > 1 ? " (and " + (paths.size() - 1) + " more)" : "");
    }

    public static String parentOf(String path) {
        int slash = path.lastIndexOf('/');
        return slash <= 0 ? "/" : path.substring(0, slash);
    }
}
