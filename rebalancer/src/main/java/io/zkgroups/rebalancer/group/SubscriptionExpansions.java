package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.store.Member;

import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Every admitted member's subscription expanded against the topics, kept from one view to the next by the member
 * object it was expanded from: a member list hands out the same {@link Member} for as long as its registration is
 * unchanged, so a change of a large group expands only what it changed, not every subscription again. Equal
 * expansions are one object, so what walks the members of a snapshot (checks, thread lists, topics) handles each
 * distinct subscription once, however many members share it. Not thread-safe: the member's event loop only.
 */
final class SubscriptionExpansions {

    private final boolean excludeInternal;
    private Map<Member, Map<String, Integer>> last = new IdentityHashMap<>();
    private List<String> lastTopics;
    /** Each distinct expansion against {@link #lastTopics}, itself. */
    private Map<Map<String, Integer>, Map<String, Integer>> distinct = new HashMap<>();
    private int expanded;

    SubscriptionExpansions(boolean excludeInternal) {
        this.excludeInternal = excludeInternal;
    }

    /** Member → expanded subscription (see {@link GroupView#expand}), in {@code admitted}'s order, ids not compared. */
    SortedMap<ConsumerId, Map<String, Integer>> expand(SortedMap<ConsumerId, Member> admitted, List<String> topics) {
        boolean sameTopics = topics.equals(lastTopics);
        if (!sameTopics || distinct.size() > 2 * admitted.size()) { // expansions of other topics, or of many gone
            distinct = new HashMap<>();
        }
        Map<Member, Map<String, Integer>> now = new IdentityHashMap<>(admitted.size());
        for (Member member : admitted.values()) {
            Map<String, Integer> streams = sameTopics ? last.get(member) : null;
            if (streams == null) {
                Map<String, Integer> expansion = GroupView.expand(member, topics, excludeInternal);
                streams = distinct.computeIfAbsent(expansion, e -> e);
                expanded++;
            }
            now.put(member, streams);
        }
        last = now;
        lastTopics = topics;
        TreeMap<ConsumerId, Object> expansions = new TreeMap<>(admitted); // a sorted map's copy compares no id
        expansions.replaceAll((id, member) -> now.get(member));
        @SuppressWarnings("unchecked") // every value is an expansion now
        SortedMap<ConsumerId, Map<String, Integer>> byId =
                (SortedMap<ConsumerId, Map<String, Integer>>) (SortedMap<?, ?>) expansions;
        return Collections.unmodifiableSortedMap(byId);
    }

    /** How many subscriptions it has expanded so far (the others were kept): for tests. */
    int expanded() {
        return expanded;
    }
}
