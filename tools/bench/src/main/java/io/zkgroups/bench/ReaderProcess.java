package io.zkgroups.bench;

import io.zkgroups.testing.ChildJvm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntConsumer;

/**
 * One reader of {@link ThroughputBench} in a fresh JVM, observed from outside: the moment its {@code FIRST} line
 * arrives (this JVM's clock), each {@code DONE <partition>} line handed on as it arrives, the offsets it read (its
 * {@code READ} lines at its end), and, when asked, its CPU time and peak resident set from {@code /proc}.
 */
final class ReaderProcess {

    private final ChildJvm jvm;
    private final IntConsumer onDone;
    private volatile long firstNanos = Long.MAX_VALUE;
    private final Map<Integer, List<long[]>> ranges = new ConcurrentHashMap<>();
    private long cpuNanos = -1;
    private long peakKib = -1;
    private final Path threadsFile;

    /**
     * @param onDone told the partition of each {@code DONE} line, on arrival
     * @param onExit run once its stdout has ended: the process exited (or closed its stdout)
     */
    ReaderProcess(String name, String classpath, List<String> jvmOptions, String mainClass, List<String> args, Path log,
                  IntConsumer onDone, Runnable onExit) {
        this.onDone = onDone;
        this.threadsFile = log.resolveSibling(log.getFileName() + ".threads");
        this.jvm = ChildJvm.builder(name, mainClass).classpath(classpath).jvmOptions(jvmOptions).args(args)
                .stderrTo(log).onLine(this::observe).onEnd(onExit).start();
    }

    private boolean observe(String line) {
        if (line.equals("FIRST")) {
            firstNanos = System.nanoTime();
        } else if (line.startsWith("DONE ")) {
            onDone.accept(Integer.parseInt(line.substring(5)));
        } else if (line.startsWith("READ ")) {
            String[] fields = line.split(" ");
            List<long[]> of = ranges.computeIfAbsent(Integer.parseInt(fields[1]), p -> new ArrayList<>());
            for (int i = 2; i < fields.length; i++) {
                String[] fromTo = fields[i].split("-");
                of.add(new long[] {Long.parseLong(fromTo[0]), Long.parseLong(fromTo[1])});
            }
        }
        return false;
    }

    /** The offset ranges it read of each partition, from its {@code READ} lines: complete once it has exited. */
    Map<Integer, List<long[]>> ranges() {
        return ranges;
    }

    /** Reads its CPU time and peak resident set so far. */
    void readUsage() {
        long pid = jvm.pid();
        try {
            cpuNanos = ProcStat.cpuMillis(pid) * 1_000_000L;
            for (String l : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"), StandardCharsets.UTF_8)) {
                if (l.startsWith("VmHWM:")) {
                    peakKib = Long.parseLong(l.replaceAll("[^0-9]", ""));
                }
            }
            writeThreadUsage(Path.of("/proc", Long.toString(pid), "task"));
        } catch (IOException | RuntimeException e) {
            // not Linux, or gone: reported as unknown
        }
    }

    /** CPU ms per thread name (numbers in names folded), largest first, beside the log: where the process's time went. */
    private void writeThreadUsage(Path tasks) throws IOException {
        Map<String, Long> byName = new java.util.TreeMap<>();
        try (java.util.stream.Stream<Path> each = Files.list(tasks)) {
            for (Path task : (Iterable<Path>) each::iterator) {
                String stat;
                try {
                    stat = Files.readString(task.resolve("stat"), StandardCharsets.UTF_8);
                } catch (IOException gone) {
                    continue;
                }
                String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replaceAll("(?<=[#-])[0-9]+|[0-9]+$", "N");
                byName.merge(name, ProcStat.cpuMillis(stat), Long::sum);
            }
        }
        List<String> lines = new ArrayList<>();
        byName.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(e -> lines.add(e.getValue() + " ms " + e.getKey()));
        Files.write(threadsFile, lines, StandardCharsets.UTF_8);
    }

    boolean isAlive() {
        return jvm.isAlive();
    }

    /** Ends its input (it stops), then makes sure it is gone. */
    void finish(Duration timeout) {
        jvm.closeStdin();
        jvm.awaitTermination(timeout);
    }

    long firstNanos() {
        return firstNanos;
    }

    long cpuNanos() {
        return cpuNanos;
    }

    long peakKib() {
        return peakKib;
    }
}
