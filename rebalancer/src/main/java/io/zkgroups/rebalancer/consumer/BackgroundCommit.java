package io.zkgroups.rebalancer.consumer;

import org.apache.kafka.common.errors.TimeoutException;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * At most one commit written on a thread of its own, for the commits a poll must not wait for (those near
 * {@code zkgroups.max.uncommitted.records}: a consumer catching up would otherwise stop for a store round trip every
 * half cap of every partition). Every other commit first {@link #await awaits} the one in flight, so commits are
 * written in the order they were made and an older one never lands over a newer one.
 * <p>
 * <b>Threading.</b> {@link #start}, {@link #collect}, {@link #await} and {@link #close} on the consumer's own thread;
 * the write runs on the commit thread, started with the first commit.
 */
final class BackgroundCommit<T> implements AutoCloseable {

    /** What a write ended with: its result, or what it threw. */
    static final class Outcome<T> {
        private final T result;
        private final RuntimeException failure;

        private Outcome(T result, RuntimeException failure) {
            this.result = result;
            this.failure = failure;
        }

        /** The write's result; null if it failed. */
        T result() {
            return result;
        }

        /** What the write threw; null if it succeeded. */
        RuntimeException failure() {
            return failure;
        }
    }

    private final String threadName;
    private ExecutorService thread;
    private CompletableFuture<Outcome<T>> inFlight;

    BackgroundCommit(String threadName) {
        this.threadName = threadName;
    }

    /** Whether a write was started whose outcome has not been taken yet (it may have ended meanwhile). */
    boolean busy() {
        return inFlight != null;
    }

    /** Starts {@code write} on the commit thread; at most one at a time. */
    void start(Supplier<T> write) {
        if (inFlight != null) {
            throw new IllegalStateException("a commit is in flight already");
        }
        if (thread == null) {
            thread = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, threadName);
                t.setDaemon(true);
                return t;
            });
        }
        inFlight = CompletableFuture.supplyAsync(() -> {
            try {
                return new Outcome<>(write.get(), null);
            } catch (RuntimeException e) {
                return new Outcome<>(null, e);
            }
        }, thread);
    }

    /** The outcome of the write if it has ended (then it is no longer in flight), else null. */
    Outcome<T> collect() {
        if (inFlight == null || !inFlight.isDone()) {
            return null;
        }
        Outcome<T> outcome = inFlight.join();
        inFlight = null;
        return outcome;
    }

    /**
     * Waits for the write in flight, at most {@code timeoutNanos} (negative: as long as it takes; a write gives up by
     * its own permit's deadline), and returns its outcome, or null if none was in flight.
     *
     * @throws TimeoutException if it is still running then: it stays in flight
     */
    Outcome<T> await(long timeoutNanos) {
        if (inFlight == null) {
            return null;
        }
        try {
            if (timeoutNanos < 0) {
                inFlight.get();
            } else {
                inFlight.get(timeoutNanos, TimeUnit.NANOSECONDS);
            }
        } catch (java.util.concurrent.TimeoutException e) {
            throw new TimeoutException("an earlier commit is still being written");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new org.apache.kafka.common.errors.InterruptException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("a commit's outcome was lost", e); // the write catches what it throws
        }
        return collect();
    }

    /** Lets the write in flight end (within {@code timeoutNanos}) and stops the commit thread. */
    @Override
    public void close() {
        close(TimeUnit.SECONDS.toNanos(30));
    }

    void close(long timeoutNanos) {
        try {
            await(timeoutNanos);
        } catch (RuntimeException e) {
            // closing anyway: what is still being written may or may not land
        } finally {
            if (thread != null) {
                thread.shutdownNow();
            }
        }
    }
}
