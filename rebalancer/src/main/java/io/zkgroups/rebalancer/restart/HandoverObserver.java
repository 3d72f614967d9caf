package io.zkgroups.rebalancer.restart;

import org.slf4j.LoggerFactory;

/**
 * Told of each {@link HandoverStep} as it completes, on the thread doing it (for logs, metrics, and tests that stop a
 * process at a given step). It must return quickly; an exception it throws is logged and ignored.
 */
@FunctionalInterface
public interface HandoverObserver {

    HandoverObserver NONE = step -> {
    };

    void completed(HandoverStep step);

    /** Tells {@code observer} of {@code step}, logging the step and whatever the observer throws. */
    static void tell(HandoverObserver observer, HandoverStep step) {
        LoggerFactory.getLogger(HandoverObserver.class).debug("session hand-over: {}", step);
        try {
            observer.completed(step);
        } catch (RuntimeException e) {
            LoggerFactory.getLogger(HandoverObserver.class).warn("hand-over observer failed at {}: {}", step, e.toString());
        }
    }
}
