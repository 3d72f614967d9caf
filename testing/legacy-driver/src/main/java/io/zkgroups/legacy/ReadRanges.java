package io.zkgroups.legacy;

import java.io.PrintStream;
import java.util.Arrays;

/**
 * The offsets a reader read of each partition, as ranges of consecutive offsets, printed at its end as
 * {@code READ <partition> <from>-<to> ...} (to exclusive): the throughput benchmark checks from them that the group
 * read every record, and counts those read twice. Partitions 0 to 1023. The benchmark's kafka-clients readers keep
 * the same lines with {@code io.zkgroups.bench.ReadRanges} (this one runs on Java 8 beside the 0.8.2.2 jar).
 */
final class ReadRanges {

    private static final int PARTITIONS = 1024;

    private final long[] start = new long[PARTITIONS];
    private final long[] next = new long[PARTITIONS];
    private final StringBuilder[] ended = new StringBuilder[PARTITIONS];

    ReadRanges() {
        Arrays.fill(next, -1);
    }

    void read(int partition, long offset) {
        if (next[partition] == offset) {
            next[partition]++;
            return;
        }
        if (next[partition] >= 0) {
            if (ended[partition] == null) {
                ended[partition] = new StringBuilder();
            }
            ended[partition].append(start[partition]).append('-').append(next[partition]).append(' ');
        }
        start[partition] = offset;
        next[partition] = offset + 1;
    }

    void print(PrintStream out) {
        for (int p = 0; p < PARTITIONS; p++) {
            if (next[p] >= 0) {
                out.println("READ " + p + " " + (ended[p] == null ? "" : ended[p]) + start[p] + "-" + next[p]);
            }
        }
    }
}
