package io.zkgroups.rebalancer.consumer;

import org.apache.kafka.common.utils.LogContext;
import org.slf4j.Logger;

import java.util.AbstractMap;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;

/**
 * What a {@link ZkGroupConsumer} has opened (clients, threads, MBeans), in the order it opened them: one list, closed
 * in reverse order by the one close path, whether the constructor failed halfway or {@code close()} was called.
 * <p>
 * <b>Threading.</b> The constructing thread, then the thread inside the consumer.
 */
final class ConsumerResources {

    /** This consumer's log: every line starts with its id. */
    private final Logger log;

    /** How one resource is closed. */
    @FunctionalInterface
    interface Closer {
        void close() throws Exception;
    }

    private final String owner;
    /** What each resource is, and how it is closed; the last opened first. */
    private final Deque<Map.Entry<String, Closer>> opened = new ArrayDeque<>();

    /** {@code owner} names the consumer in the log. */
    ConsumerResources(String owner) {
        this.owner = owner;
        this.log = new LogContext("[" + owner + "] ").logger(ConsumerResources.class);
    }

    /** Registers {@code resource}, just opened, to be closed by {@code closer}; returns it. Null is not registered. */
    <T> T add(String what, T resource, Closer closer) {
        if (resource != null) {
            opened.push(new AbstractMap.SimpleImmutableEntry<>(what, closer));
        }
        return resource;
    }

    /**
     * Closes everything registered, the last opened first; a failure to close one is logged at WARN and the rest are
     * closed all the same. Closing again closes nothing.
     */
    void closeAll() {
        Map.Entry<String, Closer> next;
        while ((next = opened.poll()) != null) {
            try {
                next.getValue().close();
            } catch (Exception | LinkageError e) {
                log.warn("closing the {} failed: {}", next.getKey(), e.toString());
            }
        }
    }
}
