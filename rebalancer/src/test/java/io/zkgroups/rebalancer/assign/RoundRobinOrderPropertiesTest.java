package io.zkgroups.rebalancer.assign;

import io.zkgroups.registry.model.TopicAndPartition;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class RoundRobinOrderPropertiesTest {

    /**
     * A tie holds {@code blockSizes[i]} partitions of topic {@code t<i>} and starts at position {@code start} of the
     * deal. Trying every topic order by brute force must agree with the closed-form rule.
     */
    @Property(tries = 1000)
    void ownersDependOnTopicOrderExactlyWhenSomeTopicOrderMovesAnOwner(
            @ForAll @Size(min = 1, max = 4) List<@IntRange(min = 1, max = 4) Integer> blockSizes,
            @ForAll @IntRange(min = 1, max = 6) int threads,
            @ForAll @IntRange(min = 0, max = 10) int start) {
        List<TopicAndPartition> tie = new ArrayList<>();
        for (int topic = 0; topic < blockSizes.size(); topic++) {
            for (int partition = 0; partition < blockSizes.get(topic); partition++) {
                tie.add(TopicAndPartition.of("t" + topic, partition));
            }
        }

        Set<Map<TopicAndPartition, Integer>> outcomes = new HashSet<>();
        for (List<Integer> topicOrder : permutations(blockSizes.size())) {
            Map<TopicAndPartition, Integer> ownerIndex = new HashMap<>();
            int position = start;
            for (int topic : topicOrder) {
                for (int partition = 0; partition < blockSizes.get(topic); partition++) {
                    ownerIndex.put(TopicAndPartition.of("t" + topic, partition), position++ % threads);
                }
            }
            outcomes.add(ownerIndex);
        }

        assertThat(RoundRobinOrder.ownersDependOnTopicOrder(tie, threads)).isEqualTo(outcomes.size() > 1);
    }

    private static List<List<Integer>> permutations(int n) {
        List<List<Integer>> result = new ArrayList<>();
        permute(new ArrayList<>(), n, result);
        return result;
    }

    private static void permute(List<Integer> prefix, int n, List<List<Integer>> result) {
        if (prefix.size() == n) {
            result.add(List.copyOf(prefix));
            return;
        }
        for (int i = 0; i < n; i++) {
            if (!prefix.contains(i)) {
                prefix.add(i);
                permute(prefix, n, result);
                prefix.remove(prefix.size() - 1);
            }
        }
    }
}
