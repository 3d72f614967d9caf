package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.model.ConsumerId;
import org.slf4j.Logger;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A {@link ZkGroupMember}'s own two threads: the serial event loop ({@code zkgroups-member-*}) that runs everything of
 * the protocol, and the lease's beats ({@code zkgroups-lease-*}); how work is handed to the loop, and how both stop.
 * Safe on any thread.
 */
final class MemberThreads {

    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

    private final Logger log;
    private final ScheduledExecutorService loop;
    /** The loop's thread, once it exists. */
    private volatile Thread loopThread;
    private final ScheduledExecutorService beats;

    MemberThreads(MemberContext member) {
        this.log = member.log();
        ConsumerId me = member.me();
        this.loop = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = daemon("zkgroups-member-" + me).newThread(runnable);
            loopThread = thread;
            return thread;
        });
        this.beats = Executors.newSingleThreadScheduledExecutor(daemon("zkgroups-lease-" + me));
    }

    ScheduledExecutorService loop() {
        return loop;
    }

    ScheduledExecutorService beats() {
        return beats;
    }

    boolean isLoop(Thread thread) {
        return thread == loopThread;
    }

    /** Runs {@code task} on the event loop (rejected once it has stopped). */
    void execute(Runnable task) {
        loop.execute(task);
    }

    /** Runs {@code task} on the event loop, unless it has stopped. */
    void onLoop(Runnable task) {
        try {
            loop.execute(task);
        } catch (RejectedExecutionException stopped) {
            // stopped: nothing more runs there
        }
    }

    /** Runs {@code task} on the event loop and waits for it (at most 30 s); empty if it did not finish: {@code what} is logged. */
    <T> Optional<T> call(Callable<T> task, String what) {
        try {
            return Optional.ofNullable(loop.submit(task).get(CLOSE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            log.warn("{} did not finish cleanly: {}", what, e.toString());
        }
        return Optional.empty();
    }

    /** Stops both threads; returns once the loop has ended (from here on the caller may read the loop's state). */
    void stop() {
        loop.shutdownNow();
        awaitLoopEnd();
        beats.shutdownNow();
    }

    private void awaitLoopEnd() {
        if (Thread.currentThread() == loopThread) {
            return; // stopped from a callback on the loop itself: nothing else runs on it
        }
        try {
            if (!loop.awaitTermination(CLOSE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                log.warn("the event loop did not stop within {}", CLOSE_TIMEOUT);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }
}
