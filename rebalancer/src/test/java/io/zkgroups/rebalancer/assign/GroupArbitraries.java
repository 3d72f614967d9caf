package io.zkgroups.rebalancer.assign;

import io.zkgroups.registry.model.ConsumerId;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** Random groups for the property tests: 1–25 members, 1–5 topics, 0–40 partitions, 1–4 streams. */
final class GroupArbitraries {

    /**
     * Topic names whose {@code "[T,P]"} texts collide: names of equal length built from "Aa" and "BB" (same
     * {@code String.hashCode}) collide for every partition; {@code nuhibt} collides with itself (0 and 13).
     */
    static final List<String> COLLIDING_TOPICS = List.of("Aa", "BB", "AaAa", "AaBB", "BBAa", "BBBB", "nuhibt");

    private GroupArbitraries() {
    }

    /** Members with arbitrary subscriptions: any subset of the topics, any stream count per topic. */
    static Arbitrary<GroupSnapshot> anyGroup() {
        return topics(randomTopicName()).flatMap(topics -> Combinators.combine(
                Arbitraries.maps(consumerId(), subscriptionTo(topics)).ofMinSize(1).ofMaxSize(25),
                partitionCounts(topics)).as(GroupSnapshot::new));
    }

    /** Members that all subscribe to the same topics, each with one stream count for all of them. */
    static Arbitrary<GroupSnapshot> uniformGroup() {
        return uniformGroup(topics(randomTopicName()), 25, 4);
    }

    /**
     * Like {@link #uniformGroup()}, but most topic names come from {@link #COLLIDING_TOPICS}, and many groups are
     * tiny or have a single thread, so that harmless cross-topic collisions are common too.
     */
    static Arbitrary<GroupSnapshot> uniformGroupWithCollidingTopics() {
        Arbitrary<String> topicName = Arbitraries.frequencyOf(
                Tuple.of(1, randomTopicName()), Tuple.of(3, Arbitraries.of(COLLIDING_TOPICS)));
        Arbitrary<List<String>> topics = topicName.list().uniqueElements().ofMinSize(2).ofMaxSize(5);
        return Arbitraries.oneOf(uniformGroup(topics, 25, 4), uniformGroup(topics, 2, 2), uniformGroup(topics, 1, 1));
    }

    /** The same snapshot content, built from maps filled in a shuffled order. */
    static GroupSnapshot rebuiltInShuffledOrder(GroupSnapshot group, Random random) {
        Map<ConsumerId, Map<String, Integer>> subscriptions = new LinkedHashMap<>();
        for (Map.Entry<ConsumerId, Map<String, Integer>> member : shuffled(group.subscriptions(), random)) {
            Map<String, Integer> subscription = new LinkedHashMap<>();
            shuffled(member.getValue(), random).forEach(row -> subscription.put(row.getKey(), row.getValue()));
            subscriptions.put(member.getKey(), subscription);
        }
        Map<String, Integer> partitionCounts = new LinkedHashMap<>();
        shuffled(group.partitionCounts(), random).forEach(row -> partitionCounts.put(row.getKey(), row.getValue()));
        return new GroupSnapshot(subscriptions, partitionCounts);
    }

    private static Arbitrary<GroupSnapshot> uniformGroup(Arbitrary<List<String>> topicLists, int maxMembers,
                                                         int maxStreams) {
        return topicLists.flatMap(topics -> Combinators.combine(
                Arbitraries.maps(consumerId(), Arbitraries.integers().between(1, maxStreams))
                        .ofMinSize(1).ofMaxSize(maxMembers)
                        .map(streams -> everyMemberOnEveryTopic(streams, topics)),
                partitionCounts(topics)).as(GroupSnapshot::new));
    }

    /** Ids like {@code g_c10} and {@code g_c9-}: digits and dashes make String order differ from numeric order. */
    private static Arbitrary<ConsumerId> consumerId() {
        return Arbitraries.strings().withChars("c019-_").ofMinLength(1).ofMaxLength(4)
                .map(suffix -> new ConsumerId("g_" + suffix));
    }

    private static Arbitrary<String> randomTopicName() {
        return Arbitraries.strings().withChars("abxyz0189._-").ofMinLength(1).ofMaxLength(8);
    }

    private static Arbitrary<List<String>> topics(Arbitrary<String> topicName) {
        return topicName.list().uniqueElements().ofMinSize(1).ofMaxSize(5);
    }

    /** 0 streams means "not subscribed", so some members subscribe to some topics, or to none. */
    private static Arbitrary<Map<String, Integer>> subscriptionTo(List<String> topics) {
        return Arbitraries.integers().between(0, 4).list().ofSize(topics.size()).map(streams -> {
            Map<String, Integer> subscription = new LinkedHashMap<>();
            for (int i = 0; i < topics.size(); i++) {
                if (streams.get(i) > 0) {
                    subscription.put(topics.get(i), streams.get(i));
                }
            }
            return subscription;
        });
    }

    /** −1 partitions means the topic does not exist (vector V10, docs/compatibility.md#assignment-vectors). */
    private static Arbitrary<Map<String, Integer>> partitionCounts(List<String> topics) {
        return Arbitraries.integers().between(-1, 40).list().ofSize(topics.size()).map(counts -> {
            Map<String, Integer> partitionCounts = new LinkedHashMap<>();
            for (int i = 0; i < topics.size(); i++) {
                if (counts.get(i) >= 0) {
                    partitionCounts.put(topics.get(i), counts.get(i));
                }
            }
            return partitionCounts;
        });
    }

    private static Map<ConsumerId, Map<String, Integer>> everyMemberOnEveryTopic(Map<ConsumerId, Integer> streams,
                                                                                List<String> topics) {
        Map<ConsumerId, Map<String, Integer>> subscriptions = new LinkedHashMap<>();
        streams.forEach((member, count) -> {
            Map<String, Integer> subscription = new LinkedHashMap<>();
            topics.forEach(topic -> subscription.put(topic, count));
            subscriptions.put(member, subscription);
        });
        return subscriptions;
    }

    private static <K, V> List<Map.Entry<K, V>> shuffled(Map<K, V> map, Random random) {
        List<Map.Entry<K, V>> entries = new ArrayList<>(map.entrySet());
        Collections.shuffle(entries, random);
        return entries;
    }
}
