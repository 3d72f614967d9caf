package io.zkgroups.chaos.run;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.zkgroups.chaos.monitor.InvariantMonitor;
import io.zkgroups.chaos.monitor.Verdict;
import io.zkgroups.chaos.monitor.Violation;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;

/** A run's report: a table for people, and one JSON document with the same facts (violations capped per kind). */
final class Report {

    private static final int EXAMPLES_PER_INVARIANT = 20;

    private Report() {
    }

    static String table(ChaosRunner.Options o, List<FaultRecord> faults, Verdict v, LongFunction<String> faultAt) {
        StringBuilder b = new StringBuilder();
        b.append("chaos run: seed ").append(o.seed()).append(", ").append(faults.size()).append(" faults, ")
                .append(o.cluster().members()).append(" members")
                .append(o.cluster().legacyMembers() > 0 ? " + " + o.cluster().legacyMembers() + " kafka 0.8.2.2 consumers" : "")
                .append(", ").append(o.cluster().partitions()).append(" partitions, ")
                .append(o.cluster().recordsPerSecond()).append(" records/s, session ").append(o.cluster().sessionTimeoutMs())
                .append(" ms, ZooKeeper ").append(o.cluster().zooKeeper().version())
                .append(o.cluster().brokenMode() == null ? "" : ", BROKEN member m0: " + o.cluster().brokenMode())
                .append('\n').append("run directory: ").append(o.cluster().runDir()).append("\n\n");
        b.append(String.format("%-4s %-18s %-9s %s%n", "#", "fault", "healthy", "what happened"));
        for (FaultRecord f : faults) {
            b.append(String.format("%-4d %-18s %-9s %s%n", f.index(), f.name(),
                    f.healthy() ? f.healthyMs() + "ms" : "NO(" + f.healthExit() + ")", f.detail()));
        }
        b.append('\n').append(String.format("%-18s %s%n", "invariant", "violations"));
        v.counts().forEach((invariant, count) -> {
            long legacy = v.violations().stream().filter(x -> x.invariant().equals(invariant))
                    .filter(Report::involvesLegacy).count();
            b.append(String.format("%-18s %d%s%s%n", invariant, count,
                    legacy == 0 ? "" : " (" + legacy + " involve 0.8.2.2 consumers)",
                    count == 0 ? "" : "   e.g. " + first(v, invariant)));
        });
        if (!v.violations().isEmpty()) {
            b.append('\n').append("violations by the process that committed them (0.8.2.2 consumers are l<slot>-<n>):\n");
            byProcess(v).forEach((process, counts) -> b.append(String.format("  %-8s %s%n", process, counts)));
            b.append("violations by the kind of fault in progress (or last begun) when they happened:\n");
            byFault(v, faultAt).forEach((fault, counts) -> b.append(String.format("  %-22s %s%n", fault, counts)));
        }
        b.append('\n').append("records: ").append(v.acked()).append(" acknowledged, ").append(v.handedOut())
                .append(" hand-outs of ").append(v.distinctHandedOut()).append(" distinct records, ")
                .append(v.duplicatesExplained()).append(" repeats within an unclean end's uncommitted window\n");
        for (Verdict.WindowSummary w : v.uncleanEnds()) {
            b.append(String.format("repeats per %s tenure end: %d ends, %d repeats, max %d (largest bound %d, %d over it), "
                    + "ends by repeats %s%n", w.endedBy(), w.ends(), w.repeats(), w.max(), w.maxBound(), w.overBound(),
                    w.histogram()));
        }
        long longest = v.longestStallMs().values().stream().mapToLong(Long::longValue).max().orElse(0);
        b.append("longest stall (backlog, no hand-out): ").append(longest).append(" ms (bound ")
                .append(o.stallBound().toMillis()).append(" ms)\n");
        long slowest = faults.stream().filter(FaultRecord::healthy).mapToLong(FaultRecord::healthyMs).max().orElse(0);
        b.append("slowest return to health after a fault: ").append(slowest).append(" ms\n");
        v.notes().forEach(n -> b.append("note: ").append(n).append('\n'));
        b.append(v.passed() ? "PASSED: no violation\n" : "FAILED: " + v.violations().size() + " violations (report.json)\n");
        return b.toString();
    }

