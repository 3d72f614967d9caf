package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.Time;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * When a member's next rebalance attempt runs, and why: the causes gathered since the last attempt began, and at most
 * one attempt scheduled on the event loop. A request due sooner than the scheduled attempt replaces it; a later one
 * leaves it as it is (causes gather until it runs). Requests come from any thread (watches, the lease, callers);
 * attempts begin on the event loop. After {@link #stop} nothing more is scheduled.
 */
final class AttemptSchedule {

    private final ScheduledExecutorService loop;
    private final Runnable attempt;
    private final Time time;
    private final List<RebalanceCause> pending = new ArrayList<>();
    private ScheduledFuture<?> next;
    private long nextDueNanos;
    private boolean stopped;

    AttemptSchedule(ScheduledExecutorService loop, Runnable attempt, Time time) {
        this.loop = loop;
        this.attempt = attempt;
        this.time = time;
    }

    /** Adds {@code cause} (none if null) to the next attempt's and makes sure one runs within {@code delay}. */
    void request(RebalanceCause cause, Duration delay) {
        if (cause != null) {
            synchronized (pending) {
                pending.add(cause);
            }
        }
        within(delay);
    }

    /** Makes sure an attempt runs within {@code delay}; an earlier one already scheduled stays. */
    synchronized void within(Duration delay) {
        if (stopped) {
            return;
        }
        long due = time.nanoseconds() + delay.toNanos();
        if (next != null && !next.isDone() && nextDueNanos <= due) {
            return;
        }
        if (next != null) {
            next.cancel(false);
        }
        nextDueNanos = due;
        try {
            next = loop.schedule(attempt, delay.toNanos(), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException shuttingDown) {
            next = null;
        }
    }

    /**
     * At the start of an attempt, on the event loop: it is no longer the next one (a request from now on schedules
     * another), and it takes the causes gathered so far.
     */
    List<RebalanceCause> begin() {
        synchronized (this) {
            next = null;
        }
        synchronized (pending) {
            List<RebalanceCause> causes = new ArrayList<>(pending);
            pending.clear();
            return causes;
        }
    }

    /** Gives {@code causes} back, ahead of any gathered meanwhile: still the reasons of the attempt that follows. */
    void putBack(List<RebalanceCause> causes) {
        synchronized (pending) {
            pending.addAll(0, causes);
        }
    }

    /** Cancels the scheduled attempt (one running goes on) and schedules none after it. */
    synchronized void stop() {
        stopped = true;
        if (next != null) {
            next.cancel(false);
        }
    }
}
