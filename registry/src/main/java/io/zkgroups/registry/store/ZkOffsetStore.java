package io.zkgroups.registry.store;

import io.zkgroups.registry.RegistryException;
import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.ZkNames;
import io.zkgroups.registry.codec.DecodeException;
import io.zkgroups.registry.codec.OffsetCodec;
import io.zkgroups.registry.model.TopicAndPartition;
import org.apache.curator.framework.api.BackgroundCallback;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

/**
 * Offsets under {@code /consumers/G/offsets/T/P}: decimal text of the next offset to consume.
 * <p>
 * Reads are pipelined (one round trip for many partitions). Commits skip values that did not change
 * since this store last read or wrote them (0.8.2.2's checkpoint) and write the rest in {@code multi()}
 * batches sized to stay well under {@code jute.maxbuffer}. A batch is atomic; batches are not.
 * Writes are unconditional, like 0.8.2.2: guarding against rewinds is the caller's business.
 */
public final class ZkOffsetStore {

    /** What a read found: offsets of the partitions that have one, and znodes that could not be read. */
    public record OffsetRead(Map<TopicAndPartition, Long> offsets, List<Unreadable> unreadable) {
        public OffsetRead {
            offsets = java.util.Collections.unmodifiableMap(new TreeMap<>(offsets));
            unreadable = List.copyOf(unreadable);
        }
    }

    /** What a commit did. */
    public record CommitResult(int written, int unchanged, int batches) {
    }

    static final int MAX_OPS_PER_BATCH = 1000;
    private static final long TIMEOUT_SECONDS = 30;
    private static final int OP_OVERHEAD_BYTES = 64;

    private final Znodes znodes;
    private final ZkLayout layout;
    private final int maxBatchBytes;
    /** Last value known to be stored at each offset path: the skip-unchanged checkpoint. */
    private final Map<String, Long> checkpoint = new ConcurrentHashMap<>();
    private final Set<String> knownParents = ConcurrentHashMap.newKeySet();

    public ZkOffsetStore(Znodes znodes, ZkLayout layout) {
        this.znodes = Objects.requireNonNull(znodes, "znodes cannot be null");
        this.layout = Objects.requireNonNull(layout, "layout cannot be null");
        // jute.maxbuffer bounds a whole multi() request; stay at half of it.
        this.maxBatchBytes = Integer.getInteger("jute.maxbuffer", 0xfffff) / 2;
    }

