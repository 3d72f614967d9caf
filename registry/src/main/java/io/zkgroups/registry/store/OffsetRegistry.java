package io.zkgroups.registry.store;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import io.zkgroups.registry.Immutable;
import io.zkgroups.registry.RegistryException;
import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.ZkNames;
import io.zkgroups.registry.codec.DecodeException;
import io.zkgroups.registry.codec.OffsetCodec;
import io.zkgroups.registry.model.TopicAndPartition;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

/**
 * Offsets under {@code /consumers/G/offsets/T/P}: decimal text of the next offset to consume.
 * <p>
 * Reads are pipelined (one round trip for many partitions). Commits skip values that did not change
 * since this store last read or wrote them (0.8.2.2's checkpoint) and write the rest in {@code multi()}
 * batches sized to stay well under {@code jute.maxbuffer}: {@code setData} for znodes known to exist
 * (from the checkpoint, else from one listing per topic directory), {@code create} for the others; missing
 * topic directories are created in {@code multi()} too. A batch is atomic; batches are not.
 * Writes are unconditional, like 0.8.2.2: guarding against rewinds is the caller's business.
 * <p>
 * Thread-safe: the checkpoint and the known directories are concurrent; two commits of one partition at once land in
 * no defined order.
 */
public final class OffsetRegistry {

