package io.zkgroups.bench;

import io.zkgroups.testing.ChildJvm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * One reader of {@link ThroughputBench} in a fresh JVM, observed from outside: the moments its {@code FIRST} and
 * {@code LAST} lines arrive (this JVM's clock), and, as {@code LAST} arrives, its CPU time and peak resident set from
 * {@code /proc}.
 */
final class ReaderProcess {

    /** Clock ticks per second of /proc/PID/stat (USER_HZ: 100 on Linux, whatever the kernel's HZ). */
    private static final long TICKS_PER_SECOND = 100;

    private final ChildJvm jvm;
    private volatile long firstNanos = -1;
    private volatile long lastNanos = -1;
    private volatile long checksum;
    private volatile long cpuNanos = -1;
    private volatile long peakKib = -1;

    ReaderProcess(String name, String classpath, List<String> jvmOptions, String mainClass, List<String> args, Path log) {
        this.jvm = ChildJvm.builder(name, mainClass).classpath(classpath).jvmOptions(jvmOptions).args(args)
                .stderrTo(log).onLine(this::observe).start();
    }

    private boolean observe(String line) {
        long now = System.nanoTime();
        if (line.equals("FIRST")) {
            firstNanos = now;
        } else if (line.startsWith("LAST ")) {
            checksum = Long.parseLong(line.substring(5));
            readUsage();
            lastNanos = now;
        }
        return false;
    }

    private void readUsage() {
        long pid = jvm.pid();
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.UTF_8);
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" "); // fields from the 3rd on
            long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime, stime: the 14th, 15th
            cpuNanos = ticks * 1_000_000_000L / TICKS_PER_SECOND;
            for (String l : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"), StandardCharsets.UTF_8)) {
                if (l.startsWith("VmHWM:")) {
                    peakKib = Long.parseLong(l.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or gone: reported as unknown
        }
    }

    /** Waits for {@code LAST}; false if the process ended or the time ran out first. */
    boolean awaitLast(Duration timeout) {
        try {
            jvm.requireLine(0, l -> l.startsWith("LAST "), timeout, "LAST");
            return true;
        } catch (ChildJvm.Failure e) {
            System.err.println(jvm.name() + ": " + e.getMessage());
            return false;
        }
    }

    /** Lets it close on its own, then makes sure it is gone. */
    void finish(Duration timeout) {
        jvm.closeStdin();
        jvm.awaitTermination(timeout);
    }

    long firstNanos() {
        return firstNanos;
    }

    long lastNanos() {
        return lastNanos;
    }

    long checksum() {
        return checksum;
    }

    long cpuNanos() {
        return cpuNanos;
    }

    long peakKib() {
        return peakKib;
    }
}
