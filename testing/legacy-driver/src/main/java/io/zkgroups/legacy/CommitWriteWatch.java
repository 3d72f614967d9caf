package io.zkgroups.legacy;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Tells when a {@code commitOffsets()} has chosen what it commits: once the committing thread is inside
 * {@code commitOffsetToZooKeeper}, 0.8.2.2 has taken its snapshot of the consumed offsets, so what it writes no
 * longer depends on anything else the connector does (a session expiry clearing its registry). A test that holds the
 * consumer's ZooKeeper connection waits for this before letting the write through, instead of guessing how long the
 * snapshot takes.
 * <p>
 * The committing thread's stack is looked at every few milliseconds while the commit runs (no event marks the
 * snapshot); the first look that finds the write reports it, once.
 */
final class CommitWriteWatch implements AutoCloseable {

    private static final String CONNECTOR = "kafka.consumer.ZookeeperConsumerConnector";
    private static final String WRITE = "commitOffsetToZooKeeper";
    private static final long LOOK_EVERY_MS = 5;

    private final ScheduledExecutorService looks = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "commit-write-watch");
        t.setDaemon(true);
        return t;
    });
    private final AtomicBoolean reported = new AtomicBoolean();

    private CommitWriteWatch(Thread committer, Consumer<String> report) {
        looks.scheduleWithFixedDelay(() -> {
            if (isWriting(committer.getStackTrace()) && reported.compareAndSet(false, true)) {
                report.accept("COMMIT-WRITING");
                looks.shutdown();
            }
        }, 0, LOOK_EVERY_MS, TimeUnit.MILLISECONDS);
    }

    /** Starts watching the calling thread, which is about to commit. */
    static CommitWriteWatch ofCurrentThread(Consumer<String> report) {
        return new CommitWriteWatch(Thread.currentThread(), report);
    }

    static boolean isWriting(StackTraceElement[] stack) {
        for (StackTraceElement frame : stack) {
            if (frame.getClassName().equals(CONNECTOR) && frame.getMethodName().equals(WRITE)) {
                return true;
            }
        }
        return false;
    }

    /** The commit has returned: stops watching; nothing is reported after this returns. */
    @Override
    public void close() {
        reported.set(true);
        looks.shutdown();
        try {
            looks.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
