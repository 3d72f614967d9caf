package io.zkgroups.rebalancer.consumer;

import io.zkgroups.registry.Time;
import org.apache.curator.framework.CuratorFramework;
import org.apache.kafka.common.utils.LogContext;
import org.slf4j.Logger;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Open or closed, and who is inside: the entry idiom of every public method of a {@link ZkGroupConsumer}
 * ({@link #acquireAndEnsureOpen()}, after KafkaConsumer's) and its one close path.
 * <ol>
 *   <li>open: {@link #call}/{@link #run} enter the {@link SingleThreadGuard} and fail with
 *       {@code IllegalStateException} once closed;</li>
 *   <li>{@link #close}: the leave runs (the application's revocation callback may still use the consumer), bounded
 *       by the ZooKeeper session timeout; then every {@link ConsumerResources} entry is closed; from then on every
 *       entry fails.</li>
 * </ol>
 * <b>Threading.</b> {@link #ensureOpen()} on any thread; the rest on the thread inside the consumer.
 */
final class ConsumerLifecycle {

    /** This consumer's log: every line starts with its id. */
    private final Logger log;

    private final String owner;
    private final SingleThreadGuard guard;
    private final ConsumerResources resources;
    private final Time time;
    private volatile boolean closed;
    private boolean closing;

    ConsumerLifecycle(String owner, ConsumerResources resources, Time time) {
        this.time = time;
        this.owner = owner;
        this.log = new LogContext("[" + owner + "] ").logger(ConsumerLifecycle.class);
        this.guard = new SingleThreadGuard("ZkGroupConsumer");
        this.resources = resources;
    }

    /** Enters the guard, failing if the consumer is closed (then it does not stay inside). */
    void acquireAndEnsureOpen() {
        guard.acquire();
        try {
            ensureOpen();
        } catch (IllegalStateException closedAlready) {
            guard.release();
            throw closedAlready;
        }
    }

    void release() {
        guard.release();
    }

    /** Throws if closed; for the few entries that run outside the guard (any thread). */
    void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("This consumer has already been closed.");
        }
    }

    /** {@code call} inside the guard, if open. */
    <T> T call(Supplier<T> call) {
        acquireAndEnsureOpen();
        try {
            return call.get();
        } finally {
            release();
        }
    }

    /** {@code run} inside the guard, if open. */
    void run(Runnable run) {
        call(() -> {
            run.run();
            return null;
        });
    }

    /**
     * Runs {@code leave} and then closes every resource; a second close does nothing. If the leave has not finished
     * at {@code zooKeeperBound} while ZooKeeper is unreachable, or at {@code deadline} in any case, the ZooKeeper client
     * is closed under it (the session's end removes the registration and owner znodes anyway), which is logged at WARN.
     */
    void close(Runnable leave, CuratorFramework zooKeeper, Deadline zooKeeperBound, Deadline deadline) {
        guard.acquire();
        try {
            if (closed || closing) {
                return;
            }
            closing = true;
            CountDownLatch left = new CountDownLatch(1);
            AtomicBoolean gaveUp = new AtomicBoolean();
            watchdog(left, gaveUp, zooKeeper, zooKeeperBound, deadline);
            try {
                leave.run();
            } catch (RuntimeException e) {
                if (!gaveUp.get()) {
                    throw e;
                }
                log.warn("leaving ended with {} after the ZooKeeper client was closed", e.toString());
            } finally {
                left.countDown(); // the watchdog ends, or is closing ZooKeeper: not waited for, it may block on it
                closed = true;
                resources.closeAll();
            }
        } finally {
            guard.release();
        }
    }

    /** Closes {@code zooKeeper} unless {@code left} by {@code bound} (if disconnected then) or by {@code deadline}. */
    private void watchdog(CountDownLatch left, AtomicBoolean gaveUp, CuratorFramework zooKeeper, Deadline bound,
                            Deadline deadline) {
        long started = time.nanoseconds();
        Thread watchdog = new Thread(() -> {
            try {
                if (!left.await(bound.remainingNanos(), TimeUnit.NANOSECONDS)
                        && (!zooKeeper.getZookeeperClient().isConnected()
                        || !left.await(deadline.remainingNanos(), TimeUnit.NANOSECONDS))) {
                    log.warn("could not leave the group within {} ms ({}): closing the ZooKeeper client; the "
                                    + "registration and owner znodes go when the session ends", TimeUnit.NANOSECONDS.toMillis(time.nanoseconds() - started),
                            zooKeeper.getZookeeperClient().isConnected() ? "the close timeout passed"
                                    : "ZooKeeper is unreachable");
                    gaveUp.set(true);
                    zooKeeper.close();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "zkgroups-close-" + owner);
        watchdog.setDaemon(true);
        watchdog.start();
    }
}
