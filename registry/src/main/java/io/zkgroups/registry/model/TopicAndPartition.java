package io.zkgroups.registry.model;

import com.fasterxml.jackson.annotation.JsonAutoDetect;

import java.util.Objects;

/**
 * A (topic, partition) pair. {@link #toString()} is exactly 0.8.2.2's {@code TopicAndPartition.toString}
 * ({@code "[orders,10]"}, no space), because the round-robin assignor orders partitions by the
 * {@code String.hashCode} of that text.
 */
@JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY) // JSON output (CLI) shows the fields
public final class TopicAndPartition implements Comparable<TopicAndPartition> {
    private final String topic;
    private final int partition;

    public TopicAndPartition(String topic, int partition) {
        Objects.requireNonNull(topic, "topic cannot be null");
        if (partition < 0) {
            throw new IllegalArgumentException("partition must be >= 0, got " + partition + " for topic " + topic);
        }
        this.topic = topic;
        this.partition = partition;
    }

    public static TopicAndPartition of(String topic, int partition) {
        return new TopicAndPartition(topic, partition);
    }

    @Override
    public int compareTo(TopicAndPartition other) {
        // By topic, then partition. Written out: it runs in every sorted map of an assignment, often before the JIT
        // has compiled anything, where a Comparator chain of lambdas costs several times more.
        int byTopic = topic.compareTo(other.topic);
        return byTopic != 0 ? byTopic : Integer.compare(partition, other.partition);
    }

    @Override
    public boolean equals(Object other) {
        // Written out, like hashCode: the generated ones go through method handles, slow before the JIT has run,
        // and these run for every row of every assignment.
        if (this == other) {
            return true;
        }
        if (!(other instanceof TopicAndPartition)) {
            return false;
        }
        TopicAndPartition tp = (TopicAndPartition) other;
        return partition == tp.partition && topic.equals(tp.topic);
    }

    @Override
    public int hashCode() {
        return 31 * topic.hashCode() + partition;
    }

    @Override
    public String toString() {
        return "[" + topic + "," + partition + "]";
    }

    public String topic() {
        return topic;
    }

    public int partition() {
        return partition;
    }
}
