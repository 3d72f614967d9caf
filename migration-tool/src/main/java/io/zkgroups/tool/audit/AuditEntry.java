package io.zkgroups.tool.audit;

import java.util.List;

/**
 * One write of a group's offsets by a tool, or one change of the coordinator it follows, as the audit journal keeps it.
 *
 * @param at      when it was written (ISO-8601; ZooKeeper's time when read back from the journal: the entry's ctime)
 * @param action  {@code reset}, {@code import}, {@code migrate}, {@code rollback}, {@code delete}, {@code coordination}
 * @param changes one per partition and store written (none for {@code coordination})
 * @param part    which part of a write too large for one znode this is (1-based) of {@code parts}
 * @param coordination for {@code coordination}: the coordinators before and after ({@code zookeeper -> kafka});
 *                     null for offset writes
 */
public record AuditEntry(String at, String group, String action, String user, String host, String command, String version,
                         List<Change> changes, int part, int parts, String coordination) {

    public AuditEntry {
        changes = List.copyOf(changes);
    }

    /**
     * One partition of one store.
     *
     * @param store  {@code zookeeper} or {@code kafka}
     * @param before the offset before the write, null when there was none
     * @param after  the offset written, null when it was deleted
     */
    public record Change(String topic, int partition, String store, Long before, Long after) {
    }

    /** This entry with {@code at} instead of its own. */
    public AuditEntry at(String when) {
        return new AuditEntry(when, group, action, user, host, command, version, changes, part, parts, coordination);
    }
}
