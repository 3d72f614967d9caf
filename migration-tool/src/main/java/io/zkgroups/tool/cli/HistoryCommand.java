package io.zkgroups.tool.cli;

import io.zkgroups.tool.CliException;
import io.zkgroups.tool.ExitCode;
import io.zkgroups.tool.history.HistoryEvent;
import io.zkgroups.tool.history.HistoryService;
import io.zkgroups.tool.io.Clients;
import io.zkgroups.tool.output.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code zkgroups history}: what happened to a group, and the watcher that records it (docs/cli.md). */
@Command(name = "history", sortOptions = false, description = {
        "A group's history, oldest first: members that joined and left (id, host), rebalances (start, end, duration, "
                + "cause), ownership moves, commit stalls, offsets moved backwards (with who did it, or unattributed), "
                + "changes of the coordinator of its offsets (zookeeper-only, dual-commit, kafka-only), and every offset "
                + "write by zkgroups (reset, import, migrate, rollback, delete) with user, host, command and per partition "
                + "the offset before and after.",
        "Sources: the journal a watcher (history --record) wrote to /zkgroups/history/G, the audit journal the tools "
                + "write to /zkgroups/audit/G, and the znodes' stats (registrations' and owners' ctimes, offsets' "
                + "mtimes) for what no watcher saw.",
        "--record watches the group every --interval and appends what changed to its journal, printing each event, "
                + "until interrupted."})
final class HistoryCommand extends AbstractCommand {

    @Option(names = "--group", paramLabel = "G", required = true, description = "The group.")
    String group;

    @Option(names = "--since", paramLabel = "WHEN",
            description = "Only events at or after WHEN: a duration ago (30m, 2h, 7d) or a date-time with zone "
                    + "(2024-05-01T10:00:00Z).")
    String since;

    @Option(names = "--record", description = "Watch the group and record its history until interrupted.")
    boolean record;

    @Option(names = "--interval", paramLabel = "DURATION", defaultValue = "5s", converter = DurationParser.class,
            description = "With --record: time between looks at the group (default: ${DEFAULT-VALUE}).")
    Duration interval;

    @Option(names = "--stall-after", paramLabel = "DURATION", defaultValue = "2m", converter = DurationParser.class,
            description = "With --record: an owned partition with backlog and no commit for this long is a commit stall "
                    + "(default: ${DEFAULT-VALUE}).")
    Duration stallAfter;

    @Option(names = "--stale-after", paramLabel = "DURATION", defaultValue = "5m", converter = DurationParser.class,
            description = "Phase inference: a ZooKeeper offset older than this is stale (default: ${DEFAULT-VALUE}).")
    Duration staleAfter;

    @Override
    ExitCode run(Clients clients) {
        HistoryService service = new HistoryService(clients);
        if (record) {
            if (interval.isZero() || interval.isNegative()) {
                throw new CliException(ExitCode.USAGE, "--interval must be positive");
            }
            service.record(group, interval, staleAfter, stallAfter, at -> {
                err().println("zkgroups: recording the history of group " + group + " from " + at + ", every "
                        + interval.toMillis() + " ms");
                err().flush();
            }, events -> events.forEach(this::print));
            return ExitCode.OK;
        }
        List<HistoryEvent> events = service.history(group, since == null ? null : parseSince(since), staleAfter);
        if (json()) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("group", group);
            doc.put("events", events);
            printJson(doc);
        } else {
            events.forEach(this::print);
            out().flush();
        }
        return ExitCode.OK;
    }

    private void print(HistoryEvent e) {
        if (json()) {
            Json.printLine(out(), e);
            out().flush();
            return;
        }
        StringBuilder b = new StringBuilder(e.at()).append("  ").append(e.type());
        if (e.member() != null) {
            b.append("  ").append(e.member());
        }
        if (e.host() != null) {
            b.append(" (host ").append(e.host()).append(')');
        }
        if (e.topic() != null) {
            b.append("  ").append(e.topic()).append(':').append(e.partition());
        }
        if (e.from() != null) {
            b.append("  from ").append(e.from());
        }
        if (e.before() != null || e.after() != null) {
            b.append("  offset ").append(e.before() == null ? "-" : e.before()).append(" -> ")
                    .append(e.after() == null ? "-" : e.after());
        }
        if (e.durationMs() != null) {
            b.append("  took ").append(e.durationMs()).append(" ms");
        }
        if (e.attribution() != null) {
            b.append("  by ").append(e.attribution());
        }
        if (e.detail() != null) {
            b.append("  ").append(e.detail());
        }
        b.append("  [").append(e.source()).append(']');
        out().println(b);
        for (var c : e.changes()) {
            out().println("    " + c.topic() + ":" + c.partition() + " " + c.store() + " " + (c.before() == null ? "-" : c.before())
                    + " -> " + (c.after() == null ? "(deleted)" : c.after()));
        }
        if (record) {
            out().flush();
        }
    }

    private static Instant parseSince(String text) {
        try {
            return text.contains("T") ? DateTimes.parse(text) : Instant.now().minus(DurationParser.parse(text));
        } catch (RuntimeException e) {
            throw new CliException(ExitCode.USAGE, "--since '" + text + "': expected a duration ago (30m, 2h, 7d) or a "
                    + "date-time with a zone (2024-05-01T10:00:00Z)", e);
        }
    }
}
