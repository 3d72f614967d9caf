package io.zkgroups.rebalancer.consumer;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Whether the poll thread waits inside the fetch client's poll, so that another thread with news for it (a rebalance
 * event) can cut that wait short with the client's {@code wakeup()}, and only then: a wakeup that found nobody
 * waiting would stay pending and make the client's next call throw. The poll thread learns from {@link #leave}
 * whether a break was sent, by then delivered to the client, and takes whatever the break left pending.
 * <p>
 * <b>Threading.</b> {@link #enter} and {@link #leave} on the poll thread, {@link #interrupt} on any.
 */
final class FetchWait {

    private static final int IDLE = 0;
    private static final int WAITING = 1;
    private static final int BREAKING = 2;
    private static final int BROKEN = 3;

    private final AtomicInteger state = new AtomicInteger(IDLE);

    /** Poll thread: about to call the fetch client's poll. */
    void enter() {
        state.set(WAITING);
    }

    /** Any thread: if the poll thread waits in the fetch client's poll, runs {@code wakeup} (the client's), once. */
    void interrupt(Runnable wakeup) {
        if (state.compareAndSet(WAITING, BREAKING)) {
            try {
                wakeup.run();
            } finally {
                state.set(BROKEN);
            }
        }
    }

    /**
     * Poll thread: the fetch client's poll returned or threw. Whether a break was sent meanwhile; if so, its
     * {@code wakeup} has returned by now (an interrupting thread is at most a few instructions from that).
     */
    boolean leave() {
        if (state.compareAndSet(WAITING, IDLE)) {
            return false;
        }
        while (state.get() != BROKEN) {
            Thread.yield();
        }
        state.set(IDLE);
        return true;
    }
}
