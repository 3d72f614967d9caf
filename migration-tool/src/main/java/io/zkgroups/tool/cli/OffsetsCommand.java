package io.zkgroups.tool.cli;

import io.zkgroups.tool.CliException;
import io.zkgroups.tool.ExitCode;
import io.zkgroups.tool.group.Store;
import io.zkgroups.tool.io.Clients;
import io.zkgroups.tool.reset.ResetPlan;
import io.zkgroups.tool.reset.ResetService;
import io.zkgroups.tool.reset.ResetStrategy;
import io.zkgroups.tool.reset.TopicScope;
import io.zkgroups.tool.transfer.OffsetFileFormat;
import io.zkgroups.tool.transfer.OffsetFileParser;
import io.zkgroups.tool.transfer.OffsetRecord;
import io.zkgroups.tool.transfer.ParsedOffsetFile;
import io.zkgroups.tool.transfer.TransferService;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** {@code zkgroups offsets reset|export|import}. */
@Command(name = "offsets", mixinStandardHelpOptions = true, description = "Reset, export and import group offsets.",
        subcommands = {OffsetsCommand.Reset.class, OffsetsCommand.Export.class, OffsetsCommand.Import.class})
final class OffsetsCommand extends ParentCommand {

    /** {@code --store}: which stores to write instead of the phase rule. */
    enum StoreChoice {
        zookeeper, kafka, both;

        Set<Store> stores() {
            return switch (this) {
                case zookeeper -> EnumSet.of(Store.ZOOKEEPER);
                case kafka -> EnumSet.of(Store.KAFKA);
                case both -> EnumSet.of(Store.ZOOKEEPER, Store.KAFKA);
            };
        }
    }

    @Command(name = "reset", sortOptions = false, description = {
            "Move a group's offsets. Prints the plan; writes only with --execute, and only while the group has no "
                    + "member (exit 4 names the live members).",
            "Stores: both in the dual-commit phase (0.8.2.2 reads the max of both, so a one-store rewind would be "
                    + "undone), else the phase's store plus any store already holding an offset; --store overrides."})
    static final class Reset extends AbstractCommand {
        @Option(names = "--group", paramLabel = "G", required = true, description = "The group.")
        String group;

        @Option(names = "--all-topics", description = "Every topic the group has offsets or owners for.")
        boolean allTopics;

        @Option(names = "--topic", paramLabel = "TOPIC[:P,P...]", description = "A topic, or some of its partitions; repeatable.")
        List<String> topics = new ArrayList<>();

        @Option(names = "--to-earliest", description = "To the log start offset.")
        boolean toEarliest;

        @Option(names = "--to-latest", description = "To the log end offset.")
        boolean toLatest;

        @Option(names = "--to-current", description = "To the current offset (rewrites it, e.g. to make both stores agree).")
        boolean toCurrent;

        @Option(names = "--to-offset", paramLabel = "N", description = "To offset N (clamped into the log range).")
        Long toOffset;

        @Option(names = "--shift-by", paramLabel = "N", description = "Current offset + N (negative: back; clamped).")
        Long shiftBy;

        @Option(names = "--to-datetime", paramLabel = "DATETIME",
                description = "To the first offset at or after this time; ISO-8601 with an explicit zone, e.g. "
                        + "2024-05-01T10:00:00Z or 2024-05-01T12:00:00+02:00[Europe/Paris].")
        String toDatetime;

        @Option(names = "--by-duration", paramLabel = "DURATION", converter = DurationParser.class,
                description = "To the first offset at or after now minus DURATION (e.g. 30m, 2h, PT1H).")
        Duration byDuration;

        @Option(names = "--from-file", paramLabel = "FILE",
                description = "Offsets from a file: topic,partition,offset or group,topic,partition,offset or "
                        + "/consumers/G/offsets/T/P:offset lines.")
        Path fromFile;

        @Option(names = "--store", paramLabel = "STORE", description = "zookeeper, kafka or both: write these stores only.")
        StoreChoice store;

        @Option(names = "--stale-after", paramLabel = "DURATION", defaultValue = "5m", converter = DurationParser.class,
                description = "Phase inference: a ZooKeeper offset older than this is stale (default: ${DEFAULT-VALUE}).")
        Duration staleAfter;

        @Mixin
        WriteMode writeMode;

