package io.zkgroups.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The stdout of a child process, read line by line (UTF-8) by a daemon thread, for tests that drive a child JVM
 * through a line protocol. Every line and the end of the stream wake the waiters in {@link #await}, so a test
 * waits exactly as long as it must: no sleeps, no polling.
 *
 * <pre>{@code
 * ChildOutput out = ChildOutput.start(process, "child-c1-stdout");
 * int ready = out.requireLine(0, "READY"::equals, Duration.ofSeconds(30), "READY", AssertionError::new);
 * }</pre>
 */
public final class ChildOutput {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final List<String> lines = new ArrayList<>();
    private final Predicate<String> hook;
    private final Runnable onEnd;
    private final Thread reader;
    private boolean closed;

    private ChildOutput(Process process, String threadName, Predicate<String> hook, Runnable onEnd) {
        this.hook = hook;
        this.onEnd = onEnd;
        this.reader = new Thread(() -> read(process), threadName);
        // A child that hangs must not keep the test JVM alive.
        this.reader.setDaemon(true);
        this.reader.start();
    }

    /** Starts reading {@code process}'s stdout on a daemon thread named {@code threadName}; keeps every line. */
    public static ChildOutput start(Process process, String threadName) {
        return new ChildOutput(process, threadName, line -> false, () -> { });
    }

    /**
     * As {@link #start(Process, String)}, but first hands each line to {@code hook} on the reader thread. A line
     * for which it returns true is taken by the hook and not kept (e.g. a stream of records that the test only
     * counts). The hook runs outside the lock; whatever it updates is visible to the conditions of {@link #await}
     * that the line then wakes.
     */
    public static ChildOutput start(Process process, String threadName, Predicate<String> hook) {
        return new ChildOutput(process, threadName, hook, () -> { });
    }

    /** As {@link #start(Process, String, Predicate)}; {@code onEnd} runs on the reader thread once the stream ended. */
    public static ChildOutput start(Process process, String threadName, Predicate<String> hook, Runnable onEnd) {
        return new ChildOutput(process, threadName, hook, onEnd);
    }

    /** The kept lines so far (a copy). */
    public List<String> lines() {
        lock.lock();
        try {
            return List.copyOf(lines);
        } finally {
            lock.unlock();
        }
    }

    /** True once the stream has ended (EOF or a broken pipe): every line has been read and handed over. */
    public boolean isClosed() {
        lock.lock();
        try {
            return closed;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until {@code condition} holds for the kept lines, and returns true; returns false at the deadline, or
     * at once when the stream has ended and it still does not hold (no more line can make it true). The condition
     * runs under the lock on a read-only view of the live list: it must not keep the list.
     */
    public boolean await(Predicate<List<String>> condition, Duration timeout) throws InterruptedException {
        List<String> view = Collections.unmodifiableList(lines);
        long deadline = System.nanoTime() + timeout.toNanos();
        lock.lock();
        try {
            while (!condition.test(view)) {
                long left = deadline - System.nanoTime();
                if (closed || left <= 0) {
                    return false;
                }
                changed.awaitNanos(left);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Waits for a kept line at index {@code from} or later that matches; returns its index, or -1 as {@link #await}. */
    public int awaitLine(int from, Predicate<String> matcher, Duration timeout) throws InterruptedException {
        int[] next = {from};
        return await(scan(next, matcher), timeout) ? next[0] : -1;
    }

    /** Waits until the stream has ended; false if it is still open at the deadline. */
    public boolean awaitClosed(Duration timeout) throws InterruptedException {
        return await(view -> closed, timeout);
    }

    /**
     * As {@link #await}, for tests: when the condition does not hold, throws {@code failure.apply(reason)}, the
     * reason being "stdout closed (process exited) while waiting for {@code what}", "timed out after
     * {@code timeout} waiting for {@code what}" or "interrupted while waiting for {@code what}" (the interrupt is
     * kept). {@code failure} can add what the child wrote to the message.
     */
    public void require(Predicate<List<String>> condition, Duration timeout, String what,
                        Function<String, AssertionError> failure) {
        boolean held;
        try {
            held = await(condition, timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw failure.apply("interrupted while waiting for " + what);
        }
        if (!held) {
            throw failure.apply(isClosed() ? "stdout closed (process exited) while waiting for " + what
                    : "timed out after " + timeout + " waiting for " + what);
        }
    }

    /** As {@link #awaitLine}, failing as {@link #require} does instead of returning -1. */
    public int requireLine(int from, Predicate<String> matcher, Duration timeout, String what,
                           Function<String, AssertionError> failure) {
        int[] next = {from};
        require(scan(next, matcher), timeout, what, failure);
        return next[0];
    }

    /**
     * A condition that holds once a line at {@code next[0]} or later matches, and leaves {@code next[0]} at that
     * line. It moves on as it goes, so each line is tested once however often the waiter wakes.
     */
    private static Predicate<List<String>> scan(int[] next, Predicate<String> matcher) {
        return view -> {
            for (; next[0] < view.size(); next[0]++) {
                if (matcher.test(view.get(next[0]))) {
                    return true;
                }
            }
            return false;
        };
    }

    private void read(Process process) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                boolean taken = hook.test(line);
                lock.lock();
                try {
                    if (!taken) {
                        lines.add(line);
                    }
                    changed.signalAll();
                } finally {
                    lock.unlock();
                }
            }
        } catch (IOException e) {
            // a broken pipe ends the stream like EOF
        } finally {
            // Also after a failing hook: the waiters must not sleep until their deadline.
            lock.lock();
            try {
                closed = true;
                changed.signalAll();
            } finally {
                lock.unlock();
            }
            onEnd.run();
        }
    }
}
