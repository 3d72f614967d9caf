package io.zkgroups.registry.model;

import java.util.Comparator;
import java.util.Objects;

/**
 * A (topic, partition) pair. {@link #toString()} is exactly 0.8.2.2's {@code TopicAndPartition.toString}
 * ({@code "[orders,10]"}, no space), because the round-robin assignor orders partitions by the
 * {@code String.hashCode} of that text.
 */
public record TopicAndPartition(String topic, int partition) implements Comparable<TopicAndPartition> {

    private static final Comparator<TopicAndPartition> ORDER =
            Comparator.comparing(TopicAndPartition::topic).thenComparingInt(TopicAndPartition::partition);

    public TopicAndPartition {
        Objects.requireNonNull(topic, "topic cannot be null");
        if (partition < 0) {
            throw new IllegalArgumentException("partition must be >= 0, got " + partition + " for topic " + topic);
        }
    }

    public static TopicAndPartition of(String topic, int partition) {
        return new TopicAndPartition(topic, partition);
    }

    @Override
    public int compareTo(TopicAndPartition other) {
        return ORDER.compare(this, other);
    }

    @Override
    public String toString() {
        return "[" + topic + "," + partition + "]";
    }
}
