package io.zkgroups.tool.cli;

import io.zkgroups.tool.ExitCode;
import io.zkgroups.tool.group.GroupDescription;
import io.zkgroups.tool.group.GroupsService;
import io.zkgroups.tool.io.Clients;
import io.zkgroups.tool.output.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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

    @Command(name = "describe", description = {
            "Per partition: ZooKeeper offset, Kafka offset, log end, lag, owner thread and member host; members "
                    + "without partitions; the group state (stable, rebalancing, empty, dead) and migration phase "
                    + "(zookeeper-only, dual-commit, kafka-only; see docs/cli.md for the inference).",
            "Exit 3 for an unknown group, 7 (after printing) when znodes cannot be decoded, 11 (after printing the "
                    + "ZooKeeper half) when Kafka does not answer."})
    static final class Describe extends AbstractCommand {
        @Option(names = "--group", required = true, description = "The group.")
        String group;

        @Option(names = "--strategy", description = "range, roundrobin or sticky: the assignor the state is checked against "
                + "(default: what the members advertise, else range).")
        String strategy;

        @Option(names = "--stale-after", defaultValue = "5m", converter = DurationParser.class,
                description = "A ZooKeeper offset not written for this long counts as stale in the phase inference "
                        + "(default: ${DEFAULT-VALUE}).")
        Duration staleAfter;

        @Override
        ExitCode run(Clients clients) {
            Strategies.validate(strategy);
            List<String> warnings = new ArrayList<>();
            GroupDescription d = new GroupsService(clients).describe(group, strategy, staleAfter, warnings);
            warnings.forEach(this::warn);
            if (json()) {
                printJson(d);
            } else {
                out().println("GROUP " + d.group() + "  STATE " + d.state() + "  PHASE " + d.phase() + " (" + d.phaseEvidence()
                        + ")  MEMBERS " + d.members().size() + "  STRATEGY " + d.strategy() + " (" + d.strategyReason() + ")");
                out().println();
                Table t = new Table("TOPIC", "PARTITION", "ZK-OFFSET", "KAFKA-OFFSET", "LOG-END", "LAG", "OWNER", "HOST");
                d.partitions().forEach(p -> t.row(p.topic(), p.partition(), p.zookeeperOffset(), p.kafkaOffset(),
                        p.logEndOffset(), p.lag(), p.owner(), p.host()));
                t.print(out());
                if (!d.membersWithoutPartitions().isEmpty()) {
                    out().println();
                    out().println("MEMBERS WITHOUT PARTITIONS");
                    Table m = new Table("CONSUMER-ID", "HOST", "SUBSCRIPTION", "THREADS");
                    d.membersWithoutPartitions().forEach(r -> m.row(r.consumerId(), r.host(), r.subscription(), r.threads()));
                    m.print(out());
                }
            }
            if (!d.unreadable().isEmpty()) {
                d.unreadable().forEach(u -> err().println("zkgroups: unreadable znode " + u));
                return ExitCode.UNREADABLE_ZNODE;
            }
            return d.kafkaProblem() == null ? ExitCode.OK : ExitCode.KAFKA_PARTIAL;
        }
    }

    @Command(name = "delete", description = {
            "Delete an inactive group's ZooKeeper data (/consumers/G), or one topic's owners and offsets. Prints the "
                    + "plan; deletes only with --execute. Refused (exit 4) while members are registered."})
    static final class Delete extends AbstractCommand {
        @Option(names = "--group", required = true, description = "The group.")
        String group;

        @Option(names = "--topic", description = "Only this topic's /owners/T and /offsets/T.")
        String topic;

        @Option(names = "--include-kafka", description = "Also delete the group's Kafka offsets (of --topic, or all).")
        boolean includeKafka;

        @Option(names = "--execute", description = "Delete (without it, only the plan is printed).")
        boolean execute;

        @Override
        ExitCode run(Clients clients) {
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
