package io.zkgroups.tool.cli;

import io.zkgroups.tool.CliException;
import io.zkgroups.tool.ExitCode;
import io.zkgroups.tool.group.GroupDescription;
import io.zkgroups.tool.group.GroupsService;
import io.zkgroups.tool.io.Clients;
import io.zkgroups.tool.output.Table;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** {@code zkgroups groups list|describe|delete}. */
@Command(name = "groups", mixinStandardHelpOptions = true, description = "List, describe and delete groups.",
        subcommands = {GroupsCommand.ListGroups.class, GroupsCommand.Describe.class, GroupsCommand.Delete.class})
final class GroupsCommand extends ParentCommand {

    @Command(name = "list", description = "List the groups under /consumers with their member count and topics.")
    static final class ListGroups extends AbstractCommand {
        @Override
        ExitCode run(Clients clients) {
            List<GroupsService.GroupSummary> groups = new GroupsService(clients).list();
            if (json()) {
                printJson(Map.of("groups", groups));
            } else {
                Table t = new Table("GROUP", "STATE", "MEMBERS", "TOPICS");
                groups.forEach(g -> t.row(g.group(), g.state(), g.members(), String.join(",", g.topics())));
                t.print(out());
            }
            return ExitCode.OK;
        }
    }

    @Command(name = "describe", sortOptions = false, description = {
            "Per partition: ZooKeeper offset, Kafka offset, log end, lag, owner thread and member host; members "
                    + "without partitions; the group state (stable, rebalancing, empty, dead) and migration phase "
                    + "(zookeeper-only, dual-commit, kafka-only; see docs/cli.md for the inference). --members: per member "
                    + "its host, threads and owned partitions; --state: state, members, strategy, phase and coordinator.",
            "Exit 3 for an unknown group (with several, after printing the others), 7 (after printing) when znodes "
                    + "cannot be decoded, 11 (after printing the ZooKeeper half) when Kafka does not answer."})
    static final class Describe extends AbstractCommand {
        @Option(names = "--group", paramLabel = "G", description = "A group; repeatable.")
        List<String> groups = new ArrayList<>();

        @Option(names = "--all-groups", description = "Every group under /consumers.")
        boolean allGroups;

        @ArgGroup(exclusive = true)
        ViewChoice view;

        static final class ViewChoice {
            @Option(names = "--offsets", required = true, description = "Per partition offsets, lag and owner (the default).")
            boolean offsets;

            @Option(names = "--members", required = true, description = "Per member: host, threads, owned partitions.")
            boolean members;

            @Option(names = "--state", required = true,
                    description = "Per group: state, members, strategy, phase, owned partitions, coordinator (ZooKeeper).")
            boolean state;

            DescribePrinter.View view() {
                return members ? DescribePrinter.View.MEMBERS : state ? DescribePrinter.View.STATE : DescribePrinter.View.OFFSETS;
            }
        }

        @Option(names = "--strategy", paramLabel = "STRATEGY", completionCandidates = Strategies.Names.class,
                description = "${COMPLETION-CANDIDATES}: the assignor the state is checked against "
                + "(default: what the members advertise, else range).")
        String strategy;

        @Option(names = "--stale-after", paramLabel = "DURATION", defaultValue = "5m", converter = DurationParser.class,
                description = "A ZooKeeper offset not written for this long counts as stale in the phase inference "
                        + "(default: ${DEFAULT-VALUE}).")
        Duration staleAfter;

        @Override
        ExitCode run(Clients clients) {
            if (allGroups == !groups.isEmpty()) {
                throw new CliException(ExitCode.USAGE, "give --group G (repeatable) or --all-groups");
            }
            Strategies.validate(strategy);
            boolean single = !allGroups && groups.size() == 1;
            GroupsService service = new GroupsService(clients);
            Set<String> warnings = new LinkedHashSet<>();
            List<GroupDescription> found = new ArrayList<>();
            List<String> unknown = new ArrayList<>();
            for (String group : allGroups ? clients.zk().groups() : List.copyOf(new LinkedHashSet<>(groups))) {
                List<String> groupWarnings = new ArrayList<>();
                try {
                    found.add(service.describe(group, strategy, staleAfter, groupWarnings));
                } catch (CliException e) {
                    if (single || e.exitCode() != ExitCode.NOT_FOUND) {
                        throw e;
                    }
                    if (allGroups) { // deleted since it was listed: no group the user named is missing
                        warnings.add("skipped " + e.getMessage());
                        continue;
                    }
                    unknown.add(group);
                    err().println("zkgroups: " + e.getMessage());
                }
                warnings.addAll(groupWarnings);
            }
            warnings.forEach(this::warn);
            DescribePrinter.View chosen = view == null ? DescribePrinter.View.OFFSETS : view.view();
            DescribePrinter printer = new DescribePrinter(out(), clients.settings().zookeeper());
            if (json()) {
                printer.json(chosen, found, unknown, single);
            } else {
                printer.table(chosen, found);
            }
            found.forEach(d -> d.unreadable().forEach(u -> err().println("zkgroups: unreadable znode " + u)));
            err().flush();
            if (!unknown.isEmpty()) {
                return ExitCode.NOT_FOUND;
            }
            if (found.stream().anyMatch(d -> !d.unreadable().isEmpty())) {
                return ExitCode.UNREADABLE_ZNODE;
            }
            return found.stream().allMatch(d -> d.kafkaProblem() == null) ? ExitCode.OK : ExitCode.KAFKA_PARTIAL;
        }
    }

    @Command(name = "delete", description = {
            "Delete an inactive group's ZooKeeper data (/consumers/G), or one topic's owners and offsets. Prints the "
                    + "plan; deletes only with --execute. Refused (exit 4) while members are registered."})
    static final class Delete extends AbstractCommand {
        @Option(names = "--group", paramLabel = "G", required = true, description = "The group.")
        String group;

        @Option(names = "--topic", paramLabel = "T", description = "Only this topic's /owners/T and /offsets/T.")
        String topic;

        @Option(names = "--include-kafka", description = "Also delete the group's Kafka offsets (of --topic, or all).")
        boolean includeKafka;

        @Mixin
        WriteMode writeMode;

        @Override
        ExitCode run(Clients clients) {
            boolean execute = writeMode.execute();
            GroupsService service = new GroupsService(clients);
            GroupsService.DeletePlan plan = service.planDelete(group, topic, includeKafka);
            int deleted = execute ? service.executeDelete(plan) : 0;
            if (json()) {
                Map<String, Object> doc = new LinkedHashMap<>();
                doc.put("plan", plan);
                doc.put("executed", execute);
                doc.put("deletedZnodes", deleted);
                printJson(doc);
            } else {
                String what = topic == null ? "group " + group : "topic " + topic + " of group " + group;
                out().println((execute ? "Deleted " : "Would delete ") + what + ": " + plan.znodes().size() + " znodes ("
                        + plan.zookeeperOffsets() + " ZooKeeper offsets)");
                plan.znodes().forEach(z -> out().println("  " + z));
                if (!plan.kafkaOffsets().isEmpty()) {
                    out().println(plan.includeKafka()
                            ? (execute ? "Deleted " : "Would delete ") + plan.kafkaOffsets().size() + " Kafka offsets"
                            : "Kafka still holds " + plan.kafkaOffsets().size() + " offsets of this group (not touched; "
                                    + "--include-kafka deletes them)");
                }
                if (!execute) {
                    out().println("Nothing deleted: rerun with --execute.");
                }
            }
            return ExitCode.OK;
        }
    }
}
