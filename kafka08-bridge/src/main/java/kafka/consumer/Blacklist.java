package kafka.consumer;

import io.zkgroups.registry.model.Subscription;

/** The topics whose whole name does not match the regex ({@code black_list} in the registration). */
public class Blacklist extends TopicFilter {

    public Blacklist(String rawRegex) {
        super(rawRegex);
    }

    @Override
    public boolean isTopicAllowed(String topic, boolean excludeInternalTopics) {
        return subscription(1).matches(topic, excludeInternalTopics);
    }

    @Override
    Subscription.Wildcard.Kind kind() {
        return Subscription.Wildcard.Kind.BLACK_LIST;
    }
}
