package io.zkgroups.tool.cli;

import io.zkgroups.tool.CliException;
import io.zkgroups.tool.ExitCode;
import io.zkgroups.tool.io.Clients;
import io.zkgroups.registry.model.Coordinator;
import io.zkgroups.tool.migrate.CoordinationCutover;
import io.zkgroups.tool.migrate.Direction;
import io.zkgroups.tool.migrate.MigrationPlan;
import io.zkgroups.tool.migrate.MigrationService;
import io.zkgroups.tool.migrate.MoveAction;
import io.zkgroups.tool.migrate.VerifyReport;
import io.zkgroups.tool.output.Progress;
import io.zkgroups.tool.output.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code zkgroups migrate plan|execute|verify|rollback}. */
@Command(name = "migrate", mixinStandardHelpOptions = true,
        description = {"Copy group offsets between ZooKeeper and Kafka (docs/migration-runbook.md).",
                "Offsets mean the same in both stores (the next offset to consume) and are copied unchanged. Never "
                        + "moves an offset backwards unless --allow-rewind (refused on an active group). Idempotent; a "
                        + "killed run is resumed by running it again."},
        subcommands = {MigrateCommand.Plan.class, MigrateCommand.Execute.class, MigrateCommand.Verify.class,
                MigrateCommand.Rollback.class, MigrateCommand.Coordination.class})
final class MigrateCommand extends ParentCommand {

    /** Options shared by the four subcommands. */
    abstract static class Base extends AbstractCommand {
        @Option(names = "--group", paramLabel = "G", description = "A group; repeatable.")
        List<String> groups = new ArrayList<>();

        @Option(names = "--all-groups", description = "Every group under /consumers.")
        boolean allGroups;

        @Option(names = "--parallelism", paramLabel = "N", defaultValue = "8",
                description = "Groups read and written at a time (default: ${DEFAULT-VALUE}).")
        int parallelism;

        @Option(names = "--batch-size", paramLabel = "N", defaultValue = "50",
                description = "Groups per batched Kafka offset fetch (default: ${DEFAULT-VALUE}).")
        int batchSize;

        @Option(names = "--progress", description = "Progress on stderr even when it is not a terminal.")
        boolean progress;

        @Option(names = "--details", description = "With several groups: a row per partition, not per group.")
        boolean details;

        List<String> selectedGroups(Clients clients) {
            if (allGroups == !groups.isEmpty()) {
                throw new CliException(ExitCode.USAGE, "give --group G (repeatable) or --all-groups");
            }
            if (parallelism < 1 || batchSize < 1) {
                throw new CliException(ExitCode.USAGE, "--parallelism and --batch-size must be >= 1");
            }
            return new MigrationService(clients).groups(groups, allGroups);
        }

        Progress progress(String what, int total) {
            return new Progress(err(), progress || terminal(), terminal() && !progress, what, total);
        }

        boolean perPartition() {
            return details || groups.size() == 1;
        }
    }

    /** plan / execute / rollback. */
    abstract static class Copy extends Base {
        @Option(names = "--allow-rewind", description = "Also move target offsets backwards (only on inactive groups).")
        boolean allowRewind;

        ExitCode copy(Clients clients, Direction direction, boolean write) {
            List<String> selected = selectedGroups(clients);
            MigrationService service = new MigrationService(clients);
            List<MigrationService.GroupResult> results = service.migrate(selected,
                    new MigrationService.Options(direction, allowRewind, parallelism, batchSize), write,
                    progress(write ? "migrated groups" : "planned groups", selected.size()), r -> { });
            print(results, direction, write);
            boolean errors = results.stream().anyMatch(r -> r.error() != null);
            results.stream().filter(r -> r.error() != null).forEach(r -> err().println("zkgroups: group " + r.group() + ": " + r.error()));
            boolean skipped = results.stream().anyMatch(r -> r.plan() != null && r.plan().skipsRewinds());
            if (errors) {
                return ExitCode.UNREADABLE_ZNODE;
            }
            if (skipped) {
                err().println("zkgroups: some partitions were left alone because " + direction.target() + " is ahead of "
                        + direction.source() + " (see SKIP_REWIND); --allow-rewind on an inactive group forces them");
                return ExitCode.REWIND_SKIPPED;
            }
            return ExitCode.OK;
        }

