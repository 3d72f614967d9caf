package io.zkgroups.tool.audit;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.store.Znodes;
import io.zkgroups.tool.CliException;
import io.zkgroups.tool.ExitCode;
import io.zkgroups.tool.io.ZnodeJournal;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The audit journal of a group's offset writes by tools (and of the changes of the coordinator it follows), in
 * ZooKeeper where every tool and member that reaches the group can read it: one persistent-sequential znode per write, {@code /zkgroups/audit/G/e-0000000042}, holding
 * {@link AuditEntry} as JSON. Append-only and bounded: after each append the oldest entries beyond {@link #capacity}
 * are deleted. A write of more than {@link #CHANGES_PER_ENTRY} partitions is split into several entries (parts), each
 * well under ZooKeeper's 1 MB limit. Thread-safe as far as ZooKeeper is: concurrent appends get distinct sequence
 * numbers.
 */
public final class AuditJournal {

    /** Entries kept per group. */
    public static final int DEFAULT_CAPACITY = 500;
    /** Changes per entry: ~100 bytes each, so an entry stays below 256 KB. */
    static final int CHANGES_PER_ENTRY = 2_000;

    /** The action of an entry that records a change of coordinator. */
    public static final String COORDINATION = "coordination";

    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private final ZkLayout layout;
    private final ZnodeJournal journal;

    public AuditJournal(Znodes znodes, ZkLayout layout, int capacity) {
        this.layout = Objects.requireNonNull(layout, "layout");
        this.journal = new ZnodeJournal(znodes, capacity);
    }

    /**
     * Appends a write of {@code group}'s offsets (nothing when {@code changes} is empty). Fails with a
     * {@link CliException} naming the path when ZooKeeper refuses: an offset write that cannot be audited is reported.
     */
    public void append(String group, String action, Invocation who, List<AuditEntry.Change> changes) {
        if (changes.isEmpty()) {
            return;
        }
        String dir = layout.audit(group);
        int parts = (changes.size() + CHANGES_PER_ENTRY - 1) / CHANGES_PER_ENTRY;
        try {
            List<byte[]> entries = new ArrayList<>();
            for (int i = 0; i < parts; i++) {
                List<AuditEntry.Change> slice = changes.subList(i * CHANGES_PER_ENTRY,
                        Math.min(changes.size(), (i + 1) * CHANGES_PER_ENTRY));
                entries.add(JSON.writeValueAsBytes(new AuditEntry(Instant.now().toString(), group, action, who.user(),
                        who.host(), who.command(), who.version(), slice, i + 1, parts, null)));
            }
            journal.append(dir, entries);
        } catch (Exception e) {
            throw new CliException(ExitCode.UNREACHABLE, "the offsets of group " + group + " were written, but their audit "
                    + "entry could not be: " + dir + ": " + e.getMessage(), e);
        }
    }

    /**
     * Appends a change of the coordinator {@code group} follows ({@code from} and {@code to}: {@code zookeeper} or
     * {@code kafka}), as an entry of its own with action {@code coordination}. Fails with a {@link CliException}
     * naming the path when ZooKeeper refuses.
     */
    public void appendCoordination(String group, String from, String to, Invocation who) {
        String dir = layout.audit(group);
        try {
            journal.append(dir, List.of(JSON.writeValueAsBytes(new AuditEntry(Instant.now().toString(), group,
                    COORDINATION, who.user(), who.host(), who.command(), who.version(), List.of(), 1, 1, from + " -> " + to))));
        } catch (Exception e) {
            throw new CliException(ExitCode.UNREACHABLE, "group " + group + " was moved to " + to + ", but its audit "
                    + "entry could not be written: " + dir + ": " + e.getMessage(), e);
        }
    }

    /** Every entry of {@code group}, oldest first, each with its znode's ctime (ZooKeeper's clock) as {@code at}. */
    public List<AuditEntry> read(String group) {
        List<AuditEntry> entries = new ArrayList<>();
        for (ZnodeJournal.Entry stored : journal.read(layout.audit(group))) {
            try {
                entries.add(JSON.readValue(stored.bytes(), AuditEntry.class).at(stored.written().toString()));
            } catch (java.io.IOException e) {
                entries.add(new AuditEntry(stored.written().toString(), group, "unreadable", null, null,
                        stored.path() + ": " + e.getMessage(), null, List.of(), 1, 1, null));
            }
        }
        return entries;
    }
}
