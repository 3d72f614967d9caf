package io.zkgroups.registry.model;

/** The bound both kinds of {@link Subscription} check (a Java 8 interface cannot hold private methods). */
final class SubscriptionLimits {

    private SubscriptionLimits() {
    }

    static void requireAtMostMaxStreams(long streams) {
        if (streams > Subscription.MAX_STREAMS) {
            throw new IllegalArgumentException("declares " + streams + " streams in all, more than the "
                    + Subscription.MAX_STREAMS + " a subscription may have");
        }
    }
}
