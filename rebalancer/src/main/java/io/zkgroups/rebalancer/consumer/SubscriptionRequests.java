package io.zkgroups.rebalancer.consumer;

import io.zkgroups.registry.ZkNames;
import io.zkgroups.registry.model.Subscription;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/** The arguments of a {@code subscribe} call, checked and turned into the 0.8 subscription a member registers. */
final class SubscriptionRequests {

    private SubscriptionRequests() {
    }

    /** {@code topics} in the caller's order, {@code streams} each. */
    static Subscription.Static topics(Collection<String> topics, int streams) {
        if (topics == null) {
            throw new IllegalArgumentException("Topic collection to subscribe to cannot be null");
        }
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (String topic : topics) {
            counts.put(ZkNames.requireValid("topic", topic == null ? null : topic.trim()), streams);
        }
        return Subscription.topics(counts);
    }

    /** A pattern subscription is a 0.8 {@code white_list}: other members see and expand the same regex. */
    static Subscription.Wildcard pattern(Pattern pattern, int streams) {
        if (pattern == null || pattern.pattern().isEmpty()) {
            throw new IllegalArgumentException("Topic pattern to subscribe to cannot be "
                    + (pattern == null ? "null" : "empty"));
        }
        return new Subscription.Wildcard(Subscription.Wildcard.Kind.WHITE_LIST, pattern.pattern(), streams);
    }

    /** {@code subscription} as given to {@code subscribe(Subscription, listener)}: at least one stream everywhere. */
    static Subscription checked(Subscription subscription) {
        if (subscription instanceof Subscription.Static) {
            ((Subscription.Static) subscription).streamsPerTopic().forEach((topic, streams) -> {
                if (streams < 1) { // a registration may say 0 (read as no threads), but 0.8 never creates one
                    throw new IllegalArgumentException("stream count of topic " + topic + " must be >= 1, got " + streams);
                }
            });
        } else if (subscription instanceof Subscription.Wildcard) {
            Subscription.Wildcard wildcard = (Subscription.Wildcard) subscription;
            if (wildcard.streams() < 1) {
                throw new IllegalArgumentException("stream count of " + wildcard.regex() + " must be >= 1, got "
                        + wildcard.streams());
            }
        } else {
            throw new IllegalArgumentException("subscription cannot be " + subscription);
        }
        return subscription;
    }

    /** The topics a static subscription names (none for a wildcard: they come from the pattern). */
    static Set<String> namedTopics(Subscription subscription) {
        return subscription instanceof Subscription.Static
                ? ((Subscription.Static) subscription).streamsPerTopic().keySet() : Collections.<String>emptySet();
    }

    /** The pattern of a wildcard subscription, null for a static one. */
    static Pattern patternOf(Subscription subscription) {
        return subscription instanceof Subscription.Wildcard
                ? Pattern.compile(((Subscription.Wildcard) subscription).regex()) : null;
    }
}
