package io.zkgroups.rebalancer.cutover;

import io.zkgroups.registry.Time;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Lets go of a Kafka-coordinated member's owner znodes when its application has not polled for
 * {@code max.poll.interval.ms}: Kafka's group has dropped the member by then and given its partitions to others, who
 * wait for those znodes (the fence). The member learns of it on its next poll ({@link #takeReleased}).
 * <p>
 * The fenced partitions are read from the watchdog's thread only while the poll thread is outside {@code poll}, where
 * it does not change them; the lock orders the two threads.
 */
final class PollWatchdog implements AutoCloseable {

    private final long maxPollIntervalNanos;
    private final Time time;
    private final Supplier<Collection<TopicPartition>> fenced;
    private final Consumer<Collection<TopicPartition>> release;
    private final Logger log;
    private final ScheduledExecutorService timer;
    private final Object lock = new Object();
    private boolean inPoll;
    private long returnedNanos;
    /** Released by this watchdog since the poll thread last asked. */
    private final Set<TopicPartition> released = new HashSet<>();
    private boolean closed;

    /**
     * @param fenced  the partitions whose owner znodes the member holds (read while it is not polling)
     * @param release deletes the owner znodes of the partitions given
     */
    PollWatchdog(String name, Duration maxPollInterval, Time time, Supplier<Collection<TopicPartition>> fenced,
                 Consumer<Collection<TopicPartition>> release, Logger log) {
        this.maxPollIntervalNanos = maxPollInterval.toNanos();
        this.time = time;
        this.fenced = fenced;
        this.release = release;
        this.log = log;
        this.returnedNanos = time.nanoseconds();
        this.timer = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "zkgroups-poll-watchdog-" + name);
            thread.setDaemon(true);
            return thread;
        });
        long period = Math.max(10, Math.min(1_000, maxPollInterval.toMillis() / 10));
        timer.scheduleWithFixedDelay(this::check, period, period, TimeUnit.MILLISECONDS);
    }

    /** The poll thread enters {@code poll}. */
    void polling() {
        synchronized (lock) {
            inPoll = true;
        }
    }

    /** The poll thread leaves {@code poll}. */
    void returned() {
        synchronized (lock) {
            inPoll = false;
            returnedNanos = time.nanoseconds();
        }
    }

    /** The partitions released since the last call (poll thread). */
    List<TopicPartition> takeReleased() {
        synchronized (lock) {
            List<TopicPartition> taken = new ArrayList<>(released);
            released.clear();
            return taken;
        }
    }

    private void check() {
        synchronized (lock) {
            if (closed || inPoll || time.nanoseconds() - returnedNanos < maxPollIntervalNanos) {
                return;
            }
            List<TopicPartition> held = new ArrayList<>(fenced.get());
            held.removeAll(released);
            if (held.isEmpty()) {
                return;
            }
            log.warn("the application has not polled for {} ms (max.poll.interval.ms): Kafka's group has given {} "
                    + "to other members; letting go of their owner znodes", maxPollIntervalNanos / 1_000_000, held);
            released.addAll(held);
            release.accept(held); // under the lock: the poll thread cannot fence them again before they are gone
        }
    }

    @Override
    public void close() {
        synchronized (lock) {
            closed = true;
        }
        timer.shutdownNow();
    }
}
