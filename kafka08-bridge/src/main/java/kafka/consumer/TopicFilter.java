package kafka.consumer;

import io.zkgroups.registry.model.Subscription;

import java.util.Objects;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A regex over topic names for {@code createMessageStreamsByFilter}, normalised as 0.8.2.2 does: trimmed, every
 * {@code ,} turned into {@code |}, spaces removed, leading and trailing quotes stripped (property files may bring
 * them). So {@code "a, b"} is {@code a|b}. The regex must match a whole topic name.
 */
public abstract class TopicFilter {

    private final String rawRegex;
    private final String regex;

    /** @throws RuntimeException naming the normalised regex if it does not compile, as 0.8.2.2 */
    public TopicFilter(String rawRegex) {
        this.rawRegex = rawRegex;
        this.regex = Subscription.Wildcard.normalize(rawRegex);
        try {
            Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            throw new RuntimeException(regex + " is an invalid regex.", e);
        }
    }

    /** The regex as given. */
    public String rawRegex() {
        return rawRegex;
    }

    /** The normalised regex, as registered in ZooKeeper. */
    public String regex() {
        return regex;
    }

    /** Whether this filter takes {@code topic}; Kafka's internal {@code __consumer_offsets} only when not excluded. */
    public abstract boolean isTopicAllowed(String topic, boolean excludeInternalTopics);

    /** How the registration names this kind of filter. */
    abstract Subscription.Wildcard.Kind kind();

    /** The subscription this filter registers: {@code streams} consumer threads for every matching topic. */
    Subscription.Wildcard subscription(int streams) {
        return new Subscription.Wildcard(kind(), regex, streams);
    }

    /** Equal when of the same kind with the same raw regex, as 0.8.2.2's case classes. */
    @Override
    public boolean equals(Object other) {
        return other != null && other.getClass() == getClass() && Objects.equals(rawRegex, ((TopicFilter) other).rawRegex);
    }

    @Override
    public int hashCode() {
        return Objects.hash(getClass(), rawRegex);
    }

    @Override
    public String toString() {
        return regex;
    }
}
