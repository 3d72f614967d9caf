package io.zkgroups.tool.group;

import io.zkgroups.rebalancer.assign.AssignorType;
import io.zkgroups.rebalancer.assign.Assignors;
import io.zkgroups.registry.store.Member;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which assignor to check a group against: {@code --strategy} if given; else the {@code assignor} that every
 * registered zkgroups member advertises in its registration's capability key; else {@code range}, 0.8.2.2's
 * default ({@code partition.assignment.strategy} is not visible in a 0.8.2.2 registration). If only some members
 * advertise {@code sticky}, it is still {@code sticky}: that strategy is range exactly while a member without it
 * is in the group. Pure.
 */
public record StrategyChoice(String strategy, String reason) {

    public static StrategyChoice choose(String explicit, List<Member> members) {
        if (explicit != null) {
            return new StrategyChoice(explicit, "given with --strategy");
        }
        Set<String> advertised = new TreeSet<>();
        int advertising = 0;
        for (Member m : members) {
            String a = m.registration().capabilities().get("assignor");
            if (a != null) {
                advertised.add(a);
                advertising++;
            }
        }
        if (advertised.size() == 1 && advertising == members.size() && !members.isEmpty()) {
            return new StrategyChoice(advertised.iterator().next(), "advertised by every member");
        }
        AssignorType only = advertised.size() == 1 ? Assignors.find(advertised.iterator().next()) : null;
        if (only != null && only.requiresCapabilities()) {
            return new StrategyChoice(only.name(), "advertised by the zkgroups members; it is range"
                    + " exactly while a member that does not advertise " + only.name() + " is in the group");
        }
        if (advertised.size() > 1) {
            return new StrategyChoice("range", "members advertise different assignors " + advertised
                    + "; checking range (pass --strategy)");
        }
        return new StrategyChoice("range", "0.8.2.2's default (pass --strategy roundrobin if the group uses it)");
    }
}