        @Override
        ExitCode run(Clients clients) {
            boolean execute = writeMode.execute();
            ResetStrategy strategy = strategy();
            if (allTopics && !topics.isEmpty()) {
                throw new CliException(ExitCode.USAGE, "give --all-topics or --topic, not both");
            }
            if (!allTopics && topics.isEmpty() && !(strategy instanceof ResetStrategy.FromFile)) {
                throw new CliException(ExitCode.USAGE, "give the scope: --all-topics or --topic TOPIC[:P,P...]");
            }
            List<TopicScope> scopes = new ArrayList<>();
            for (String t : topics) {
                try {
                    scopes.add(TopicScope.parse(t));
                } catch (IllegalArgumentException e) {
                    throw new CliException(ExitCode.USAGE, e.getMessage());
                }
            }
            List<String> warnings = new ArrayList<>();
            ResetService service = new ResetService(clients, staleAfter, warnings);
            ResetPlan plan = service.plan(group, allTopics, scopes, strategy, store == null ? null : store.stores());
            warnings.forEach(this::warn);
            ResetService.Outcome outcome = null;
            if (execute) {
                outcome = service.execute(plan);
            } else if (!io.zkgroups.tool.group.ActiveGuard.members(clients.zk(), group).isEmpty()) {
                warn("group " + group + " is active: --execute will be refused until its members stop");
            }
            if (json()) {
                Map<String, Object> doc = new LinkedHashMap<>();
                doc.put("plan", plan);
                doc.put("executed", execute);
                doc.put("written", outcome);
                printJson(doc);
            } else {
                ResetPlanView.print(out(), plan);
                out().println(outcome == null ? "Nothing written: rerun with --execute."
                        : "Wrote " + outcome.zookeeperWrites() + " offsets to ZooKeeper and " + outcome.kafkaWrites()
                                + " to Kafka.");
            }
            return ExitCode.OK;
        }

        private ResetStrategy strategy() {
            List<ResetStrategy> chosen = new ArrayList<>();
            if (toEarliest) {
                chosen.add(new ResetStrategy.ToEarliest());
            }
            if (toLatest) {
                chosen.add(new ResetStrategy.ToLatest());
            }
            if (toCurrent) {
                chosen.add(new ResetStrategy.ToCurrent());
            }
            if (toOffset != null) {
                if (toOffset < 0) {
                    throw new CliException(ExitCode.USAGE, "--to-offset must be >= 0");
                }
                chosen.add(new ResetStrategy.ToOffset(toOffset));
            }
            if (shiftBy != null) {
                chosen.add(new ResetStrategy.ShiftBy(shiftBy));
            }
            if (toDatetime != null) {
                try {
                    chosen.add(new ResetStrategy.ToTimestamp(DateTimes.parse(toDatetime), "to-datetime " + toDatetime));
                } catch (IllegalArgumentException e) {
                    throw new CliException(ExitCode.USAGE, e.getMessage());
                }
            }
            if (byDuration != null) {
                chosen.add(new ResetStrategy.ToTimestamp(Instant.now().minus(byDuration), "by-duration " + byDuration));
            }
            if (fromFile != null) {
                ParsedOffsetFile parsed = OffsetFileParser.parseForGroup(TransferService.readLines(fromFile), group);
                TransferService.requireValid(fromFile, parsed);
                Map<io.zkgroups.registry.model.TopicAndPartition, Long> offsets = new TreeMap<>();
                parsed.records().forEach(r -> offsets.put(r.partition(), r.offset()));
                chosen.add(new ResetStrategy.FromFile(fromFile.toString(), offsets));
            }
            if (chosen.size() != 1) {
                throw new CliException(ExitCode.USAGE, "give exactly one of --to-earliest, --to-latest, --to-current, "
                        + "--to-offset, --shift-by, --to-datetime, --by-duration, --from-file");
            }
            return chosen.get(0);
        }
    }

    @Command(name = "export", description = {
            "Write groups' offsets as /consumers/G/offsets/T/P:offset lines (0.8.2.2 ExportZkOffsets) or CSV "
                    + "group,topic,partition,offset with a header; --format csv --no-header writes Kafka's layout instead "
                    + "(kafka-consumer-groups --reset-offsets --from-file): topic,partition,offset for one group, "
                    + "group,topic,partition,offset for several. Offsets are the next offset to consume."})
    static final class Export extends AbstractCommand {
        @Option(names = "--group", paramLabel = "G", description = "A group; repeatable.")
        List<String> groups = new ArrayList<>();

        @Option(names = "--all-groups", description = "Every group under /consumers.")
        boolean allGroups;

        @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "zk", description = "zk or csv (default: ${DEFAULT-VALUE}).")
        String format;

        @Option(names = "--no-header", description = "With --format csv: Kafka's layout, no header line, and no group "
                + "column when one group is exported.")
        boolean noHeader;

        @Option(names = "--from", paramLabel = "FROM", defaultValue = "zookeeper", description = "zookeeper or kafka (default: ${DEFAULT-VALUE}).")
        String from;

        @Option(names = "--file", paramLabel = "FILE", description = "Write here instead of stdout.")
        Path file;

