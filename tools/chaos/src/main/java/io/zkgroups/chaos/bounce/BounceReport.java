package io.zkgroups.chaos.bounce;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A bounce run's figures for people ({@link #text}) and as one JSON document ({@link #json}). */
public record BounceReport(BounceConfig config, Path runDir, BounceFigures figures) {

    public String text() {
        BounceFigures f = figures;
        StringBuilder b = new StringBuilder();
        b.append("rolling bounce: ").append(config.label()).append(", ").append(config.members()).append(" members (")
                .append(config.legacyMembers()).append(" kafka 0.8.2.2), ").append(config.partitions())
                .append(" partitions, ").append(config.rate()).append(" records/s, session ").append(config.sessionMs())
                .append(" ms, slice ").append(config.sliceMs()).append(" ms, settle ").append(config.settleMs())
                .append(" ms\nrun directory: ").append(runDir).append("\n\n");
        b.append(String.format("%-4s %-8s %-8s %9s %9s %9s %9s %9s %s%n", "step", "stopped", "started", "exit ms",
                "start ms", "up ms", "gate ms", "step ms", "gate"));
        for (BounceTimeline.Step s : f.steps()) {
            b.append(String.format("%-4d %-8s %-8s %9d %9d %9d %9d %9d %s%n", s.index(), s.stopped(), s.started(),
                    ms(s.exited() - s.term()), ms(s.up() - s.exited()), ms(s.up() - s.term()), ms(s.gated() - s.up()),
                    s.millis(),
                    s.healthy() ? "healthy" : "NOT HEALTHY"));
        }
        b.append('\n');
        b.append(String.format("total bounce time (first SIGTERM or successor launch to the last step done): %d ms%n",
                f.bounceMs()));
        b.append(String.format("caught up (every record acked before the last gate delivered): %d ms after the bounce "
                + "began%n", f.catchUpMs()));
        for (BounceFigures.Backlog x : f.backlog()) {
            b.append(String.format("backlog without delivery, %4d ms slices: %.2f partition-s in the bounce window, "
                    + "%.2f to the catch-up; steady state before: %.3f partition-s per s%n", x.sliceMs(),
                    x.bounceWindow(), x.toCatchUp(), x.steadyPerSecond()));
        }
        b.append(String.format("ownership moves (every change of owner):                %d%n", f.moves()));
        b.append(String.format("ownership moves (owner at a gate vs the gate before):   %d%n", f.netMoves()));
        b.append(String.format("unowned partition-seconds, bounce window:               %.2f%n", f.unownedSeconds()));
        b.append('\n').append("invariants: ").append(f.verdict().counts()).append('\n');
        b.append("records: ").append(f.verdict().acked()).append(" acknowledged, ").append(f.verdict().handedOut())
                .append(" hand-outs of ").append(f.verdict().distinctHandedOut()).append(" distinct records\n");
        f.verdict().violations().stream().limit(10).forEach(v -> b.append("  e.g. ").append(v.invariant()).append(" p")
                .append(v.partition()).append(' ').append(v.message()).append('\n'));
        f.verdict().notes().forEach(n -> b.append("note: ").append(n).append('\n'));
        b.append(f.valid() ? "VALID: every gate passed, no invariant violated\n"
                : "INVALID: " + (f.verdict().passed() ? "" : f.verdict().violations().size() + " violations; ")
                + f.steps().stream().filter(s -> !s.healthy()).count() + " gates failed\n");
        return b.toString();
    }

    public String json() {
        BounceFigures f = figures;
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("configuration", config.label());
        doc.put("valid", f.valid());
        doc.put("settings", config);
        doc.put("runDir", runDir.toString());
        List<Map<String, Object>> steps = new ArrayList<>();
        for (BounceTimeline.Step s : f.steps()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("step", s.index());
            m.put("stopped", s.stopped());
            m.put("started", s.started());
            m.put("exitMs", ms(s.exited() - s.term()));
            m.put("startMs", ms(s.up() - s.exited()));
            m.put("upMs", ms(s.up() - s.term()));
            m.put("gateMs", ms(s.gated() - s.up()));
            m.put("stepMs", s.millis());
            m.put("healthy", s.healthy());
            steps.add(m);
        }
        doc.put("steps", steps);
        doc.put("bounceMs", f.bounceMs());
        doc.put("catchUpMs", f.catchUpMs());
        List<Map<String, Object>> backlog = new ArrayList<>();
        for (BounceFigures.Backlog x : f.backlog()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("sliceMs", x.sliceMs());
            m.put("bounceWindowPartitionSeconds", x.bounceWindow());
            m.put("toCatchUpPartitionSeconds", x.toCatchUp());
            m.put("steadyPartitionSecondsPerSecond", Double.isNaN(x.steadyPerSecond()) ? null : x.steadyPerSecond());
            backlog.add(m);
        }
        doc.put("backlogWithoutDelivery", backlog);
        doc.put("ownershipMoves", f.moves());
        doc.put("ownershipMovesBetweenGates", f.netMoves());
        doc.put("unownedPartitionSeconds", f.unownedSeconds());
        doc.put("violationCounts", f.verdict().counts());
        doc.put("acked", f.verdict().acked());
        doc.put("handedOut", f.verdict().handedOut());
        doc.put("distinctHandedOut", f.verdict().distinctHandedOut());
        doc.put("notes", f.verdict().notes());
        try {
            return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(doc) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static long ms(long nanos) {
        return nanos / 1_000_000;
    }
}
