package io.zkgroups.registry.store;

import io.zkgroups.registry.Immutable;
import io.zkgroups.registry.RegistryException;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.BackgroundCallback;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Writes to the ephemeral znodes of one ZooKeeper session — a member's owner znodes and its registration — sent on the
 * ZooKeeper handle of that session itself, never through Curator's retry loop.
 * <p>
 * Curator replays a request that failed with CONNECTIONLOSS or SESSIONEXPIRED on whatever session the client has by
 * then. For these writes that is wrong: after an expiry, a delete by version removes another member's node that took
 * the same path (an owner znode always has version 0), and a claim or a registration update acts for a session that
 * no longer holds the registration. Here every request names its session: it goes to that session's handle, or comes
 * back SESSIONEXPIRED at once if the client has moved on to another session, and its outcome is reported, never
 * retried. The callers read again (reads may go through Curator: they change nothing) and decide anew.
 * <p>
 * Requests too large for one {@code multi()} go in several ({@link MultiBatches}), sent at once.
 */
final class SessionWrites {

    /** How one {@code multi()} came back: OK, or its error and the index of the op that failed (-1: none did). */
    static final class Outcome {
        private final KeeperException.Code code;
        private final int failedOp;

        Outcome(KeeperException.Code code, int failedOp) {
            this.code = code;
            this.failedOp = failedOp;
        }

        static final Outcome OK = new Outcome(KeeperException.Code.OK, -1);
        /** The client is no longer in the session the request was meant for: it was not sent. */
        static final Outcome SESSION_ENDED = new Outcome(KeeperException.Code.SESSIONEXPIRED, -1);

        boolean ok() {
            return code == KeeperException.Code.OK;
        }

        static Outcome of(int rc, List<OpResult> results) {
            if (rc == KeeperException.Code.OK.intValue()) {
                return OK;
            }
            if (results != null) {
                for (int i = 0; i < results.size(); i++) {
                    OpResult result = results.get(i);
                    int err = result instanceof OpResult.ErrorResult ? ((OpResult.ErrorResult) result).getErr()
                            : KeeperException.Code.OK.intValue();
                    if (err != KeeperException.Code.OK.intValue()) {
                        return new Outcome(KeeperException.Code.get(err), i);
                    }
                }
            }
            return new Outcome(KeeperException.Code.get(rc), -1);
        }

        public KeeperException.Code code() {
            return code;
        }

        public int failedOp() {
            return failedOp;
        }

        @Override
        public boolean equals(Object o) {
            if (o == this) {
                return true;
            }
            if (!(o instanceof Outcome)) {
                return false;
            }
            Outcome that = (Outcome) o;
            return Objects.equals(code, that.code)
                    && failedOp == that.failedOp;
        }

        @Override
        public int hashCode() {
            int h = 0;
            h = 31 * h + Objects.hashCode(code);
            h = 31 * h + Integer.hashCode(failedOp);
            return h;
        }

        @Override
        public String toString() {
            return "Outcome[code=" + code + ", failedOp=" + failedOp + "]";
        }
    }

    /**
     * What {@link #deleteCommitRead} got back: the batches of deletes and how each came back, how each transaction
     * came back, and the data of every path read (missing nodes are absent).
     */
    static final class Committed {
        private final List<Map<String, Integer>> deleteBatches;
        private final List<Outcome> deletes;
        private final List<Outcome> transactions;
        private final Map<String, Znodes.Data> reads;

        Committed(List<Map<String, Integer>> deleteBatches, List<Outcome> deletes, List<Outcome> transactions, Map<String, Znodes.Data> reads) {
            this.deleteBatches = deleteBatches;
            this.deletes = deletes;
            this.transactions = transactions;
            this.reads = reads;
        }

        /** The same outcomes with {@code more} reads added (reads sent after these requests). */
        Committed withReads(Map<String, Znodes.Data> more) {
            Map<String, Znodes.Data> all = new TreeMap<>(reads);
            all.putAll(more);
            return new Committed(deleteBatches, deletes, transactions, all);
        }

        /** Whether every delete went through. */
        boolean deleted() {
            return deletes.stream().allMatch(Outcome::ok);
        }

        /** Whether every transaction was committed. */
        boolean committed() {
            return transactions.stream().allMatch(Outcome::ok);
        }

        /** The paths of the batches of deletes that went through. */
        List<String> deletedPaths() {
            List<String> deleted = new ArrayList<>();
            for (int i = 0; i < deletes.size(); i++) {
                if (deletes.get(i).ok()) {
                    deleted.addAll(deleteBatches.get(i).keySet());
                }
            }
            return deleted;
        }

        public List<Map<String, Integer>> deleteBatches() {
            return deleteBatches;
        }

