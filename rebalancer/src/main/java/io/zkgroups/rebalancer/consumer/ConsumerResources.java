package io.zkgroups.rebalancer.consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * What a {@link ZkGroupConsumer} has opened (clients, threads, MBeans), in the order it opened them: one list, closed
 * in reverse order by the one close path, whether the constructor failed halfway or {@code close()} was called.
 * <p>
 * <b>Threading.</b> The constructing thread, then the thread inside the consumer.
 */
final class ConsumerResources {

    private static final Logger LOG = LoggerFactory.getLogger(ConsumerResources.class);

    /** How one resource is closed. */
    @FunctionalInterface
    interface Closer {
        void close() throws Exception;
    }

    private static final class Opened {
        final String what;
        final Closer closer;

        Opened(String what, Closer closer) {
            this.what = what;
            this.closer = closer;
        }
    }

    private final String owner;
    private final Deque<Opened> opened = new ArrayDeque<>();

    /** {@code owner} names the consumer in the log. */
    ConsumerResources(String owner) {
        this.owner = owner;
    }

    /** Registers {@code resource}, just opened, to be closed by {@code closer}; returns it. Null is not registered. */
    <T> T add(String what, T resource, Closer closer) {
        if (resource != null) {
            opened.push(new Opened(what, closer));
        }
        return resource;
    }

    /**
     * Closes everything registered, the last opened first; a failure to close one is logged at WARN and the rest are
     * closed all the same. Closing again closes nothing.
     */
    void closeAll() {
        Opened next;
        while ((next = opened.poll()) != null) {
            try {
                next.closer.close();
            } catch (Exception | LinkageError e) {
                LOG.warn("[{}] closing the {} failed: {}", owner, next.what, e.toString());
            }
        }
    }
}
