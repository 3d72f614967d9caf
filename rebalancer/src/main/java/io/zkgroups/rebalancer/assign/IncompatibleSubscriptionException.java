package io.zkgroups.rebalancer.assign;

import io.zkgroups.registry.Immutable;

import java.util.List;

/**
 * The members' subscriptions break round robin's rule: every member must subscribe to the same topics, with the
 * same stream count on each of them (docs/compatibility.md#roundrobin, vectors V6 and V7). 0.8.2.2 members in
 * such a group fail every rebalance attempt and finally throw {@code ConsumerRebalanceFailedException}.
 */
public final class IncompatibleSubscriptionException extends AssignmentRefusedException {

    /** The exact requirement message of 0.8.2.2's {@code RoundRobinAssignor}. */
    public static final String LEGACY_MESSAGE = "Round-robin assignment is allowed only if all consumers in the group"
            + " subscribe to the same topics, AND if the stream counts across topics are identical for a given"
            + " consumer instance.";

    private static final int LISTED_PROBLEMS = 10;

    private final List<String> problems;

    IncompatibleSubscriptionException(List<String> problems) {
        super(message(problems));
        this.problems = Immutable.list(problems);
    }

    /** One line per member that breaks the rule, e.g. {@code member g_c2 does not subscribe to [B] ...}. */
    public List<String> problems() {
        return problems;
    }

    private static String message(List<String> problems) {
        StringBuilder message = new StringBuilder("round-robin assignment is impossible for this group: ");
        message.append(String.join("; ", problems.subList(0, Math.min(LISTED_PROBLEMS, problems.size()))));
        if (problems.size() > LISTED_PROBLEMS) {
            message.append("; and ").append(problems.size() - LISTED_PROBLEMS).append(" more");
        }
        return message.append(". 0.8.2.2 members in this group would fail every rebalance with \"")
                .append(LEGACY_MESSAGE)
                .append("\" Give every member the same topics with one stream count for all of them,"
                        + " or use partition.assignment.strategy=range.")
                .toString();
    }
}
