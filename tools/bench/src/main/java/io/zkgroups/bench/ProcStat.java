package io.zkgroups.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** CPU time as Linux's {@code /proc} counts it: user + system time of a process or of one of its threads. */
final class ProcStat {

    /** Clock ticks per second of the stat files (USER_HZ: 100 on Linux, whatever the kernel's HZ). */
    private static final int TICKS_PER_SECOND = 100;

    private ProcStat() {
    }

    /** CPU ms of process {@code pid} so far, all threads. */
    static long cpuMillis(long pid) throws IOException {
        return cpuMillis(Path.of("/proc", Long.toString(pid), "stat"));
    }

    /** CPU ms of a stat file: {@code /proc/PID/stat}, or {@code /proc/PID/task/TID/stat} for one thread. */
    static long cpuMillis(Path statFile) throws IOException {
        return cpuMillis(Files.readString(statFile, StandardCharsets.UTF_8));
    }

    /** CPU ms in the text of a stat file. */
    static long cpuMillis(String stat) {
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" "); // from the 3rd on: names hold spaces
        long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime, stime: fields 14, 15 of proc(5)
        return ticks * 1000 / TICKS_PER_SECOND;
    }
}
