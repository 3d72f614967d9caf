package io.zkgroups.chaos.monitor;

import io.zkgroups.chaos.monitor.History.Ack;
import io.zkgroups.chaos.monitor.History.Delivery;
import io.zkgroups.chaos.monitor.History.MemberEvent;
import io.zkgroups.chaos.monitor.History.ProcessEnd;
import io.zkgroups.chaos.offsets.OffsetCommitRecord;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Reads a run directory into a {@link History}: {@code acks.log}, {@code members/*.log}, {@code journal.log} and,
 * when present, the ensemble's transaction logs under {@code zk-data/zk1..3} and the group's commits copied from
 * {@code __consumer_offsets} ({@code kafka-offsets.log}). Only a file's torn last line (a SIGKILL mid-write) is
 * skipped: any other malformed line, a missing log and a failed read of {@code __consumer_offsets} go into
 * {@link History#unchecked()}, and fail the run.
 */
public final class HistoryReader {

    private HistoryReader() {
    }

    public static History read(Path runDir, String group, String topic) {
        List<String> unchecked = new ArrayList<>();
        List<Ack> acks = readAcks(runDir.resolve("acks.log"), unchecked);
        List<Delivery> deliveries = new ArrayList<>();
        Map<String, List<MemberEvent>> events = new TreeMap<>();
        Path members = runDir.resolve("members");
        if (Files.isDirectory(members)) {
            try (Stream<Path> files = Files.list(members)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".log")).sorted().toList()) {
                    String process = f.getFileName().toString().replaceAll("\\.log$", "");
                    events.put(process, readMember(f, process, deliveries, unchecked));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        } else {
            unchecked.add("no member logs in " + members + ": nothing handed out can be checked");
        }
        Journal journal = readJournal(runDir.resolve("journal.log"), unchecked);
        Map<String, Long> lastHandOut = new HashMap<>();
        deliveries.forEach(d -> lastHandOut.merge(d.process(), d.nanos(), Math::max));
        Map<String, ProcessEnd> ends = new HashMap<>();
        events.forEach((process, list) -> {
            Long killed = journal.kills.get(process);
            if (killed != null) {
                ends.put(process, new ProcessEnd(killed, "KILLED"));
            } else if (!list.isEmpty() && list.get(list.size() - 1).kind().equals("CLOSED")) {
                ends.put(process, new ProcessEnd(list.get(list.size() - 1).nanos(), "CLOSED"));
            } else {
                long last = Math.max(list.isEmpty() ? Long.MIN_VALUE : list.get(list.size() - 1).nanos(),
                        lastHandOut.getOrDefault(process, Long.MIN_VALUE));
                ends.put(process, new ProcessEnd(last, "VANISHED"));
            }
        });
        List<Path> zkDirs = new ArrayList<>();
        for (int id = 1; id <= 3; id++) {
            Path dir = runDir.resolve("zk-data").resolve("zk" + id);
            if (Files.isDirectory(dir.resolve("version-2"))) {
                zkDirs.add(dir);
            }
        }
        boolean zkKnown = zkDirs.size() == 3 && !journal.clocks.isEmpty();
        if (!zkKnown) {
            unchecked.add("ZooKeeper's transaction logs: " + zkDirs.size() + " of 3 servers' logs under "
                    + runDir.resolve("zk-data") + ", " + journal.clocks.size() + " CLOCK lines in the journal: "
                    + "ownership by ZooKeeper and committed offsets cannot be checked");
        }
        ZkTxnHistory.Result zk = zkKnown
                ? ZkTxnHistory.read(zkDirs, group, topic, new ClockMap(journal.clocks), journal.poisonSessions)
                : new ZkTxnHistory.Result(List.of(), List.of(), 0);
        Set<String> legacy = new TreeSet<>();
        events.forEach((process, list) -> {
            if (list.stream().anyMatch(e -> e.kind().equals("START") && e.detail().endsWith(" legacy"))) {
                legacy.add(process);
            }
        });
        Map<String, List<MemberEvent>> all = legacy.isEmpty() || !zkKnown ? events
                : LegacyTenures.enrich(events, legacy, zk.owners(), zk.offsets());
        unchecked.addAll(journal.unchecked);
        List<History.KafkaCommit> kafka = null;
        Path kafkaFile = runDir.resolve("kafka-offsets.log");
        if (Files.exists(kafkaFile) && !journal.clocks.isEmpty()) {
            kafka = readKafkaCommits(kafkaFile, group, topic, new ClockMap(journal.clocks), unchecked);
        } else if (journal.kafkaOffsetsCopied) {
            unchecked.add("the journal says __consumer_offsets was copied, but " + kafkaFile + " is missing");
        }
        return new History(acks, deliveries, all, ends, zk.owners(), zk.offsets(), zkKnown, journal.unhealthy, legacy,
                kafka, journal.faults, journal.brokerDown, journal.groupFormed, consumerIds(events, legacy, group),
                journal.notResumed, List.copyOf(unchecked));
    }

    /**
     * Each zkgroups process's consumer id from its {@code START nanos <group>_<consumerId> pid mode} line, as owner
     * znodes name it (without the group).
     */
    private static Map<String, String> consumerIds(Map<String, List<MemberEvent>> events, Set<String> legacy, String group) {
        Map<String, String> ids = new HashMap<>();
        events.forEach((process, list) -> {
            if (!legacy.contains(process)) {
                list.stream().filter(e -> e.kind().equals("START")).findFirst()
                        .map(e -> e.detail().split(" ")[0])
                        .filter(id -> id.startsWith(group + "_") && id.length() > group.length() + 1)
                        .ifPresent(id -> ids.put(process, id.substring(group.length() + 1)));
            }
        });
        return ids;
    }

    /** The group's commits of {@code topic} from {@code kafka-offsets.log}. */
    private static List<History.KafkaCommit> readKafkaCommits(Path file, String group, String topic, ClockMap clock,
                                                              List<String> unchecked) {
        List<History.KafkaCommit> commits = new ArrayList<>();
        for (Line line : lines(file)) {
            java.util.Optional<OffsetCommitRecord> record = OffsetCommitRecord.parse(line.text());
            if (record.isEmpty()) {
                malformed(line, unchecked);
                continue;
            }
            OffsetCommitRecord c = record.get();
            if (c.group().equals(group) && c.topic().equals(topic)) {
                commits.add(new History.KafkaCommit(c.deletion() ? -1 : clock.nanosOf(c.commitTimestamp()),
                        c.logOffset(), c.partition(), c.offset()));
            }
        }
        return commits;
    }

    private static List<Ack> readAcks(Path file, List<String> unchecked) {
        if (!Files.exists(file)) {
            unchecked.add("no " + file + ": lost records and stalls cannot be checked");
            return List.of();
        }
        List<Ack> acks = new ArrayList<>();
        for (Line line : lines(file)) {
            String[] f = line.fields();
            try {
                if (!f[0].equals("ACK") || f.length != 4) {
                    throw new IllegalArgumentException("not ACK nanos partition offset");
                }
                acks.add(new Ack(Integer.parseInt(f[2]), Long.parseLong(f[3]), Long.parseLong(f[1])));
            } catch (RuntimeException e) {
                malformed(line, unchecked);
            }
        }
        return acks;
    }

    private static List<MemberEvent> readMember(Path file, String process, List<Delivery> deliveries,
                                                List<String> unchecked) {
        List<MemberEvent> events = new ArrayList<>();
        for (Line line : lines(file)) {
            String[] f = line.fields();
            try {
                long nanos = Long.parseLong(f[1]);
                switch (f[0]) {
                    case "REC" -> {
                        int partition = Integer.parseInt(f[2]);
                        long from = Long.parseLong(f[3]);
                        long to = Long.parseLong(f[4]);
                        if (f.length != 5 || to < from) {
                            throw new IllegalArgumentException("not REC nanos partition from to");
                        }
                        for (long o = from; o <= to; o++) {
                            deliveries.add(new Delivery(process, partition, o, nanos));
                        }
                    }
                    case "ASSIGNED", "REVOKED", "LOST", "REVOKE-TIMEOUT" -> events.add(new MemberEvent(nanos, f[0], partitions(f[2]), Map.of(), ""));
                    case "COMMIT" -> events.add(new MemberEvent(nanos, f[0], Set.of(), offsets(f.length > 3 ? f[3] : ""), f[2]));
                    default -> events.add(new MemberEvent(nanos, f[0], Set.of(), Map.of(),
                            f.length > 2 ? String.join(" ", java.util.Arrays.copyOfRange(f, 2, f.length)) : ""));
                }
            } catch (RuntimeException e) {
                malformed(line, unchecked);
            }
        }
        return events;
    }

    /** A malformed line: skipped if it is the file's last (cut short by a SIGKILL), else the run cannot be checked. */
    private static void malformed(Line line, List<String> unchecked) {
        if (!line.last()) {
            unchecked.add(line.file() + ":" + line.number() + ": malformed line '" + line.text() + "'");
        }
    }

    private static Set<Integer> partitions(String list) {
        Set<Integer> result = new TreeSet<>();
        if (!list.equals("-")) {
            for (String p : list.split(",")) {
                result.add(Integer.parseInt(p));
            }
        }
        return result;
    }

    private static Map<Integer, Long> offsets(String list) {
        Map<Integer, Long> result = new LinkedHashMap<>();
        if (!list.isEmpty()) {
            for (String entry : list.split(",")) {
                int eq = entry.indexOf('=');
                result.put(Integer.parseInt(entry.substring(0, eq)), Long.parseLong(entry.substring(eq + 1)));
            }
        }
        return result;
    }

    /** What the monitor needs from the orchestrator's journal. */
    private static final class Journal {
        final Map<String, Long> kills = new HashMap<>();
        final List<ClockMap.Pair> clocks = new ArrayList<>();
        final Set<Long> poisonSessions = new HashSet<>();
        final Map<Integer, Long> unhealthy = new TreeMap<>();
        final Map<Integer, Long> notResumed = new TreeMap<>();
        final java.util.NavigableMap<Long, String> faults = new TreeMap<>();
        final List<History.Span> brokerDown = new ArrayList<>();
        final List<String> unchecked = new ArrayList<>();
        boolean kafkaOffsetsCopied;
        long groupFormed = Long.MIN_VALUE;
    }

    private static Journal readJournal(Path file, List<String> unchecked) {
        Journal j = new Journal();
        if (!Files.exists(file)) {
            unchecked.add("no " + file + ": kills, faults and the clock are unknown");
            return j;
        }
        Long brokerStopped = null;
        for (Line line : lines(file)) {
            String[] f = line.fields();
            try {
                switch (f[0]) {
                    case "KILL" -> {
                        j.kills.putIfAbsent(f[2], Long.parseLong(f[1]));
                        if (f[2].equals("kafka")) {
                            brokerStopped = Long.parseLong(f[1]); // broker-stopped-rebalance
                        }
                    }
                    case "BLACKHOLE" -> {
                        if (f[2].equals("kafka")) {
                            brokerStopped = Long.parseLong(f[1]); // broker-unresponsive-rebalance
                        }
                    }
                    case "CLOCK" -> j.clocks.add(new ClockMap.Pair(Long.parseLong(f[1]), Long.parseLong(f[2])));
                    case "POISON-SESSION" -> j.poisonSessions.add(Long.parseUnsignedLong(f[2], 16));
                    case "HEALTHY" -> {
                        if (f[2].equals("0") && j.groupFormed == Long.MIN_VALUE) {
                            j.groupFormed = Long.parseLong(f[1]);
                        }
                    }
                    case "UNHEALTHY" -> j.unhealthy.put(Integer.parseInt(f[2]), Long.parseLong(f[3]));
                    case "NOT-RESUMED" -> j.notResumed.put(Integer.parseInt(f[2]), Long.parseLong(f[3]));
                    case "FAULT" -> j.faults.put(Long.parseLong(f[1]), "#" + f[2] + (f.length > 3 ? " " + f[3] : ""));
                    case "TERM" -> {
                        if (f[2].equals("kafka")) {
                            brokerStopped = Long.parseLong(f[1]);
                        }
                    }
                    case "FAULT-END" -> {
                        long end = Long.parseLong(f[1]);
                        if (brokerStopped != null) {
                            j.brokerDown.add(new History.Span(brokerStopped, end));
                            brokerStopped = null;
                        }
                    }
                    case "KAFKA-OFFSETS" -> j.kafkaOffsetsCopied = true;
                    case "UNCHECKED" -> j.unchecked.add(String.join(" ", java.util.Arrays.copyOfRange(f, 2, f.length)));
                    default -> Long.parseLong(f[1]); // for people, but stamped like every line
                }
            } catch (RuntimeException e) {
                malformed(line, unchecked);
            }
        }
        return j;
    }

    /** One non-blank line of a log: where it is, its text split at spaces, and whether it is the file's last. */
    private record Line(Path file, int number, String text, String[] fields, boolean last) {
    }

    private static List<Line> lines(Path file) {
        List<Line> result = new ArrayList<>();
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            int number = 0;
            while ((line = in.readLine()) != null) {
                number++;
                if (!line.isBlank()) {
                    result.add(new Line(file, number, line, line.split(" "), false));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        if (!result.isEmpty()) {
            Line last = result.get(result.size() - 1);
            result.set(result.size() - 1, new Line(file, last.number(), last.text(), last.fields(), true));
        }
        return result;
    }
}