    /** Offsets of {@code partitions} in {@code group}; partitions without an offset are absent. */
    public OffsetRead read(String group, Collection<TopicAndPartition> partitions) {
        Map<String, TopicAndPartition> byPath = new TreeMap<>();
        for (TopicAndPartition tp : partitions) {
            byPath.put(layout.offset(group, tp), tp);
        }
        Map<TopicAndPartition, Long> offsets = new ConcurrentHashMap<>();
        List<Unreadable> unreadable = java.util.Collections.synchronizedList(new ArrayList<>());
        pipeline(byPath.keySet(), (path, op) -> op.getData(path), (path, event) -> {
            if (event.getResultCode() == KeeperException.Code.NONODE.intValue()) {
                checkpoint.remove(path);
                return;
            }
            try {
                long offset = OffsetCodec.decode(event.getData());
                offsets.put(byPath.get(path), offset);
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
                if (partition.isEmpty()) {
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
        Map<String, Long> changed = new TreeMap<>();
        for (Map.Entry<TopicAndPartition, Long> entry : offsets.entrySet()) {
            String path = layout.offset(group, entry.getKey());
            Long value = Objects.requireNonNull(entry.getValue(), () -> "offset of " + entry.getKey() + " is null");
            if (!value.equals(checkpoint.get(path))) {
                changed.put(path, value);
            }
        }
        if (changed.isEmpty()) {
            return new CommitResult(0, offsets.size(), 0);
        }
        offsets.keySet().stream().map(tp -> layout.offsets(group, tp.topic())).distinct()
                .filter(parent -> !knownParents.contains(parent))
                .forEach(parent -> {
                    znodes.ensurePersistent(parent);
                    knownParents.add(parent);
                });
        Set<String> existing = existing(changed.keySet());
        int batches = 0;
        for (Map<String, Long> batch : batches(changed)) {
            batches++;
            try {
                znodes.client().transaction().forOperations(ops(batch, existing));
            } catch (KeeperException raced) {
                // a node appeared or vanished since we looked (another writer, a tool): look again, once
                existing.removeAll(batch.keySet());
                checkpoint.keySet().removeAll(batch.keySet());
                existing.addAll(existing(batch.keySet()));
                try {
                    znodes.client().transaction().forOperations(ops(batch, existing));
                } catch (Exception e) {
                    throw RegistryException.of("committing offsets under", layout.offsets(group), e);
                }
            } catch (Exception e) {
                throw RegistryException.of("committing offsets under", layout.offsets(group), e);
            }
            checkpoint.putAll(batch);
            existing.addAll(batch.keySet());
        }
        return new CommitResult(changed.size(), offsets.size() - changed.size(), batches);
    }

    /** Forgets the checkpoint of {@code group} (after someone else may have written its offsets). */
    public void forget(String group) {
        String prefix = layout.offsets(group) + "/";
        checkpoint.keySet().removeIf(path -> path.startsWith(prefix));
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

    private List<Map<String, Long>> batches(Map<String, Long> changed) {
        List<Map<String, Long>> batches = new ArrayList<>();
        Map<String, Long> current = new TreeMap<>();
        int bytes = 0;
        for (Map.Entry<String, Long> entry : changed.entrySet()) {
            int size = entry.getKey().length() + 20 + OP_OVERHEAD_BYTES;
            if (!current.isEmpty() && (current.size() >= MAX_OPS_PER_BATCH || bytes + size > maxBatchBytes)) {
                batches.add(current);
                current = new TreeMap<>();
                bytes = 0;
            }
            current.put(entry.getKey(), entry.getValue());
            bytes += size;
        }
        batches.add(current);
        return batches;
    }

    /** Which of {@code paths} exist: known ones from the checkpoint, the rest asked for in one pipeline. */
    private Set<String> existing(Collection<String> paths) {
        Set<String> existing = ConcurrentHashMap.newKeySet();
        List<String> unknown = new ArrayList<>();
        for (String path : paths) {
            if (checkpoint.containsKey(path)) {
                existing.add(path);
            } else {
                unknown.add(path);
            }
        }
        pipeline(unknown, (path, op) -> op.checkExists(path), (path, event) -> {
            if (event.getStat() != null) {
                existing.add(path);
            }
        });
        return existing;
    }

    /** An asynchronous ZooKeeper operation started for one path. */
    private interface AsyncOp {
        void start(String path, Ops ops) throws Exception;
    }

    /** The two asynchronous reads the pipeline needs. */
    private final class Ops {
        private final BackgroundCallback callback;

        Ops(BackgroundCallback callback) {
            this.callback = callback;
        }

        void getData(String path) throws Exception {
            znodes.client().getData().inBackground(callback).forPath(path);
        }

        void checkExists(String path) throws Exception {
            znodes.client().checkExists().inBackground(callback).forPath(path);
        }
    }

    /** Runs {@code op} for every path at once and waits for all replies; fails on any error but NONODE. */
    private void pipeline(Collection<String> paths, AsyncOp op, BiConsumer<String, CuratorEvent> onReply) {
        if (paths.isEmpty()) {
            return;
        }
        CountDownLatch replies = new CountDownLatch(paths.size());
        List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        Ops ops = new Ops((client, event) -> {
            try {
                int rc = event.getResultCode();
                if (rc == KeeperException.Code.OK.intValue() || rc == KeeperException.Code.NONODE.intValue()) {
                    onReply.accept(event.getPath(), event);
                } else {
                    failures.add(event.getPath() + ": " + KeeperException.Code.get(rc));
                }
            } finally {
                replies.countDown();
            }
        });
        try {
            for (String path : paths) {
                op.start(path, ops);
            }
            if (!replies.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                throw new RegistryException("no reply from ZooKeeper within " + TIMEOUT_SECONDS + " s for "
                        + replies.getCount() + " of " + paths.size() + " offset znodes (is ZooKeeper reachable?)");
            }
        } catch (RegistryException e) {
            throw e;
        } catch (Exception e) {
            throw RegistryException.of("reading", paths.iterator().next() + " (and " + (paths.size() - 1) + " more)", e);
        }
        if (!failures.isEmpty()) {
            throw new RegistryException("reading offsets failed for " + failures.size() + " znodes, e.g. " + failures.get(0));
        }
    }
}