        @Override
        ExitCode run(Clients clients) {
            if (allGroups == !groups.isEmpty()) {
                throw new CliException(ExitCode.USAGE, "give --group G (repeatable) or --all-groups");
            }
            OffsetFileFormat fmt = switch (format.toLowerCase(java.util.Locale.ROOT)) {
                case "zk" -> OffsetFileFormat.ZK;
                case "csv" -> OffsetFileFormat.CSV;
                default -> throw new CliException(ExitCode.USAGE, "--format must be zk or csv");
            };
            if (noHeader && fmt != OffsetFileFormat.CSV) {
                throw new CliException(ExitCode.USAGE, "--no-header goes with --format csv (zk lines have no header)");
            }
            if (noHeader && !allGroups && groups.stream().distinct().count() == 1) {
                fmt = OffsetFileFormat.KAFKA_CSV;
            }
            Store store = switch (from.toLowerCase(java.util.Locale.ROOT)) {
                case "zookeeper" -> Store.ZOOKEEPER;
                case "kafka" -> Store.KAFKA;
                default -> throw new CliException(ExitCode.USAGE, "--from must be zookeeper or kafka");
            };
            List<OffsetRecord> records = new TransferService(clients).export(allGroups ? null : groups, store);
            List<String> lines = TransferService.lines(fmt, !noHeader, records);
            if (file != null) {
                TransferService.write(file, lines);
                long groupCount = records.stream().map(OffsetRecord::group).distinct().count();
                if (json()) {
                    printJson(Map.of("file", file.toString(), "offsets", records.size(), "groups", groupCount));
                } else {
                    out().println("Exported " + records.size() + " offsets of " + groupCount + " groups from " + store.label()
                            + " to " + file);
                }
            } else if (json()) {
                printJson(Map.of("offsets", records));
            } else {
                lines.forEach(out()::println);
                out().flush();
            }
            return ExitCode.OK;
        }
    }

    @Command(name = "import", description = {
            "Write offsets from a file (zk lines or CSV, as export writes, with or without header; Kafka's "
                    + "topic,partition,offset lines with --group). The whole file is checked first: every bad "
                    + "line is reported with its number and nothing is written (exit 6). Prints the plan; writes only "
                    + "with --execute, and only while none of the file's groups has members. Stores as for reset."})
    static final class Import extends AbstractCommand {
        @Option(names = "--file", required = true, paramLabel = "FILE", description = "The offsets file.")
        Path file;

        @Option(names = "--group", paramLabel = "G", description = "The group of topic,partition,offset lines (Kafka's layout); other "
                + "lines must then name this group.")
        String group;

        @Option(names = "--store", paramLabel = "STORE", description = "zookeeper, kafka or both: write these stores only.")
        StoreChoice store;

        @Option(names = "--stale-after", paramLabel = "DURATION", defaultValue = "5m", converter = DurationParser.class,
                description = "Phase inference: a ZooKeeper offset older than this is stale (default: ${DEFAULT-VALUE}).")
        Duration staleAfter;

        @Mixin
        WriteMode writeMode;

        @Override
        ExitCode run(Clients clients) {
            boolean execute = writeMode.execute();
            List<String> lines = TransferService.readLines(file);
            ParsedOffsetFile parsed = group == null ? OffsetFileParser.parse(lines) : OffsetFileParser.parseForGroup(lines, group);
            TransferService.requireValid(file, parsed);
            TransferService service = new TransferService(clients);
            List<String> warnings = new ArrayList<>();
            Map<String, ResetPlan> plans = service.planImport(file, parsed, store == null ? null : store.stores(),
                    staleAfter, warnings);
            warnings.forEach(this::warn);
            Map<String, ResetService.Outcome> outcomes = execute ? service.executeImport(plans, staleAfter) : Map.of();
            if (json()) {
                Map<String, Object> doc = new LinkedHashMap<>();
                doc.put("plans", plans.values());
                doc.put("executed", execute);
                doc.put("written", outcomes);
                printJson(doc);
            } else {
                for (ResetPlan plan : plans.values()) {
                    ResetPlanView.print(out(), plan);
                    out().println();
                }
                if (execute) {
                    int zk = outcomes.values().stream().mapToInt(ResetService.Outcome::zookeeperWrites).sum();
                    int kafka = outcomes.values().stream().mapToInt(ResetService.Outcome::kafkaWrites).sum();
                    out().println("Imported " + parsed.records().size() + " offsets of " + plans.size() + " groups: wrote "
                            + zk + " to ZooKeeper and " + kafka + " to Kafka.");
                } else {
                    out().println("Nothing written: rerun with --execute.");
                }
            }
            return ExitCode.OK;
        }
    }
}
