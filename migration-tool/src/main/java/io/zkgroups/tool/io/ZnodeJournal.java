package io.zkgroups.tool.io;

import io.zkgroups.registry.store.Znodes;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * An append-only, bounded journal in one ZooKeeper directory: one persistent-sequential znode per entry
 * ({@code dir/e-0000000042}), oldest first; after each append the oldest entries beyond the capacity are deleted.
 * Concurrent appenders get distinct sequence numbers; a trim that meets an entry another appender deleted goes on. The
 * audit and the history journals keep their entries this way.
 */
public final class ZnodeJournal {

    /** One stored entry: its bytes and its znode's ctime (ZooKeeper's clock). */
    public record Entry(String path, byte[] bytes, Instant written) {
    }

    private static final String PREFIX = "e-";

    private final Znodes znodes;
    private final int capacity;

    public ZnodeJournal(Znodes znodes, int capacity) {
        this.znodes = Objects.requireNonNull(znodes, "znodes");
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1, got " + capacity);
        }
        this.capacity = capacity;
    }

    /** Appends {@code entries} to {@code dir} in order (creating it), then trims it to the capacity. */
    public void append(String dir, List<byte[]> entries) throws Exception {
        znodes.ensurePersistent(dir);
        for (byte[] entry : entries) {
            znodes.create(dir + "/" + PREFIX, entry, CreateMode.PERSISTENT_SEQUENTIAL);
        }
        List<String> children = sorted(znodes.children(dir));
        for (int i = 0; i < children.size() - capacity; i++) {
            try {
                znodes.client().delete().forPath(dir + "/" + children.get(i));
            } catch (KeeperException.NoNodeException e) {
                // another appender trimmed it
            }
        }
    }

    /** Every entry of {@code dir}, oldest first; none when it does not exist. */
    public List<Entry> read(String dir) {
        List<Entry> entries = new ArrayList<>();
        for (String child : sorted(znodes.children(dir))) {
            Optional<Znodes.Data> data = znodes.read(dir + "/" + child);
            data.ifPresent(d -> entries.add(new Entry(dir + "/" + child, d.bytes(),
                    Instant.ofEpochMilli(d.stat().getCtime())))); // absent: trimmed meanwhile
        }
        return entries;
    }

    private static List<String> sorted(List<String> children) {
        return children.stream().filter(c -> c.startsWith(PREFIX)).sorted().toList();
    }
}
