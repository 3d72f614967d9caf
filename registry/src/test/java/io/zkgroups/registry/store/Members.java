package io.zkgroups.registry.store;

import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.MemberRegistration;
import io.zkgroups.registry.model.Subscription;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;

/** Registering members and building claims, for the store tests. */
final class Members {

    private Members() {
    }

    /** Registers {@code name} in {@code group} with one stream of {@code topic}; returns its consumer id. */
    static ConsumerId join(ZkRegistry registry, String group, String name, String topic) {
        ConsumerId id = ConsumerId.ofOverride(group, name);
        registry.members().register(group, id, MemberRegistration.of(Subscription.topics(Map.of(topic, 1)), 1),
                Duration.ofSeconds(5));
        return id;
    }

    /** {@code partitions} of {@code topic}, each for {@code id}'s consumer thread 0. */
    static Map<TopicAndPartition, ThreadId> claims(ConsumerId id, String topic, int... partitions) {
        Map<TopicAndPartition, ThreadId> claims = new TreeMap<>();
        for (int p : partitions) {
            claims.put(TopicAndPartition.of(topic, p), id.thread(0));
        }
        return claims;
    }

    /** Partitions 0 to {@code count} − 1 of {@code topic}, each for {@code id}'s consumer thread 0. */
    static Map<TopicAndPartition, ThreadId> firstPartitions(ConsumerId id, String topic, int count) {
        return claims(id, topic, IntStream.range(0, count).toArray());
    }
}
