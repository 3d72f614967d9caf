package kafka.consumer;

import io.zkgroups.registry.model.Subscription;

import java.util.Objects;

/** The topics whose whole name does not match the regex ({@code black_list} in the registration). */
public class Blacklist extends TopicFilter {

    private final String rawRegex;

    public Blacklist(String rawRegex) {
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
        return new Subscription.Wildcard(Subscription.Wildcard.Kind.BLACK_LIST, regex(), streams);
    }

    /** Equal when the raw regexes are, as 0.8.2.2's case class. */
    @Override
    public boolean equals(Object other) {
        return other instanceof Blacklist b && Objects.equals(rawRegex, b.rawRegex);
    }

    @Override
    public int hashCode() {
        return Objects.hash(Blacklist.class, rawRegex);
    }
}
