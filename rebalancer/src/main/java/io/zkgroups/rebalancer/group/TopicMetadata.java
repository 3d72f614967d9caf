package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.store.Unreadable;

import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Where a member learns which topics exist and how many partitions they have: {@code /brokers/topics}
 * when the cluster registers there ({@link ZkTopicMetadata}), Kafka metadata otherwise (KRaft).
 * Each read arms a one-shot change notification.
 */
public interface TopicMetadata extends AutoCloseable {

    /** Partition counts of some topics, and the topics whose registration exists but cannot be read. */
    final class TopicCounts {
        private final Map<String, Integer> partitionCounts;
        private final Map<String, Unreadable> unreadable;

        public TopicCounts(Map<String, Integer> partitionCounts, Map<String, Unreadable> unreadable) {
            this.partitionCounts = Collections.unmodifiableMap(new TreeMap<>(partitionCounts));
            this.unreadable = Collections.unmodifiableMap(new TreeMap<>(unreadable));
        }

        /** Topic → partition count, for those of the asked topics that exist and can be read. */
        public Map<String, Integer> partitionCounts() {
            return partitionCounts;
        }

        /**
         * By topic, the registrations of asked topics that cannot be read (path and reason): for this look at the
         * group such a topic has no known partitions, so nobody is assigned any.
         */
        public Map<String, Unreadable> unreadable() {
            return unreadable;
        }

        @Override
        public boolean equals(Object other) {
            if (this == other) {
                return true;
            }
            if (!(other instanceof TopicCounts)) {
                return false;
            }
            TopicCounts that = (TopicCounts) other;
            return partitionCounts.equals(that.partitionCounts) && unreadable.equals(that.unreadable);
        }

        @Override
        public int hashCode() {
            return Objects.hash(partitionCounts, unreadable);
        }

        @Override
        public String toString() {
            return "TopicCounts[partitionCounts=" + partitionCounts + ", unreadable=" + unreadable + "]";
        }
    }

    /** Partition counts of those of {@code topics} that exist; {@code onChange} runs once on the next change. */
    Map<String, Integer> partitionCounts(Collection<String> topics, Runnable onChange);

    /**
     * As {@link #partitionCounts}, and which of {@code topics} are registered but unreadable. A source that cannot
     * tell them apart from missing topics reports none.
     */
    default TopicCounts counts(Collection<String> topics, Runnable onChange) {
        return new TopicCounts(partitionCounts(topics, onChange), Collections.emptyMap());
    }

    /** Every existing topic; {@code onChange} runs once when a topic is created or deleted. */
    List<String> topics(Runnable onChange);

    @Override
    default void close() {
    }
}
