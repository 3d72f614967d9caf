package io.zkgroups.tool.health;

import io.zkgroups.rebalancer.assign.PartitionAssignor;
import io.zkgroups.rebalancer.assign.StickyCapability;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.store.Unreadable;
import io.zkgroups.tool.group.GroupState;
import io.zkgroups.tool.group.GroupView;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** Bridges a {@link GroupView} to {@link HealthCheck}, and derives the group's {@link GroupState}. Pure. */
public final class GroupAssessment {

    private GroupAssessment() {
    }

    public static HealthInput input(GroupView view, PartitionAssignor assignor, Integer expectMembers,
                                    HealthInput.StoreCheck stores) {
        Set<String> subscribed = view.subscribedTopics();
        Map<String, Integer> counts = view.subscribedPartitionCounts();
        Set<TopicAndPartition> owned = new TreeSet<>();
        view.owners().entries().forEach(o -> owned.add(o.partition()));
        List<Unreadable> offsets = new ArrayList<>();
        view.zk().undecodable().forEach((tp, unreadable) -> {
            boolean mustBeOwned = tp.partition() < counts.getOrDefault(tp.topic(), 0);
            if (owned.contains(tp) || mustBeOwned) {
                offsets.add(unreadable);
            }
        });
        List<Unreadable> topics = new ArrayList<>();
        view.unreadableTopics().forEach((topic, unreadable) -> {
            if (subscribed.contains(topic)) {
                topics.add(unreadable);
            }
        });
        Set<ConsumerId> sticky = new TreeSet<>();
        view.members().entries().stream().filter(m -> StickyCapability.advertisedBy(m.registration().capabilities()))
                .forEach(m -> sticky.add(m.id()));
        return new HealthInput(view.group(), view.subscriptions(), view.members().unreadable(), counts,
                view.owners().entries(), view.owners().unreadable(), offsets, topics, assignor, expectMembers, stores,
                sticky);
    }

    /** The store check of a view: its phase, its offsets, and {@code tolerance}. */
    public static HealthInput.StoreCheck stores(GroupView view, long tolerance) {
        return new HealthInput.StoreCheck(view.phase().phase(), view.zk().offsets(), view.kafka(), tolerance);
    }

    /**
     * {@code dead} without members, owners and offsets; {@code empty} without members; {@code stable} when the
     * owners are complete and match the assignor (for a sticky group: are valid and balanced); {@code rebalancing}
     * otherwise.
     */
    public static GroupState state(GroupView view, PartitionAssignor assignor) {
        if (!view.hasMembers()) {
            boolean noOffsets = view.zk().offsets().isEmpty() && (view.kafka() == null || view.kafka().isEmpty());
            return noOffsets && view.owners().entries().isEmpty() ? GroupState.DEAD : GroupState.EMPTY;
        }
        return HealthCheck.evaluate(input(view, assignor, null, null)).healthy() ? GroupState.STABLE : GroupState.REBALANCING;
    }
}
