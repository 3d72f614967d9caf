package io.zkgroups.tool.transfer;

import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.store.Unreadable;
import io.zkgroups.registry.store.OffsetRegistry;
import io.zkgroups.tool.CliException;
import io.zkgroups.tool.ExitCode;
import io.zkgroups.tool.group.ActiveGuard;
import io.zkgroups.tool.group.Store;
import io.zkgroups.tool.io.Clients;
import io.zkgroups.tool.io.TopicCatalog;
import io.zkgroups.tool.io.ZkGroups;
import io.zkgroups.tool.reset.ResetPlan;
import io.zkgroups.tool.reset.ResetService;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.MalformedInputException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/** {@code offsets export} and {@code offsets import}. */
public final class TransferService {

    private final Clients clients;

    public TransferService(Clients clients) {
        this.clients = clients;
    }

    /** Offsets of {@code groups} (all groups under /consumers when null) from {@code store}, sorted. */
    /** The lines of an export: the format's header line (if it has one and {@code header}), then one per record. */
    public static List<String> lines(OffsetFileFormat format, boolean header, List<OffsetRecord> records) {
        List<String> lines = new ArrayList<>();
        if (header && format.header() != null) {
            lines.add(format.header());
        }
        records.forEach(r -> lines.add(format.format(r)));
        return lines;
    }

    public List<OffsetRecord> export(List<String> groups, Store store) {
        ZkGroups zk = clients.zk();
        List<String> wanted = groups == null ? zk.groups() : groups;
        List<OffsetRecord> records = new ArrayList<>();
        if (store == Store.ZOOKEEPER) {
            List<Unreadable> unreadable = new ArrayList<>();
            for (String group : wanted) {
                if (groups != null && !zk.exists(group)) {
                    throw new CliException(ExitCode.NOT_FOUND, "group " + group + " not found: no /consumers/" + group);
                }
                OffsetRegistry.OffsetRead read = zk.offsets(group);
                unreadable.addAll(read.unreadable());
                read.offsets().forEach((tp, offset) -> records.add(new OffsetRecord(group, tp, offset)));
            }
            if (!unreadable.isEmpty()) {
                throw new CliException(ExitCode.UNREADABLE_ZNODE, "nothing exported: " + unreadable.size()
                        + " offset znodes cannot be read: " + unreadable.subList(0, Math.min(5, unreadable.size())));
            }
        } else {
            Map<String, Map<TopicAndPartition, Long>> all = clients.requireKafka("offsets export --from kafka")
                    .groupOffsets(wanted);
            for (String group : wanted) {
                Map<TopicAndPartition, Long> offsets = all.getOrDefault(group, Map.of());
                if (groups != null && offsets.isEmpty() && !zk.exists(group)) {
                    throw new CliException(ExitCode.NOT_FOUND, "group " + group + " has no offsets in Kafka");
                }
                offsets.forEach((tp, offset) -> records.add(new OffsetRecord(group, tp, offset)));
            }
        }
        return records;
    }

    /** Reads a whole file as lines; missing or undecodable files are {@link ExitCode#BAD_INPUT_FILE}. */
    public static List<String> readLines(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new CliException(ExitCode.BAD_INPUT_FILE, file + ": no such file");
        } catch (MalformedInputException e) {
            throw new CliException(ExitCode.BAD_INPUT_FILE, file + ": not UTF-8 text");
        } catch (IOException e) {
            throw new CliException(ExitCode.BAD_INPUT_FILE, "cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /** Fails with every bad line of a parsed file, named with the file and line number. */
    public static void requireValid(Path file, ParsedOffsetFile parsed) {
        if (!parsed.isValid()) {
            StringBuilder b = new StringBuilder(file + ": " + parsed.errors().size() + " bad line"
                    + (parsed.errors().size() == 1 ? "" : "s") + ", nothing written");
            parsed.errors().forEach(e -> b.append(System.lineSeparator()).append("zkgroups: ").append(file).append(':')
                    .append(e.line()).append(": ").append(e.reason()));
            throw new CliException(ExitCode.BAD_INPUT_FILE, b.toString());
        }
    }

    /**
     * Validates a parsed import file against the cluster (every partition exists, no group is active) and plans
     * each group's writes with the reset rules (stores by phase, clamping into the log range).
     */
    public Map<String, ResetPlan> planImport(Path file, ParsedOffsetFile parsed, Set<Store> override, Duration staleAfter,
                                            List<String> warnings) {
        requireValid(file, parsed);
        Set<String> topics = new TreeSet<>();
        parsed.records().forEach(r -> topics.add(r.partition().topic()));
        Map<String, Integer> counts = TopicCatalog.partitionCounts(clients, topics);
        List<String> missing = new ArrayList<>();
        for (int i = 0; i < parsed.records().size(); i++) {
            OffsetRecord r = parsed.records().get(i);
            Integer n = counts.get(r.partition().topic());
            if (n == null || r.partition().partition() >= n) {
                missing.add(file + ":" + parsed.lines().get(i) + ": " + (n == null ? "topic " + r.partition().topic()
                        + " does not exist" : "topic " + r.partition().topic() + " has no partition " + r.partition().partition()));
            }
        }
        if (!missing.isEmpty()) {
            throw new CliException(ExitCode.NOT_FOUND, missing.size() + " lines name partitions that do not exist, nothing written"
                    + System.lineSeparator() + "zkgroups: " + String.join(System.lineSeparator() + "zkgroups: ", missing));
        }
        Map<String, Map<TopicAndPartition, Long>> byGroup = new TreeMap<>();
        parsed.records().forEach(r -> byGroup.computeIfAbsent(r.group(), g -> new TreeMap<>()).put(r.partition(), r.offset()));
        ResetService reset = new ResetService(clients, staleAfter, warnings);
        Map<String, ResetPlan> plans = new LinkedHashMap<>();
        byGroup.forEach((group, offsets) -> plans.put(group, reset.planFile(group, file.toString(), offsets, override)));
        return plans;
    }

    /** Writes every plan, after checking that no group is active (all are checked before anything is written). */
    public Map<String, ResetService.Outcome> executeImport(Map<String, ResetPlan> plans, Duration staleAfter) {
        ZkGroups zk = clients.zk();
        List<String> active = new ArrayList<>();
        for (String group : plans.keySet()) {
            try {
                ActiveGuard.requireInactive(zk, group, "import offsets");
            } catch (CliException e) {
                active.add(e.getMessage());
            }
        }
        if (!active.isEmpty()) {
            throw new CliException(ExitCode.GROUP_ACTIVE, String.join(System.lineSeparator() + "zkgroups: ", active)
                    + System.lineSeparator() + "zkgroups: nothing written");
        }
        ResetService reset = new ResetService(clients, staleAfter, new ArrayList<>());
        Map<String, ResetService.Outcome> outcomes = new LinkedHashMap<>();
        plans.forEach((group, plan) -> outcomes.put(group, reset.execute(plan, "import")));
        return outcomes;
    }

    /** Writes the {@link #lines} of an export to {@code file}. */
    public static void write(Path file, List<String> lines) {
        try {
            Files.write(file, lines, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new CliException(ExitCode.BAD_INPUT_FILE, "cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
