package kafka.consumer;

import io.zkgroups.registry.model.Subscription;

/** The topics whose whole name matches the regex ({@code white_list} in the registration). */
public class Whitelist extends TopicFilter {

    public Whitelist(String rawRegex) {
        super(rawRegex);
    }

    @Override
    public boolean isTopicAllowed(String topic, boolean excludeInternalTopics) {
        return subscription(1).matches(topic, excludeInternalTopics);
    }

    @Override
    Subscription.Wildcard.Kind kind() {
        return Subscription.Wildcard.Kind.WHITE_LIST;
    }
}