        private void print(List<MigrationService.GroupResult> results, Direction direction, boolean write) {
            Map<MoveAction, Integer> totals = new LinkedHashMap<>();
            for (MoveAction a : MoveAction.values()) {
                totals.put(a, 0);
            }
            results.stream().filter(r -> r.plan() != null).forEach(r -> r.plan().counts().forEach((a, n) -> totals.merge(a, n, Integer::sum)));
            int written = totals.entrySet().stream().filter(e -> e.getKey().writes()).mapToInt(Map.Entry::getValue).sum();
            if (json()) {
                Map<String, Object> doc = new LinkedHashMap<>();
                doc.put("direction", direction);
                doc.put("source", direction.source());
                doc.put("target", direction.target());
                doc.put("executed", write);
                doc.put("groups", results);
                doc.put("totals", totals);
                doc.put("written", write ? written : 0);
                printJson(doc);
                return;
            }
            out().println((write ? "Migration " : "Migration plan ") + direction.source() + " -> " + direction.target()
                    + " (offsets = next offset to consume, copied unchanged)");
            if (perPartition()) {
                Table t = new Table("GROUP", "TOPIC", "PARTITION", direction.source().toUpperCase(), direction.target().toUpperCase(), "ACTION");
                for (MigrationService.GroupResult r : results) {
                    if (r.plan() == null) {
                        t.row(r.group(), null, null, null, null, "ERROR");
                        continue;
                    }
                    for (MigrationPlan.Move m : r.plan().moves()) {
                        t.row(r.group(), m.partition().topic(), m.partition().partition(), m.comparison().source(),
                                m.comparison().target(), m.action());
                    }
                }
                t.print(out());
            } else {
                Table t = new Table("GROUP", "PARTITIONS", "COPY", "ADVANCE", "REWIND", "IN_SYNC", "SKIP_REWIND", "OTHER_SKIPS");
                for (MigrationService.GroupResult r : results) {
                    if (r.plan() == null) {
                        t.row(r.group(), null, null, null, null, null, null, "ERROR");
                        continue;
                    }
                    Map<MoveAction, Integer> c = r.plan().counts();
                    t.row(r.group(), r.plan().moves().size(), c.get(MoveAction.COPY), c.get(MoveAction.ADVANCE),
                            c.get(MoveAction.REWIND), c.get(MoveAction.IN_SYNC), c.get(MoveAction.SKIP_REWIND),
                            c.get(MoveAction.SKIP_INVALID) + c.get(MoveAction.SKIP_NO_PARTITION) + c.get(MoveAction.TARGET_ONLY));
                }
                t.print(out());
            }
            out().println((write ? "Wrote " : "Would write ") + written + " offsets to " + direction.target() + " in "
                    + results.size() + " groups; " + totals.get(MoveAction.IN_SYNC) + " already in sync, "
                    + totals.get(MoveAction.SKIP_REWIND) + " left alone (target ahead).");
        }
    }

    @Command(name = "plan", description = "Show what 'migrate execute' would copy from ZooKeeper to Kafka. Writes nothing.")
    static final class Plan extends Copy {
        @Option(names = "--rollback", description = "Plan the rollback direction (Kafka -> ZooKeeper) instead.")
        boolean rollback;

        @Override
        ExitCode run(Clients clients) {
            ExitCode code = copy(clients, rollback ? Direction.KAFKA_TO_ZOOKEEPER : Direction.ZOOKEEPER_TO_KAFKA, false);
            return code == ExitCode.REWIND_SKIPPED ? ExitCode.OK : code;
        }
    }

    @Command(name = "execute", description = {"Copy ZooKeeper offsets into the groups' Kafka offsets.",
            "Exit 9 when some partitions were left alone because Kafka is ahead."})
    static final class Execute extends Copy {
        @Override
        ExitCode run(Clients clients) {
            return copy(clients, Direction.ZOOKEEPER_TO_KAFKA, true);
        }
    }

    @Command(name = "rollback", description = {"Copy the groups' Kafka offsets into ZooKeeper (the way back).",
            "Exit 9 when some partitions were left alone because ZooKeeper is ahead."})
    static final class Rollback extends Copy {
        @Override
        ExitCode run(Clients clients) {
            return copy(clients, Direction.KAFKA_TO_ZOOKEEPER, true);
        }
    }

    @Command(name = "verify", description = {"Compare ZooKeeper and Kafka offsets per partition.",
            "Exit 0 when every partition with a source offset has the same offset in the target (within "
                    + "--tolerance), 8 on any divergence."})
    static final class Verify extends Base {
        @Option(names = "--rollback", description = "Verify the rollback direction: Kafka is the source, ZooKeeper the target.")
        boolean rollback;

        @Option(names = "--tolerance", paramLabel = "N", defaultValue = "0", description = "Largest |target - source| that still agrees (default: ${DEFAULT-VALUE}).")
        long tolerance;

