package kafka.consumer;

import io.zkgroups.registry.model.Subscription;

import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A regex over topic names for {@code createMessageStreamsByFilter}, normalised as 0.8.2.2 does: trimmed, every
 * {@code ,} turned into {@code |}, spaces removed, leading and trailing quotes stripped (property files may bring
 * them). So {@code "a, b"} is {@code a|b}. The regex must match a whole topic name.
 */
public abstract class TopicFilter {

    private final String regex;

    /** @throws RuntimeException naming the normalised regex if it does not compile, as 0.8.2.2 */
    public TopicFilter(String rawRegex) {
        this.regex = Subscription.Wildcard.normalize(rawRegex);
        try {
            Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            throw new RuntimeException(regex + " is an invalid regex.", e);
        }
    }

    /** The normalised regex, as registered in ZooKeeper. */
    public String regex() {
        return regex;
    }

    /** Whether this filter takes {@code topic}; Kafka's internal {@code __consumer_offsets} only when not excluded. */
    public abstract boolean isTopicAllowed(String topic, boolean excludeInternalTopics);

    /** The subscription this filter registers: {@code streams} consumer threads for every matching topic. */
    abstract Subscription.Wildcard subscription(int streams);

    @Override
    public String toString() {
        return regex;
    }
}
