package io.zkgroups.tool.output;

import java.io.PrintWriter;
import java.time.Duration;

/**
 * Progress of long runs on stderr, only when enabled ({@code --progress}, or stderr is a terminal). On a
 * terminal the line is redrawn in place; otherwise a line is printed at each 5 % step, so logs and test
 * harnesses can follow (each line starts with {@code progress:}).
 */
public final class Progress {

    private final PrintWriter err;
    private final boolean enabled;
    private final boolean terminal;
    private final String what;
    private final long total;
    private final long startNanos = System.nanoTime();
    private long done;
    private long lastStep = -1;
    private long lastDrawNanos;

    public Progress(PrintWriter err, boolean enabled, boolean terminal, String what, long total) {
        this.err = err;
        this.enabled = enabled && total > 0;
        this.terminal = terminal;
        this.what = what;
        this.total = total;
    }

    /** Marks {@code n} more units done (thread-safe). */
    public synchronized void advance(long n, String detail) {
        done += n;
        if (!enabled) {
            return;
        }
        long step = done * 20 / total;
        long now = System.nanoTime();
        if (terminal) {
            if (done == total || now - lastDrawNanos > 100_000_000L) {
                lastDrawNanos = now;
                err.print("\r" + line(detail) + "   ");
                if (done == total) {
                    err.println();
                }
                err.flush();
            }
        } else if (step != lastStep) {
            lastStep = step;
            err.println(line(detail));
            err.flush();
        }
    }

    private String line(String detail) {
        Duration elapsed = Duration.ofNanos(System.nanoTime() - startNanos);
        return String.format("progress: %s %d/%d (%d%%) %.1f s%s", what, done, total, done * 100 / total,
                elapsed.toMillis() / 1000.0, detail == null ? "" : " " + detail);
    }
}