    /** What a read found: offsets of the partitions that have one, and znodes that could not be read. */
    @JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY) // JSON output (CLI) shows the fields
    public static final class OffsetRead {
        private final Map<TopicAndPartition, Long> offsets;
        private final List<Unreadable> unreadable;

        public OffsetRead(Map<TopicAndPartition, Long> offsets, List<Unreadable> unreadable) {
            offsets = java.util.Collections.unmodifiableMap(new TreeMap<>(offsets));
            unreadable = Immutable.list(unreadable);
            this.offsets = offsets;
            this.unreadable = unreadable;
        }

        public Map<TopicAndPartition, Long> offsets() {
            return offsets;
        }

        public List<Unreadable> unreadable() {
            return unreadable;
        }

        @Override
        public boolean equals(Object o) {
            if (o == this) {
                return true;
            }
            if (!(o instanceof OffsetRead)) {
                return false;
            }
            OffsetRead that = (OffsetRead) o;
            return Objects.equals(offsets, that.offsets)
                    && Objects.equals(unreadable, that.unreadable);
        }

        @Override
        public int hashCode() {
            int h = 0;
            h = 31 * h + Objects.hashCode(offsets);
            h = 31 * h + Objects.hashCode(unreadable);
            return h;
        }

        @Override
        public String toString() {
            return "OffsetRead[offsets=" + offsets + ", unreadable=" + unreadable + "]";
        }
    }

    /** What a commit did. */
    @JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY) // JSON output (CLI) shows the fields
    public static final class CommitResult {
        private final int written;
        private final int unchanged;
        private final int batches;

        public CommitResult(int written, int unchanged, int batches) {
            this.written = written;
            this.unchanged = unchanged;
            this.batches = batches;
        }

        public int written() {
            return written;
        }

        public int unchanged() {
            return unchanged;
        }

        public int batches() {
            return batches;
        }

        @Override
        public boolean equals(Object o) {
            if (o == this) {
                return true;
            }
            if (!(o instanceof CommitResult)) {
                return false;
            }
            CommitResult that = (CommitResult) o;
            return written == that.written
                    && unchanged == that.unchanged
                    && batches == that.batches;
        }

        @Override
        public int hashCode() {
            int h = 0;
            h = 31 * h + Integer.hashCode(written);
            h = 31 * h + Integer.hashCode(unchanged);
            h = 31 * h + Integer.hashCode(batches);
            return h;
        }

        @Override
        public String toString() {
            return "CommitResult[written=" + written + ", unchanged=" + unchanged + ", batches=" + batches + "]";
        }
    }

    /** Bytes of the decimal text of an offset, at most. */
    private static final int OFFSET_BYTES = 20;

    private final Znodes znodes;
    private final ZkLayout layout;
    /** Last value known to be stored at each offset path: the skip-unchanged checkpoint. */
    private final Map<String, Long> checkpoint = new ConcurrentHashMap<>();
    /** Offset paths the last read found missing: a commit creates them without listing their directory first. */
    private final Set<String> knownAbsent = ConcurrentHashMap.newKeySet();

    public OffsetRegistry(Znodes znodes, ZkLayout layout) {
        this.znodes = Objects.requireNonNull(znodes, "znodes cannot be null");
        this.layout = Objects.requireNonNull(layout, "layout cannot be null");
    }

    public ZkLayout layout() {
        return layout;
    }

    /** Offsets of {@code partitions} in {@code group}; partitions without an offset are absent. */
    public OffsetRead read(String group, Collection<TopicAndPartition> partitions) {
        Map<String, TopicAndPartition> byPath = new TreeMap<>();
        for (TopicAndPartition tp : partitions) {
            byPath.put(layout.offset(group, tp), tp);
        }
        Map<TopicAndPartition, Long> offsets = new HashMap<>();
        List<Unreadable> unreadable = new ArrayList<>();
        Map<String, Znodes.Data> found = znodes.readSmall(byPath.keySet());
        byPath.forEach((path, tp) -> {
            Znodes.Data data = found.get(path);
            if (data == null) {
                checkpoint.remove(path);
                knownAbsent.add(path);
                return;
            }
            knownAbsent.remove(path);
            try {
                long offset = OffsetCodec.decode(data.bytes());
                offsets.put(tp, offset);
                checkpoint.put(path, offset);
            } catch (DecodeException e) {
                unreadable.add(new Unreadable(path, e.getMessage()));
            }
        });
        return new OffsetRead(offsets, unreadable);
    }

    /** Every offset stored for {@code group}, over all topics under {@code /consumers/G/offsets}. */
    public OffsetRead readAll(String group) {
        List<TopicAndPartition> partitions = new ArrayList<>();
        List<Unreadable> unreadable = new ArrayList<>();
        for (String topic : znodes.children(layout.offsets(group))) {
            String topicPath = layout.offsets(group) + "/" + topic;
            if (!ZkNames.isValid(topic)) {
                unreadable.add(new Unreadable(topicPath, "'" + topic + "' is not a valid topic name"));
                continue;
            }
            for (String child : znodes.children(topicPath)) {
                OptionalInt partition = ZkLayout.parsePartition(child);
                if (!partition.isPresent()) {
                    unreadable.add(new Unreadable(topicPath + "/" + child, "'" + child + "' is not a partition number"));
                } else {
                    partitions.add(new TopicAndPartition(topic, partition.getAsInt()));
                }
            }
        }
        OffsetRead read = read(group, partitions);
        unreadable.addAll(read.unreadable());
        return new OffsetRead(read.offsets(), unreadable);
    }

    /** Writes {@code offsets} (next offset to consume) for {@code group}, skipping unchanged values. */
    public CommitResult commit(String group, Map<TopicAndPartition, Long> offsets) {
        // any ZooKeeper error, a race included, is worth one more look: Curator's retries already covered the connection
        return commitBatches(group, offsets, e -> e.getKey().length() + OFFSET_BYTES, raced -> true,
                (batch, existing) -> znodes.client().transaction().forOperations(ops(batch, existing)));
    }

    /**
     * Writes offsets of partitions that this client's ZooKeeper {@code session} owns, so that a write can never land
     * after the ownership has ended: every batch is one {@code multi()} that checks that the owner znode of each of its
     * partitions exists, sent on {@code session}'s own handle and never retried on another
     * ({@link Znodes#multiOnSession}). The owner znodes are the session's ephemerals, which only the session itself
     * releases, after this write (a session's requests are applied in order), or the server deletes when the session
     * ends, after which the check fails. Unchanged values are skipped, as in {@link #commit}.
     *
     * @throws NotOwnedException if an owner znode is gone (the batch wrote nothing), or the session has ended
     * @throws RegistryException  if ZooKeeper fails; after a connection loss the outcome of the batch is unknown
     */
    public CommitResult commitOwned(String group, Map<TopicAndPartition, Long> offsets, long session) {
        // offset path → owner path, built only once a batch goes out: most commits of many partitions change nothing
        Supplier<Map<String, String>> ownerOf = memoize(() -> {
            Map<String, String> owners = new HashMap<>();
            offsets.keySet().forEach(tp -> owners.put(layout.offset(group, tp), layout.owner(group, tp)));
            return owners;
        });
        // two ops per offset: the owner check and the write (whose path is about as long); only a race on an offset
        // znode (a tool created or deleted it) is worth a look again, on the same session
        return commitBatches(group, offsets, e -> 2 * (e.getKey().length() + OFFSET_BYTES) + 64,
                raced -> raced instanceof KeeperException.NodeExistsException || raced instanceof KeeperException.NoNodeException,
                (batch, existing) -> writeOwned(group, batch, existing, ownerOf.get(), session));
    }

    /** Sends one batch of offsets, knowing which of their znodes exist. */
    private interface BatchWrite {
        void write(Map<String, Long> batch, Set<String> existing) throws Exception;
    }

    /**
     * The changed offsets of {@code offsets}, in {@code multi()} batches of at most {@code weight} bytes each, sent by
     * {@code write}; a batch that fails with a ZooKeeper error that {@code worthAnotherLook} accepts is written once
     * more after the existing znodes are listed again. A failed batch leaves its paths out of the checkpoint: its
     * outcome may be unknown, so the next commit writes them again.
     */
    private CommitResult commitBatches(String group, Map<TopicAndPartition, Long> offsets,
                                       ToIntFunction<Map.Entry<String, Long>> weight,
                                       Predicate<KeeperException> worthAnotherLook, BatchWrite write) {
        Map<String, Long> changed = changed(group, offsets);
        if (changed.isEmpty()) {
            return new CommitResult(0, offsets.size(), 0);
        }
        Set<String> existing = prepare(group, changed.keySet());
        int batches = 0;
        for (Map<String, Long> batch : MultiBatches.split(changed, weight)) {
            batches++;
            try {
                try {
                    write.write(batch, existing);
                } catch (KeeperException raced) {
                    if (!worthAnotherLook.test(raced)) {
                        throw raced;
                    }
                    // a node appeared or vanished since we looked (another writer, a tool): look again, once
                    existing.removeAll(batch.keySet());
                    checkpoint.keySet().removeAll(batch.keySet());
                    knownAbsent.removeAll(batch.keySet());
                    existing.addAll(prepare(group, batch.keySet()));
                    write.write(batch, existing);
                }
            } catch (Exception e) {
                checkpoint.keySet().removeAll(batch.keySet());
                knownAbsent.removeAll(batch.keySet());
                throw RegistryException.of("committing offsets under", layout.offsets(group), e);
            }
            checkpoint.putAll(batch);
            knownAbsent.removeAll(batch.keySet());
            existing.addAll(batch.keySet());
        }
        return new CommitResult(changed.size(), offsets.size() - changed.size(), batches);
    }

    /** One batch: for each offset, the check of its partition's owner znode, then the write. */
    private void writeOwned(String group, Map<String, Long> batch, Set<String> existing, Map<String, String> ownerOf,
                            long session) throws KeeperException, InterruptedException {
        List<Op> ops = new ArrayList<>(batch.size() * 2);
        List<String> owners = new ArrayList<>(batch.size());
        SessionWrites writes = new SessionWrites(znodes);
        for (Map.Entry<String, Long> entry : batch.entrySet()) {
            String path = entry.getKey();
            byte[] data = OffsetCodec.encode(entry.getValue());
            owners.add(ownerOf.get(path));
            ops.add(writes.check(ownerOf.get(path)));
            ops.add(existing.contains(path) ? writes.setData(path, data) : writes.createPersistent(path, data));
        }
        try {
            znodes.multiOnSession(session, ops);
        } catch (KeeperException.SessionExpiredException | KeeperException.SessionMovedException ended) {
            throw new NotOwnedException("offsets of group " + group + " not written: ZooKeeper session 0x"
                    + Long.toHexString(session) + " that owned the partitions has ended (" + ended.code() + ")");
        } catch (KeeperException e) {
            int failed = failedOp(e);
            if (failed >= 0 && failed % 2 == 0) {
                throw new NotOwnedException("offsets of group " + group + " not written: owner znode "
                        + owners.get(failed / 2) + " of session 0x" + Long.toHexString(session) + " is gone ("
                        + e.code() + "); the partition may belong to another member now");
            }
            throw e;
        }
    }

    /** The index of the op that failed a {@code multi()}, or -1 if the results do not say. */
    private static int failedOp(KeeperException e) {
        List<OpResult> results = e.getResults();
        if (results == null) {
            return -1;
        }
        for (int i = 0; i < results.size(); i++) {
            if (!(results.get(i) instanceof OpResult.ErrorResult)) {
                continue;
            }
            int err = ((OpResult.ErrorResult) results.get(i)).getErr();
            if (err != KeeperException.Code.OK.intValue() && err != KeeperException.Code.RUNTIMEINCONSISTENCY.intValue()) {
                return i;
            }
        }
        return -1;
    }

    /** Offset path → value of those of {@code offsets} that differ from the checkpoint. */
    private Map<String, Long> changed(String group, Map<TopicAndPartition, Long> offsets) {
        Map<String, Long> changed = new TreeMap<>();
        Map<String, String> topicDirs = new HashMap<>(); // validates group and topic once per topic, not per offset
        for (Map.Entry<TopicAndPartition, Long> entry : offsets.entrySet()) {
            TopicAndPartition tp = entry.getKey();
            String path = topicDirs.computeIfAbsent(tp.topic(), topic -> layout.offsets(group, topic)) + "/" + tp.partition();
            Long value = Objects.requireNonNull(entry.getValue(), () -> "offset of " + entry.getKey() + " is null");
            if (!value.equals(checkpoint.get(path))) {
                changed.put(path, value);
            }
        }
        return changed;
    }

    /** Forgets the checkpoint of {@code group} (after someone else may have written its offsets). */
    public void forget(String group) {
        String prefix = layout.offsets(group) + "/";
        checkpoint.keySet().removeIf(path -> path.startsWith(prefix));
        knownAbsent.removeIf(path -> path.startsWith(prefix));
    }

    private List<CuratorOp> ops(Map<String, Long> batch, Set<String> existing) throws Exception {
        List<CuratorOp> ops = new ArrayList<>(batch.size());
        for (Map.Entry<String, Long> entry : batch.entrySet()) {
            byte[] data = OffsetCodec.encode(entry.getValue());
            ops.add(existing.contains(entry.getKey())
                    ? znodes.client().transactionOp().setData().forPath(entry.getKey(), data)
                    : znodes.client().transactionOp().create().withMode(CreateMode.PERSISTENT).forPath(entry.getKey(), data));
        }
        return ops;
    }

    /**
     * Makes sure the topic directories of {@code paths} exist and returns which of {@code paths} exist already.
     * Known paths come from the checkpoint and the last reads: a path read missing is created without a look, even
     * where its directory was not seen (the partitions of a group that has not committed yet: by the time their first
     * owner commits, another member has usually created the directory; if not, the write fails and looks again, as
     * it does when another writer raced it). The rest come from one pipelined listing of the topic directories (and
     * of {@code /consumers/G/offsets}), not from one round trip per path, and missing directories are created together
     * in {@code multi()}s. Before the offsets themselves, a commit of offsets never read thus costs one pipelined
     * round of listings, one per topic and one of the group's offsets directory (plus, for a new group, its parent
     * directories and one {@code multi()}), not an existence check per offset and a synchronous create per topic
     * (each a transaction-log sync on the server, even when it fails with NodeExists).
     */
    private Set<String> prepare(String group, Collection<String> paths) {
        Set<String> existing = new HashSet<>();
        Map<String, Set<String>> unknownByDir = new HashMap<>();
        Set<String> toList = new TreeSet<>();
        for (String path : paths) {
            String dir = Znodes.parentOf(path);
            if (checkpoint.containsKey(path)) {
                existing.add(path); // read or written: its directory existed then (a write that finds it gone looks again)
            } else if (!knownAbsent.contains(path)) {
                unknownByDir.computeIfAbsent(dir, d -> new HashSet<>()).add(path);
                toList.add(dir);
            } // else missing when last read: created without a look (see above)
        }
        if (toList.isEmpty()) {
            return existing;
        }
        String offsetsDir = layout.offsets(group);
        toList.add(offsetsDir);
        Map<String, List<String>> listed = znodes.childrenAll(toList);
        toList.remove(offsetsDir);
        List<String> missing = toList.stream().filter(dir -> !listed.containsKey(dir)).collect(Immutable.toList());
        if (!missing.isEmpty()) {
            createDirectories(offsetsDir, listed.containsKey(offsetsDir), missing);
        }
        unknownByDir.forEach((dir, unknown) -> {
            for (String child : listed.getOrDefault(dir, Collections.emptyList())) {
                String path = dir + "/" + child;
                if (unknown.contains(path)) {
                    existing.add(path);
                }
            }
        });
        return existing;
    }

    /**
     * Creates the topic directories {@code dirs} below {@code offsetsDir} (persistent, empty data), and
     * {@code offsetsDir} with them if it is missing: one {@code multi()} (per {@link MultiBatches#MAX_OPS}), sent as the
     * offsets' own writes are, so a new group's first commit runs no code path of its own. A chunk that fails (another
     * member made one of them meanwhile, a missing group directory, the connection) is made znode by znode instead.
     */
    private void createDirectories(String offsetsDir, boolean offsetsDirExists, List<String> dirs) {
        List<String> all = new ArrayList<>(dirs.size() + 1);
        if (!offsetsDirExists) {
            all.add(offsetsDir);
        }
        all.addAll(dirs);
        SessionWrites writes = new SessionWrites(znodes);
        for (int from = 0; from < all.size(); from += MultiBatches.MAX_OPS) {
            List<String> chunk = all.subList(from, Math.min(all.size(), from + MultiBatches.MAX_OPS));
            try {
                List<Op> ops = new ArrayList<>(chunk.size());
                for (String dir : chunk) {
                    ops.add(writes.createPersistent(dir, new byte[0]));
                }
                znodes.multiOnSession(znodes.sessionId(), ops);
            } catch (KeeperException | RegistryException failed) {
                // made meanwhile, their parents missing too, or no session now: Curator's retries and the parents
                chunk.forEach(znodes::ensurePersistent);
            } catch (InterruptedException e) {
                throw RegistryException.of("creating offset directories under", offsetsDir, e);
            }
        }
    }

    /** {@code compute}'s value, computed on the first call only. */
    private static <T> Supplier<T> memoize(Supplier<T> compute) {
        return new Supplier<T>() {
            private T value;

            @Override
            public synchronized T get() {
                if (value == null) {
                    value = compute.get();
                }
                return value;
            }
        };
    }
}
