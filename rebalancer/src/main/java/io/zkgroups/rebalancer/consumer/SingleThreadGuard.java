package io.zkgroups.rebalancer.consumer;

import java.util.ConcurrentModificationException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * KafkaConsumer's light lock: the first thread in owns the consumer until it leaves, re-entrantly; any other thread
 * that tries to enter meanwhile gets a {@link ConcurrentModificationException} instead of waiting, because a consumer
 * used from two threads at once is a bug in the application, not contention to sit out.
 */
final class SingleThreadGuard {

    private static final long NO_THREAD = -1;

    private final String owner;
    private final AtomicLong currentThread = new AtomicLong(NO_THREAD);
    private final AtomicInteger refCount = new AtomicInteger();

    /** {@code owner} names the guarded object in the exception's message. */
    SingleThreadGuard(String owner) {
        this.owner = owner;
    }

    /** Enters, or throws if another thread is inside; every {@code acquire} needs its {@link #release}. */
    void acquire() {
        long thread = Thread.currentThread().getId();
        if (thread != currentThread.get() && !currentThread.compareAndSet(NO_THREAD, thread)) {
            throw new ConcurrentModificationException(owner + " is not safe for multi-threaded access");
        }
        refCount.incrementAndGet();
    }

    void release() {
        if (refCount.decrementAndGet() == 0) {
            currentThread.set(NO_THREAD);
        }
    }
}
