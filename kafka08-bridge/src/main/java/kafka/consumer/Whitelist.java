package kafka.consumer;

import io.zkgroups.registry.model.Subscription;

import java.util.Objects;

/** The topics whose whole name matches the regex ({@code white_list} in the registration). */
public class Whitelist extends TopicFilter {

    private final String rawRegex;

    public Whitelist(String rawRegex) {
        super(rawRegex);
        this.rawRegex = rawRegex;
    }

    public String rawRegex() {
        return rawRegex;
    }

    @Override
    public boolean isTopicAllowed(String topic, boolean excludeInternalTopics) {
        return subscription(1).matches(topic, excludeInternalTopics);
    }

    @Override
    Subscription.Wildcard subscription(int streams) {
        return new Subscription.Wildcard(Subscription.Wildcard.Kind.WHITE_LIST, regex(), streams);
    }

    /** Equal when the raw regexes are, as 0.8.2.2's case class. */
    @Override
    public boolean equals(Object other) {
        return other instanceof Whitelist w && Objects.equals(rawRegex, w.rawRegex);
    }

    @Override
    public int hashCode() {
        return Objects.hash(Whitelist.class, rawRegex);
    }
}