        public List<Outcome> deletes() {
            return deletes;
        }

        public List<Outcome> transactions() {
            return transactions;
        }

        public Map<String, Znodes.Data> reads() {
            return reads;
        }

        @Override
        public boolean equals(Object o) {
            if (o == this) {
                return true;
            }
            if (!(o instanceof Committed)) {
                return false;
            }
            Committed that = (Committed) o;
            return Objects.equals(deleteBatches, that.deleteBatches)
                    && Objects.equals(deletes, that.deletes)
                    && Objects.equals(transactions, that.transactions)
                    && Objects.equals(reads, that.reads);
        }

        @Override
        public int hashCode() {
            int h = 0;
            h = 31 * h + Objects.hashCode(deleteBatches);
            h = 31 * h + Objects.hashCode(deletes);
            h = 31 * h + Objects.hashCode(transactions);
            h = 31 * h + Objects.hashCode(reads);
            return h;
        }

        @Override
        public String toString() {
            return "Committed[deleteBatches=" + deleteBatches + ", deletes=" + deletes + ", transactions=" + transactions + ", reads=" + reads + "]";
        }
    }

    private static final Set<KeeperException.Code> NOT_OURS_ANY_MORE = Immutable.setOf(KeeperException.Code.NONODE,
            KeeperException.Code.BADVERSION, KeeperException.Code.SESSIONEXPIRED);

    private final Znodes znodes;
    private final CuratorFramework client;

    SessionWrites(Znodes znodes) {
        this.znodes = Objects.requireNonNull(znodes, "znodes cannot be null");
        this.client = znodes.client();
    }

    /** An op creating the ephemeral {@code path} (Curator applies its namespace and ACLs; we send it). */
    Op createEphemeral(String path, byte[] data) {
        return op(path, () -> client.transactionOp().create().withMode(CreateMode.EPHEMERAL).forPath(path, data));
    }

    /** An op creating the persistent {@code path} (namespace and ACLs from Curator, like every other create). */
    Op createPersistent(String path, byte[] data) {
        return op(path, () -> client.transactionOp().create().withMode(CreateMode.PERSISTENT).forPath(path, data));
    }

    /** An op writing {@code data} to {@code path}, whatever its version. */
    Op setData(String path, byte[] data) {
        return op(path, () -> client.transactionOp().setData().forPath(path, data));
    }

    /** An op that fails unless {@code path} exists. */
    Op check(String path) {
        return op(path, () -> client.transactionOp().check().forPath(path));
    }

    Op delete(String path, int version) {
        return op(path, () -> client.transactionOp().delete().withVersion(version).forPath(path));
    }

    Op setData(String path, byte[] data, int version) {
        return op(path, () -> client.transactionOp().setData().withVersion(version).forPath(path, data));
    }

    private static Op op(String path, Callable<CuratorOp> build) {
        try {
            return build.call().get();
        } catch (Exception e) {
            throw RegistryException.of("preparing a request for", path, e);
        }
    }

    /**
     * Deletes those of {@code paths} that are ephemerals of this client's session, after one pipelined read that finds
     * which they are; nodes of other sessions are left alone. Returns the paths deleted.
     */
    List<String> deleteOwnEphemerals(Collection<String> paths) {
        long session = znodes.sessionId();
        return deleteAll(session, Znodes.ephemeralsOf(session, znodes.readAll(paths, null)));
    }

    /**
     * Deletes every path of {@code versions} (path → expected version, -1 for any), the caller knowing them to be
     * ephemerals of {@code session}: one {@code multi()} per batch, all sent at once on that session's handle. If a
     * batch fails, something changed since the caller looked, or the session ended: its nodes are read again, and those
     * still ephemerals of {@code session} are deleted one by one, on that handle too. Nothing is deleted once the
     * session has ended (its ephemerals went with it). Returns the paths deleted.
     *
     * @throws RegistryException if ZooKeeper fails otherwise (a lost connection: what was deleted is then unknown)
     */
    List<String> deleteAll(long session, Map<String, Integer> versions) {
        if (versions.isEmpty()) {
            return Collections.emptyList();
        }
        Committed done = deleteCommitRead(session, versions, Collections.emptyList(), Collections.emptyList(), null,
                Collections.emptyList());
        List<String> deleted = new ArrayList<>(done.deletedPaths());
        if (!done.deleted()) {
            Set<String> left = new TreeSet<>(versions.keySet());
            deleted.forEach(left::remove);
            deleted.addAll(deleteOneByOne(session, Znodes.ephemeralsOf(session, znodes.readAll(left, null))));
        }
        return deleted;
    }

