package io.zkgroups.tool.history;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.store.Znodes;
import io.zkgroups.tool.CliException;
import io.zkgroups.tool.ExitCode;
import io.zkgroups.tool.io.ZnodeJournal;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The history journal of a group, as a watcher recorded it: one persistent-sequential znode per batch of events
 * (those one look at the group found), {@code /zkgroups/history/G/e-0000000042}, a JSON array of {@link HistoryEvent}.
 * Append-only and bounded: after each append the oldest batches beyond {@code capacity} are deleted.
 */
public final class HistoryJournal {

    /** Batches kept per group. */
    public static final int DEFAULT_CAPACITY = 1_000;

    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private final ZkLayout layout;
    private final ZnodeJournal journal;

    public HistoryJournal(Znodes znodes, ZkLayout layout, int capacity) {
        this.layout = Objects.requireNonNull(layout, "layout");
        this.journal = new ZnodeJournal(znodes, capacity);
    }

    /** Appends {@code events} (nothing when empty). */
    public void append(String group, List<HistoryEvent> events) {
        if (events.isEmpty()) {
            return;
        }
        String dir = layout.history(group);
        try {
            journal.append(dir, List.of(JSON.writeValueAsBytes(events)));
        } catch (Exception e) {
            throw new CliException(ExitCode.UNREACHABLE, "cannot append to the history journal " + dir + ": " + e.getMessage(), e);
        }
    }

    /** Every recorded event of {@code group}, oldest batch first. */
    public List<HistoryEvent> read(String group) {
        List<HistoryEvent> events = new ArrayList<>();
        for (ZnodeJournal.Entry stored : journal.read(layout.history(group))) {
            try {
                events.addAll(JSON.readValue(stored.bytes(), new TypeReference<List<HistoryEvent>>() { }));
            } catch (IOException e) {
                events.add(HistoryEvent.of(stored.written().toString(), HistoryEvent.Type.LAST_COMMIT, "watcher")
                        .detail("unreadable journal entry " + stored.path() + ": " + e.getMessage()));
            }
        }
        return events;
    }
}