    /** Every violation, one a line: invariant, partition@offset, process, nanos, fault in progress, message. */
    static List<String> lines(Verdict v, LongFunction<String> faultAt) {
        return v.violations().stream().map(x -> x.invariant() + " p" + x.partition() + "@" + x.offset() + " " + x.process()
                + " " + x.nanos() + " [" + (x.nanos() < 0 ? "-" : faultAt.apply(x.nanos())) + "] " + x.message()).toList();
    }

    /** Per kind of fault in progress at the violation's time, its violations per invariant. */
    static Map<String, Map<String, Integer>> byFault(Verdict v, LongFunction<String> faultAt) {
        Map<String, Map<String, Integer>> result = new java.util.TreeMap<>();
        for (Violation x : v.violations()) {
            String fault = x.nanos() < 0 ? "-" : faultAt.apply(x.nanos()).replaceFirst("^#\\d+ ", "");
            result.computeIfAbsent(fault, k -> new LinkedHashMap<>()).merge(x.invariant(), 1, Integer::sum);
        }
        return result;
    }

    /** Per process at fault ("-": none, e.g. a stall), its violations per invariant. */
    static Map<String, Map<String, Integer>> byProcess(Verdict v) {
        Map<String, Map<String, Integer>> result = new java.util.TreeMap<>();
        for (Violation x : v.violations()) {
            result.computeIfAbsent(x.process(), k -> new LinkedHashMap<>()).merge(x.invariant(), 1, Integer::sum);
        }
        return result;
    }

    private static final java.util.regex.Pattern LEGACY_PROCESS = java.util.regex.Pattern.compile("\\bl\\d+-\\d+\\b");

    /** Whether a real 0.8.2.2 consumer ({@code l<slot>-<n>}) is the process at fault or is named in the message. */
    static boolean involvesLegacy(Violation v) {
        return LEGACY_PROCESS.matcher(v.process()).matches() || LEGACY_PROCESS.matcher(v.message()).find();
    }

    private static String first(Verdict v, String invariant) {
        return v.violations().stream().filter(x -> x.invariant().equals(invariant)).findFirst()
                .map(x -> (x.partition() >= 0 ? "p" + x.partition() + (x.offset() >= 0 ? "@" + x.offset() : "") + " " : "")
                        + x.message()).orElse("");
    }

    static String json(ChaosRunner.Options o, List<FaultRecord> faults, Verdict v, LongFunction<String> faultAt) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("passed", v.passed());
        doc.put("seed", o.seed());
        doc.put("settings", Map.of("members", o.cluster().members(), "legacyMembers", o.cluster().legacyMembers(),
                "partitions", o.cluster().partitions(),
                "recordsPerSecond", o.cluster().recordsPerSecond(), "sessionTimeoutMs", o.cluster().sessionTimeoutMs(),
                "commitIntervalMs", o.cluster().commitIntervalMs(), "stallBoundMs", o.stallBound().toMillis(),
                "brokenMember", o.cluster().brokenMode() == null ? "" : o.cluster().brokenMode(),
                "runDir", o.cluster().runDir().toString(), "zooKeeperVersion", o.cluster().zooKeeper().version()));
        doc.put("faults", faults);
        doc.put("violationCounts", v.counts());
        doc.put("violationsByProcess", byProcess(v));
        doc.put("violationsByFault", byFault(v, faultAt));
        doc.put("records", Map.of("acknowledged", v.acked(), "handedOut", v.handedOut(),
                "distinctHandedOut", v.distinctHandedOut(), "repeatsExplained", v.duplicatesExplained()));
        doc.put("longestStallMsByPartition", v.longestStallMs());
        doc.put("uncleanEnds", v.uncleanEnds());
        Map<String, List<Violation>> examples = new LinkedHashMap<>();
        for (String invariant : InvariantMonitor.INVARIANTS) {
            List<Violation> some = new ArrayList<>();
            v.violations().stream().filter(x -> x.invariant().equals(invariant)).limit(EXAMPLES_PER_INVARIANT).forEach(some::add);
            examples.put(invariant, some);
        }
        doc.put("violations", examples);
        doc.put("notes", v.notes());
        try {
            return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(doc) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
