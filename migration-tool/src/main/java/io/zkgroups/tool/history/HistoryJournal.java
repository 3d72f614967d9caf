package io.zkgroups.tool.history;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.store.Znodes;
import io.zkgroups.tool.CliException;
import io.zkgroups.tool.ExitCode;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The history journal of a group, as a watcher recorded it: one persistent-sequential znode per batch of events
 * (those one look at the group found), {@code /zkgroups/history/G/e-0000000042}, a JSON array of {@link HistoryEvent}.
 * Append-only and bounded: after each append the oldest batches beyond {@code capacity} are deleted.
 */
public final class HistoryJournal {

    /** Batches kept per group. */
    public static final int DEFAULT_CAPACITY = 1_000;

    private static final String PREFIX = "e-";
    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private final Znodes znodes;
    private final ZkLayout layout;
    private final int capacity;

    public HistoryJournal(Znodes znodes, ZkLayout layout, int capacity) {
        this.znodes = Objects.requireNonNull(znodes, "znodes");
        this.layout = Objects.requireNonNull(layout, "layout");
        this.capacity = capacity;
    }

    /** Appends {@code events} (nothing when empty). */
    public void append(String group, List<HistoryEvent> events) {
        if (events.isEmpty()) {
            return;
        }
        String dir = layout.history(group);
        try {
            znodes.ensurePersistent(dir);
            znodes.create(dir + "/" + PREFIX, JSON.writeValueAsBytes(events), CreateMode.PERSISTENT_SEQUENTIAL);
            List<String> children = sorted(znodes.children(dir));
            for (int i = 0; i < children.size() - capacity; i++) {
                try {
                    znodes.client().delete().forPath(dir + "/" + children.get(i));
                } catch (KeeperException.NoNodeException e) {
                    // trimmed by another watcher
                }
            }
        } catch (Exception e) {
            throw new CliException(ExitCode.UNREACHABLE, "cannot append to the history journal " + dir + ": " + e.getMessage(), e);
        }
    }

    /** Every recorded event of {@code group}, oldest batch first. */
    public List<HistoryEvent> read(String group) {
        String dir = layout.history(group);
        List<HistoryEvent> events = new ArrayList<>();
        for (String child : sorted(znodes.children(dir))) {
            Optional<Znodes.Data> data = znodes.read(dir + "/" + child);
            if (data.isPresent()) {
                try {
                    events.addAll(JSON.readValue(data.get().bytes(), new TypeReference<List<HistoryEvent>>() { }));
                } catch (IOException e) {
                    events.add(HistoryEvent.of(java.time.Instant.ofEpochMilli(data.get().stat().getCtime()).toString(),
                            HistoryEvent.Type.LAST_COMMIT, "watcher").detail("unreadable journal entry " + dir + "/" + child
                            + ": " + e.getMessage()));
                }
            }
        }
        return events;
    }

    private static List<String> sorted(List<String> children) {
        return children.stream().filter(c -> c.startsWith(PREFIX)).sorted().toList();
    }
}
