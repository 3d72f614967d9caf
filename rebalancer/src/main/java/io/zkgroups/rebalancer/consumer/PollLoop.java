package io.zkgroups.rebalancer.consumer;

import io.zkgroups.rebalancer.metrics.ConsumerMetrics;
import io.zkgroups.registry.Time;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.WakeupException;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * What {@code poll} does, in slices: the group's events first (rebalance callbacks run here, on the poll thread), then
 * auto-commit when due or when a partition is past half of {@code zkgroups.max.uncommitted.records}, then a fetch
 * through the fence and the cap; and the application's {@link #wakeup}, delivered once, by
 * whichever blocking call meets it first.
 * <p>
 * <b>Threading.</b> The thread inside the consumer, except {@link #wakeup} (any thread).
 */
final class PollLoop<K, V> {

    /** Longest stretch the fetcher blocks: bounds how late the poll thread sees a revocation. */
    private static final Duration POLL_SLICE = Duration.ofMillis(50);

    private final GroupCoordinator coordinator;
    private final PartitionFetcher<K, V> fetcher;
    private final OffsetCommitter committer;
    private final RewindGuard rewindGuard;
    private final ConsumerMetrics metrics;
    /** The inner client: woken with the application's wakeup, so that a call blocked in it returns at once. */
    private final Consumer<K, V> fetchClient;
    private final Time time;
    private volatile boolean userWakeup;

    PollLoop(GroupCoordinator coordinator, PartitionFetcher<K, V> fetcher, OffsetCommitter committer,
             RewindGuard rewindGuard, ConsumerMetrics metrics, Consumer<K, V> fetchClient, Time time) {
        this.rewindGuard = rewindGuard;
        this.time = time;
        this.coordinator = coordinator;
        this.fetcher = fetcher;
        this.committer = committer;
        this.metrics = metrics;
        this.fetchClient = fetchClient;
    }

    /**
     * Records the fence lets out within {@code timeout}, or none.
     *
     * @throws IllegalStateException if not subscribed
     * @throws WakeupException       if {@link #wakeup} was called, before or during the poll
     */
    ConsumerRecords<K, V> poll(Duration timeout) {
        if (!coordinator.subscribed()) {
            throw new IllegalStateException("Consumer is not subscribed to any topics or assigned any partitions");
        }
        long deadline = time.nanoseconds() + Math.max(0, timeout.toNanos());
        do {
            checkWakeup();
            coordinator.checkMember();
            if (coordinator.processEvents()) {
                userWakeup = true;
                checkWakeup();
            }
            committer.maybeAutoCommit();
            committer.commitNearCap(fetcher.pastHalfCap());
            rewindGuard.check();
            long slice = Math.max(0, Math.min(deadline - time.nanoseconds(), POLL_SLICE.toNanos()));
            if (!fetcher.canFetch()) {
                if (!connectEarly(Duration.ofNanos(slice))) {
                    coordinator.awaitEvent(slice);
                }
                continue;
            }
            ConsumerRecords<K, V> records = fetch(Duration.ofNanos(slice));
            if (!records.isEmpty()) {
                metrics.delivered(records);
                return records;
            }
        } while (time.nanoseconds() < deadline);
        return ConsumerRecords.empty();
    }

    /** Any thread: the next blocking call (this poll, if one runs) throws {@link WakeupException}. */
    void wakeup() {
        userWakeup = true;
        coordinator.wake();
        fetchClient.wakeup();
    }

    /** Throws {@link WakeupException} if a wakeup is pending, and drops it: it is delivered once. */
    void checkWakeup() {
        if (userWakeup) {
            userWakeup = false;
            coordinator.clearWakeups();
            drainFetchClientWakeup();
            throw new WakeupException();
        }
    }

    /**
     * The inner client keeps the wakeup it was given until one of its own calls meets it: delivered here already, it
     * must not wake the next fetch again. A metadata request that may not wait meets it and is otherwise harmless.
     */
    private void drainFetchClientWakeup() {
        try {
            fetchClient.listTopics(Duration.ZERO);
        } catch (WakeupException delivered) {
            // what was wanted
        } catch (KafkaException | IllegalStateException notAnswered) {
            // no wakeup was pending in it (a TimeoutException, as the request could not wait)
        }
    }

    /** Runs a blocking call of the fetcher; a wakeup it delivered is not delivered again. */
    <T> T delivering(Supplier<T> call) {
        try {
            return call.get();
        } catch (WakeupException e) {
            throw wokenUp(e);
        }
    }

    private ConsumerRecords<K, V> fetch(Duration slice) {
        return delivering(() -> fetcher.poll(slice));
    }

    private boolean connectEarly(Duration slice) {
        return delivering(() -> fetcher.connectEarly(slice));
    }

    /** The application's wakeup reached the inner consumer: delivered, so the pending ones are dropped. */
    private WakeupException wokenUp(WakeupException e) {
        userWakeup = false;
        coordinator.clearWakeups();
        return e;
    }
}
