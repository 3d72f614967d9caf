package io.zkgroups.rebalancer.consumer;

import io.zkgroups.registry.model.TopicAndPartition;
import org.apache.kafka.common.TopicPartition;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The one place the consumer converts between Kafka's {@link TopicPartition} (its API, the fetcher, the application's
 * callbacks) and the registry's {@link TopicAndPartition} (the group member, the fence, the offset stores).
 */
final class KafkaPartitions {

    /** Topic, then partition: the order callbacks and logs list partitions in. */
    static final Comparator<TopicPartition> ORDER =
            Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition);

    private KafkaPartitions() {
    }

    static TopicAndPartition toRegistry(TopicPartition tp) {
        return new TopicAndPartition(tp.topic(), tp.partition());
    }

    static List<TopicAndPartition> toRegistry(Collection<TopicPartition> partitions) {
        List<TopicAndPartition> result = new ArrayList<>(partitions.size());
        for (TopicPartition tp : partitions) {
            result.add(toRegistry(tp));
        }
        return result;
    }

    static TopicPartition toKafka(TopicAndPartition tp) {
        return new TopicPartition(tp.topic(), tp.partition());
    }

    static SortedSet<TopicPartition> toKafka(Collection<TopicAndPartition> partitions) {
        SortedSet<TopicPartition> result = new TreeSet<>(ORDER);
        for (TopicAndPartition tp : partitions) {
            result.add(toKafka(tp));
        }
        return result;
    }
}
