package io.zkgroups.registry.model;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import io.zkgroups.registry.ZkNames;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * What a member consumes, as registered under {@code /consumers/G/ids/CID}: either a static
 * topic → stream-count map, or a white/black-list regex with a stream count that every reader expands
 * against the children of {@code /brokers/topics} at read time (0.8.2.2 {@code TopicCount}).
 * Implemented only by {@link Static} and {@link Wildcard}.
 */
public interface Subscription {

    /**
     * The most streams a subscription may declare in all: the sum of a static subscription's counts, or a
     * wildcard's count. A 0.8.2.2 consumer creates one stream (a queue, consumed by an application thread) per
     * declared stream, and every member of the group allocates a row per stream of every member at each rebalance,
     * so no working deployment comes near it; a registration above it is malformed (docs/compatibility.md).
     */
    int MAX_STREAMS = 10_000;

    /** Kafka's internal offsets topic, excluded from wildcards when {@code exclude.internal.topics=true}. */
    String OFFSETS_TOPIC = "__consumer_offsets";

    /** The registration's {@code pattern} value: {@code static}, {@code white_list} or {@code black_list}. */
    String pattern();

    /** Topic → stream count this subscription yields, given every topic that exists now. */
    Map<String, Integer> topicStreams(Collection<String> existingTopics, boolean excludeInternalTopics);

    /** Topics and their stream counts, in the order given (that order is written to ZooKeeper). */
    static Static topics(Map<String, Integer> streamsPerTopic) {
        return new Static(streamsPerTopic);
    }

    static Wildcard whitelist(String rawRegex, int streams) {
        return new Wildcard(Wildcard.Kind.WHITE_LIST, Wildcard.normalize(rawRegex), streams);
    }

    static Wildcard blacklist(String rawRegex, int streams) {
        return new Wildcard(Wildcard.Kind.BLACK_LIST, Wildcard.normalize(rawRegex), streams);
    }

    /** A fixed set of topics with a stream count each (0.8.2.2 {@code StaticTopicCount}). */
    @JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY) // JSON output (CLI) shows the fields
    final class Static implements Subscription {
        private final Map<String, Integer> streamsPerTopic;

        public Static(Map<String, Integer> streamsPerTopic) {
            Objects.requireNonNull(streamsPerTopic, "streamsPerTopic cannot be null");
            LinkedHashMap<String, Integer> copy = new LinkedHashMap<>();
            long total = 0;
            for (Map.Entry<String, Integer> entry : streamsPerTopic.entrySet()) {
                String topic = entry.getKey();
                Integer streams = entry.getValue();
                ZkNames.requireValid("topic", topic);
                if (streams == null || streams < 0) {
                    throw new IllegalArgumentException("stream count of topic " + topic + " must be >= 0, got " + streams);
                }
                total += streams;
                copy.put(topic, streams);
            }
            SubscriptionLimits.requireAtMostMaxStreams(total);
            streamsPerTopic = Collections.unmodifiableMap(copy);
            this.streamsPerTopic = streamsPerTopic;
        }

        @Override
        public String pattern() {
            return "static";
        }

        @Override
        public Map<String, Integer> topicStreams(Collection<String> existingTopics, boolean excludeInternalTopics) {
            return new TreeMap<>(streamsPerTopic);
        }

        public Map<String, Integer> streamsPerTopic() {
            return streamsPerTopic;
        }

        @Override
        public boolean equals(Object o) {
            if (o == this) {
                return true;
            }
            if (!(o instanceof Static)) {
                return false;
            }
            Static that = (Static) o;
            return Objects.equals(streamsPerTopic, that.streamsPerTopic);
        }

        @Override
        public int hashCode() {
            int h = 0;
            h = 31 * h + Objects.hashCode(streamsPerTopic);
            return h;
        }

        @Override
        public String toString() {
            return "Static[streamsPerTopic=" + streamsPerTopic + "]";
        }
    }

    /** A regex over topic names with one stream count for all matches (0.8.2.2 {@code WildcardTopicCount}). */
    @JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY) // JSON output (CLI) shows the fields
    final class Wildcard implements Subscription {
        private final Kind kind;
        private final String regex;
        private final int streams;

        public enum Kind {
            WHITE_LIST("white_list"), BLACK_LIST("black_list");

            private final String pattern;

            Kind(String pattern) {
                this.pattern = pattern;
            }

            public String pattern() {
                return pattern;
            }
        }

        public Wildcard(Kind kind, String regex, int streams) {
            Objects.requireNonNull(kind, "kind cannot be null");
            Objects.requireNonNull(regex, "regex cannot be null");
            if (streams < 0) {
                throw new IllegalArgumentException("stream count must be >= 0, got " + streams);
            }
            SubscriptionLimits.requireAtMostMaxStreams(streams);
            try {
                Pattern.compile(regex);
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException("invalid topic regex '" + regex + "': " + e.getDescription(), e);
            }
            this.kind = kind;
            this.regex = regex;
            this.streams = streams;
        }

        /**
         * 0.8.2.2 {@code TopicFilter} normalisation: trim, {@code ,} → {@code |}, drop spaces, strip leading
         * and trailing runs of quotes (property files may bring them).
         */
        public static String normalize(String rawRegex) {
            Objects.requireNonNull(rawRegex, "regex cannot be null");
            return rawRegex.trim()
                    .replace(',', '|')
                    .replace(" ", "")
                    .replaceAll("^[\"']+", "")
                    .replaceAll("[\"']+$", "");
        }

        @Override
        public String pattern() {
            return kind.pattern();
        }

        public boolean matches(String topic, boolean excludeInternalTopics) {
            if (excludeInternalTopics && OFFSETS_TOPIC.equals(topic)) {
                return false;
            }
            boolean match = topic.matches(regex);
            return kind == Kind.WHITE_LIST ? match : !match;
        }

        @Override
        public Map<String, Integer> topicStreams(Collection<String> existingTopics, boolean excludeInternalTopics) {
            TreeMap<String, Integer> result = new TreeMap<>();
            for (String topic : existingTopics) {
                if (matches(topic, excludeInternalTopics)) {
                    result.put(topic, streams);
                }
            }
            return result;
        }

        public Kind kind() {
            return kind;
        }

        public String regex() {
            return regex;
        }

        public int streams() {
            return streams;
        }

        @Override
        public boolean equals(Object o) {
            if (o == this) {
                return true;
            }
            if (!(o instanceof Wildcard)) {
                return false;
            }
            Wildcard that = (Wildcard) o;
            return Objects.equals(kind, that.kind)
                    && Objects.equals(regex, that.regex)
                    && streams == that.streams;
        }

        @Override
        public int hashCode() {
            int h = 0;
            h = 31 * h + Objects.hashCode(kind);
            h = 31 * h + Objects.hashCode(regex);
            h = 31 * h + Integer.hashCode(streams);
            return h;
        }

        @Override
        public String toString() {
            return "Wildcard[kind=" + kind + ", regex=" + regex + ", streams=" + streams + "]";
        }
    }
}
