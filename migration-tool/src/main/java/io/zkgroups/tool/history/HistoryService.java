package io.zkgroups.tool.history;

import io.zkgroups.tool.audit.AuditEntry;
import io.zkgroups.tool.audit.AuditJournal;
import io.zkgroups.tool.group.MemberHost;
import io.zkgroups.tool.io.Clients;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * {@code zkgroups history}: a group's history from three sources, merged in time order — the watcher's journal
 * ({@link HistoryJournal}), the audit journal of the tools' offset writes, and what the znodes' stats still tell
 * (registrations' and owner znodes' ctimes, offsets' mtimes) for what no watcher saw. And the watcher itself.
 */
public final class HistoryService {

    private final Clients clients;

    public HistoryService(Clients clients) {
        this.clients = clients;
    }

    /** The group's events at or after {@code since} (null: all), oldest first. */
    public List<HistoryEvent> history(String group, Instant since, Duration staleAfter) {
        List<HistoryEvent> events = new ArrayList<>(journal().read(group));
        for (AuditEntry e : clients.auditJournal().read(group)) {
            if (AuditJournal.COORDINATION.equals(e.action())) {
                events.add(HistoryEvent.of(e.at(), HistoryEvent.Type.COORDINATOR_CHANGED, "audit")
                        .detail("coordination " + e.coordination() + ": " + e.command())
                        .attribution(e.user() + "@" + e.host()));
                continue;
            }
            events.add(HistoryEvent.of(e.at(), HistoryEvent.Type.OFFSETS_WRITTEN, "audit")
                    .detail(e.action() + ": " + e.command() + (e.parts() > 1 ? " (part " + e.part() + " of " + e.parts() + ")" : ""))
                    .attribution(e.user() + "@" + e.host()).changes(e.changes()));
        }
        Set<String> seen = new HashSet<>();
        events.forEach(e -> seen.add(key(e)));
        for (HistoryEvent e : rebuilt(new SnapshotReader(clients, staleAfter).read(group))) {
            if (seen.add(key(e))) {
                events.add(e);
            }
        }
        events.sort(HistoryEvent.CHRONOLOGICAL);
        return since == null ? events : events.stream().filter(e -> !Instant.parse(e.at()).isBefore(since)).toList();
    }

    /**
     * Watches {@code group} every {@code interval} and appends what changed to its journal, until interrupted;
     * {@code onBaseline} sees the time of the first look (what changes after it is recorded), {@code onEvents} each batch.
     */
    public void record(String group, Duration interval, Duration staleAfter, Duration stallAfter,
                       Consumer<Instant> onBaseline, Consumer<List<HistoryEvent>> onEvents) {
        SnapshotReader reader = new SnapshotReader(clients, staleAfter);
        HistoryTracker tracker = new HistoryTracker(stallAfter);
        HistoryJournal journal = journal();
        boolean first = true;
        while (!Thread.currentThread().isInterrupted()) {
            long started = System.nanoTime();
            GroupSnapshot snapshot = reader.read(group);
            List<HistoryEvent> events = tracker.next(snapshot, () -> clients.auditJournal().read(group));
            if (first) {
                onBaseline.accept(snapshot.at());
                first = false;
            }
            journal.append(group, events);
            onEvents.accept(events);
            try {
                TimeUnit.NANOSECONDS.sleep(Math.max(0, interval.toNanos() - (System.nanoTime() - started))); // the sampling period
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** What the znodes of {@code now} still tell: who is registered since when, who claimed what when, last commits. */
    static List<HistoryEvent> rebuilt(GroupSnapshot now) {
        String source = "znode-stats";
        List<HistoryEvent> events = new ArrayList<>();
        now.members().forEach((id, ctime) -> events.add(HistoryEvent.of(ctime.toString(), HistoryEvent.Type.MEMBER_JOINED, source)
                .member(id, MemberHost.of(now.group(), id).orElse(null))));
        now.owners().forEach((tp, o) -> events.add(HistoryEvent.of(o.claimedAt().toString(), HistoryEvent.Type.PARTITION_CLAIMED,
                source).member(o.thread(), null).partition(tp.topic(), tp.partition())));
        now.zkOffsets().forEach((tp, c) -> events.add(HistoryEvent.of(c.mtime().toString(), HistoryEvent.Type.LAST_COMMIT, source)
                .partition(tp.topic(), tp.partition()).offsets(null, c.offset())));
        return events;
    }

    private static String key(HistoryEvent e) {
        return e.type() + "|" + e.member() + "|" + e.topic() + "|" + e.partition() + "|" + e.at();
    }

    private HistoryJournal journal() {
        return new HistoryJournal(clients.zk().registry().znodes(), clients.zk().paths(), HistoryJournal.DEFAULT_CAPACITY);
    }
}