        @Override
        ExitCode run(Clients clients) {
            if (tolerance < 0) {
                throw new CliException(ExitCode.USAGE, "--tolerance must be >= 0");
            }
            Direction direction = rollback ? Direction.KAFKA_TO_ZOOKEEPER : Direction.ZOOKEEPER_TO_KAFKA;
            List<String> selected = selectedGroups(clients);
            List<VerifyReport> reports = new MigrationService(clients).verify(selected, direction, tolerance, parallelism,
                    batchSize, progress("verified groups", selected.size()));
            long divergent = reports.stream().mapToLong(VerifyReport::divergentCount).sum();
            long partitions = reports.stream().mapToLong(r -> r.rows().size()).sum();
            long divergentGroups = reports.stream().filter(r -> !r.isClean()).count();
            if (json()) {
                Map<String, Object> doc = new LinkedHashMap<>();
                doc.put("source", direction.source());
                doc.put("target", direction.target());
                doc.put("tolerance", tolerance);
                doc.put("groups", reports.size());
                doc.put("partitions", partitions);
                doc.put("divergentPartitions", divergent);
                doc.put("divergentGroups", divergentGroups);
                doc.put("reports", perPartition() ? reports : reports.stream().filter(r -> !r.isClean()).toList());
                printJson(doc);
            } else {
                Table t = new Table("GROUP", "TOPIC", "PARTITION", direction.source().toUpperCase(),
                        direction.target().toUpperCase(), "DIFF", "STATUS");
                for (VerifyReport r : reports) {
                    for (VerifyReport.Row row : r.rows()) {
                        if (perPartition() || !row.status().equals("ok")) {
                            t.row(r.group(), row.partition().topic(), row.partition().partition(), row.comparison().source(),
                                    row.comparison().target(), row.comparison().difference(), row.status());
                        }
                    }
                }
                if (!t.isEmpty()) {
                    t.print(out());
                }
                out().println((divergent == 0 ? "OK: " : "DIVERGED: ") + divergent + " of " + partitions + " partitions in "
                        + divergentGroups + " of " + reports.size() + " groups differ (" + direction.target() + " vs "
                        + direction.source() + ", tolerance " + tolerance + ").");
            }
            return divergent == 0 ? ExitCode.OK : ExitCode.DIVERGENCE;
        }
    }

    @Command(name = "coordination", description = {"Move a live group to Kafka's group coordinator, or back "
            + "(docs/cutover.md).",
            "Checks the guard rails and shows the plan; with --execute records the decision in ZooKeeper, which every "
                    + "member follows in its own process. Exit 13 when a check fails (nothing is written)."})
    static final class Coordination extends AbstractCommand {
        @Option(names = "--group", paramLabel = "G", required = true, description = "The group.")
        String group;

        @Option(names = "--to", paramLabel = "COORDINATOR", required = true,
                description = "kafka (Kafka's group protocol) or zookeeper (back to 0.8's protocol).")
        String to;

        @Option(names = "--execute", description = "Record the decision (default: only check and show the plan).")
        boolean execute;

        @Override
        ExitCode run(Clients clients) {
            Coordinator target = Coordinator.parse(to).orElseThrow(() ->
                    new CliException(ExitCode.USAGE, "--to must be kafka or zookeeper, not '" + to + "'"));
            CoordinationCutover.Plan plan = new CoordinationCutover(clients).run(group, target, execute);
            if (json()) {
                printJson(plan);
            } else {
                Table t = new Table("CHECK", "OK", "DETAIL");
                plan.checks().forEach(c -> t.row(c.name(), c.ok() ? "yes" : "NO", c.detail()));
                if (!t.isEmpty()) {
                    t.print(out());
                }
                out().println(summary(plan));
            }
            if (!plan.allowed()) {
                plan.checks().stream().filter(c -> !c.ok()).forEach(c ->
                        err().println("zkgroups: group " + plan.group() + ": " + c.name() + ": " + c.detail()));
                return ExitCode.CUTOVER_REFUSED;
            }
            return ExitCode.OK;
        }

        private String summary(CoordinationCutover.Plan plan) {
            if (plan.alreadyThere()) {
                return "Group " + plan.group() + " is coordinated by " + plan.to() + " already: nothing to do.";
            }
            if (!plan.allowed()) {
                return "Refused: group " + plan.group() + " stays on " + plan.from() + "; nothing was written.";
            }
            return plan.executed()
                    ? "Recorded: group " + plan.group() + " moves from " + plan.from() + " to " + plan.to()
                    + "; every member crosses in its own process (watch it with zkgroups groups describe)."
                    : "Would move group " + plan.group() + " from " + plan.from() + " to " + plan.to()
                    + "; run again with --execute to record the decision.";
        }
    }
}