    /** Deletes each of {@code versions} in a request of its own, all sent at once; skips what is not ours any more. */
    private List<String> deleteOneByOne(long session, Map<String, Integer> versions) {
        List<String> paths = new ArrayList<>(versions.keySet());
        List<List<Op>> requests = paths.stream().map(path -> Collections.singletonList(delete(path, versions.get(path))))
                .collect(Immutable.toList());
        List<Outcome> outcomes = deleteCommitRead(session, Collections.emptyMap(), requests, Collections.emptyList(),
                null, Collections.emptyList()).transactions();
        List<String> deleted = new ArrayList<>();
        for (int i = 0; i < paths.size(); i++) {
            Outcome outcome = outcomes.get(i);
            if (outcome.ok()) {
                deleted.add(paths.get(i));
            } else if (!NOT_OURS_ANY_MORE.contains(outcome.code())) {
                throw new RegistryException("deleting " + paths.get(i) + " failed: " + outcome.code()
                        + (outcome.code() == KeeperException.Code.CONNECTIONLOSS ? " (is ZooKeeper reachable?)" : ""));
            }
        }
        return deleted;
    }

    /** Sends {@code ops} as one {@code multi()} on the handle of {@code session} and waits for its outcome. */
    Outcome multi(long session, List<Op> ops) {
        return deleteCommitRead(session, Collections.emptyMap(), Collections.singletonList(ops), Collections.emptyList(),
                null, Collections.emptyList()).transactions().get(0);
    }

    /**
     * Requests back to back, about one round trip for all: the deletes of {@code deletes} (path → version, -1 for any)
     * in batches, then each of {@code transactions} as one {@code multi()} — all on the handle of {@code session} — then
     * reads of {@code watched} arming {@code watcher} (if given) on each node that exists, and reads of
     * {@code unwatched}. ZooKeeper answers a session's requests in the order they were sent, so the reads see the
     * outcome of the writes. Failed writes are reported in the result, not thrown.
     * <p>
     * The deletes are for nodes the caller knows to be {@code session}'s ephemerals without reading them: if the
     * session has ended they fail, as they must, instead of deleting what another member created at the same path.
     */
    Committed deleteCommitRead(long session, Map<String, Integer> deletes, List<List<Op>> transactions,
                               Collection<String> watched, Watcher watcher, Collection<String> unwatched) {
        List<Map<String, Integer>> deleteBatches = MultiBatches.split(deletes, e -> e.getKey().length());
        Outcome[] deleted = new Outcome[deleteBatches.size()];
        Outcome[] committed = new Outcome[transactions.size()];
        Map<String, Znodes.Data> read = new ConcurrentHashMap<>();
        Replies replies = new Replies(deleted.length + committed.length + watched.size() + unwatched.size());
        BackgroundCallback readCallback = replies.callback(Znodes.collectInto(read));
        Collection<String> described = !watched.isEmpty() ? watched : !deletes.isEmpty() ? deletes.keySet()
                : Collections.singletonList("a transaction of session 0x" + Long.toHexString(session));
        try {
            ZooKeeper handle = handleOf(session);
            for (int i = 0; i < deleted.length; i++) {
                int batch = i;
                List<Op> ops = new ArrayList<>();
                deleteBatches.get(i).forEach((path, version) -> ops.add(delete(path, version)));
                send(handle, ops, outcome -> {
                    deleted[batch] = outcome;
                    replies.arrived();
                });
            }
            for (int i = 0; i < committed.length; i++) {
                int transaction = i;
                send(handle, transactions.get(i), outcome -> {
                    committed[transaction] = outcome;
                    replies.arrived();
                });
            }
            for (String path : watched) {
                znodes.sendRead(path, watcher, readCallback);
            }
            for (String path : unwatched) {
                znodes.sendRead(path, null, readCallback);
            }
        } catch (Exception e) {
            throw RegistryException.of("writing", Znodes.describe(described), e);
        }
        replies.await(described);
        return new Committed(deleteBatches, Immutable.listOf(deleted), Immutable.listOf(committed), new TreeMap<>(read));
    }

    /** The client's ZooKeeper handle if it is still in {@code session}; null if it has moved on to another one. */
    private ZooKeeper handleOf(long session) throws Exception {
        ZooKeeper handle = client.getZookeeperClient().getZooKeeper();
        return handle.getSessionId() == session ? handle : null;
    }

    private static void send(ZooKeeper handle, List<Op> ops, Consumer<Outcome> onReply) {
        if (handle == null) {
            onReply.accept(Outcome.SESSION_ENDED);
            return;
        }
        handle.multi(ops, (rc, path, ctx, results) -> onReply.accept(Outcome.of(rc, results)), null);
    }
}
