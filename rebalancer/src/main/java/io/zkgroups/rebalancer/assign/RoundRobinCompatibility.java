package io.zkgroups.rebalancer.assign;

import io.zkgroups.registry.model.ConsumerId;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Round robin's precondition, phrased per member.
 * <p>
 * 0.8.2.2 requires the set of thread ids of every subscribed topic to be equal. A member with {@code s} streams
 * on a topic contributes threads {@code 0..s-1} to it and nothing to topics it does not subscribe to, so the sets
 * are equal exactly when every member that subscribes to anything subscribes to every topic of the group with
 * one stream count. A member that subscribes to nothing (a wildcard matching no topic) has no threads anywhere:
 * 0.8.2.2 does not see it in this check, and neither do we.
 */
final class RoundRobinCompatibility {

    private RoundRobinCompatibility() {
    }

    /** One description per member breaking the rule, in member order; empty if round robin can assign. */
    static List<String> problems(GroupSnapshot group) {
        SortedSet<String> groupTopics = group.subscribedTopics();
        List<String> problems = new ArrayList<>();
        group.subscriptions().forEach((member, subscription) -> {
            if (subscription.isEmpty()) {
                return;
            }
            SortedSet<String> missing = new TreeSet<>(groupTopics);
            missing.removeAll(subscription.keySet());
            if (!missing.isEmpty()) {
                problems.add(describe(member, subscription) + " does not subscribe to " + missing
                        + ", which other members subscribe to");
            }
            if (new HashSet<>(subscription.values()).size() > 1) {
                problems.add(describe(member, subscription) + " has different stream counts across its topics");
            }
        });
        return problems;
    }

    /** @throws IncompatibleSubscriptionException naming every member that breaks the rule */
    static void require(GroupSnapshot group) {
        List<String> problems = problems(group);
        if (!problems.isEmpty()) {
            throw new IncompatibleSubscriptionException(problems);
        }
    }

    private static String describe(ConsumerId member, Map<String, Integer> subscription) {
        return "member " + member + " " + subscription;
    }
}
