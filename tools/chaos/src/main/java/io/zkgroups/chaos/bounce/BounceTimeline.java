package io.zkgroups.chaos.bounce;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the bounce did and when, read back from its {@code journal.log} ({@code System.nanoTime()}):
 * <pre>
 * DELIVERING nanos                              every partition consumed past what was acknowledged when healthy
 * BOUNCE-PRESTARTED nanos step process          a successor launched before its predecessor's SIGTERM
 * BOUNCE-TERM nanos step process                SIGTERM sent
 * BOUNCE-EXITED nanos step process exitCode     the process has exited
 * BOUNCE-STARTED nanos step process             the slot's next process is up (START, or READY for 0.8.2.2)
 * BOUNCE-HEALTHY nanos step ms                  zkgroups health --wait passed;  BOUNCE-UNHEALTHY nanos step exitCode
 * </pre>
 *
 * @param delivering     when the group was consuming every partition before the first step (Long.MIN_VALUE: never)
 * @param firstPrestart when the first successor was launched ahead of its step (Long.MAX_VALUE: none was)
 * @param steps          the steps in order
 */
public record BounceTimeline(long delivering, long firstPrestart, List<Step> steps) {

    /** One step: a slot's process stopped and its next one started, then the gate. */
    public record Step(int index, String stopped, String started, long term, long exited, long up, long gated,
                       boolean healthy) {

        /** When the step was done: its gate passed and its old process gone (with a prestarted successor, in either order). */
        public long done() {
            return Math.max(gated, exited);
        }

        public long millis() {
            return (done() - term) / 1_000_000;
        }
    }

    /**
     * The bounce's first action: the first SIGTERM, or the launch of the first successor started ahead of it (its JVM
     * start is part of the bounce).
     */
    public long start() {
        return Math.min(firstPrestart, steps.get(0).term());
    }

    /** When the last step was done (its gate passed or gave up, its old process gone). */
    public long end() {
        return steps.get(steps.size() - 1).done();
    }

    public boolean everyGatePassed() {
        return steps.stream().allMatch(Step::healthy);
    }

    public static BounceTimeline read(Path journal) {
        List<String> lines;
        try {
            lines = Files.readAllLines(journal, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + journal, e);
        }
        return parse(lines);
    }

    static BounceTimeline parse(List<String> lines) {
        long delivering = Long.MIN_VALUE;
        long firstPrestart = Long.MAX_VALUE;
        Map<Integer, long[]> times = new TreeMap<>();
        Map<Integer, String[]> names = new TreeMap<>();
        Map<Integer, Boolean> healthy = new TreeMap<>();
        for (String line : lines) {
            String[] f = line.split(" ");
            if (f.length < 2) {
                continue;
            }
            if (f[0].equals("DELIVERING")) {
                delivering = Long.parseLong(f[1]);
                continue;
            }
            if (!f[0].startsWith("BOUNCE-") || f.length < 3) {
                continue;
            }
            long nanos = Long.parseLong(f[1]);
            if (f[0].equals("BOUNCE-PRESTARTED")) {
                firstPrestart = Math.min(firstPrestart, nanos);
                continue;
            }
            int step = Integer.parseInt(f[2]);
            long[] t = times.computeIfAbsent(step, k -> new long[4]);
            String[] n = names.computeIfAbsent(step, k -> new String[2]);
            switch (f[0]) {
                case "BOUNCE-TERM" -> {
                    t[0] = nanos;
                    n[0] = f[3];
                }
                case "BOUNCE-EXITED" -> t[1] = nanos;
                case "BOUNCE-STARTED" -> {
                    t[2] = nanos;
                    n[1] = f[3];
                }
                case "BOUNCE-HEALTHY", "BOUNCE-UNHEALTHY" -> {
                    t[3] = nanos;
                    healthy.put(step, f[0].equals("BOUNCE-HEALTHY"));
                }
                default -> {
                    // for people
                }
            }
        }
        List<Step> steps = new ArrayList<>();
        times.forEach((i, t) -> {
            if (healthy.containsKey(i)) { // a step the run did not finish is not a step
                steps.add(new Step(i, names.get(i)[0], names.get(i)[1], t[0], t[1], t[2], t[3], healthy.get(i)));
            }
        });
        if (steps.isEmpty()) {
            throw new IllegalArgumentException("the journal holds no completed bounce step (BOUNCE-* lines)");
        }
        return new BounceTimeline(delivering, firstPrestart, List.copyOf(steps));
    }
}
