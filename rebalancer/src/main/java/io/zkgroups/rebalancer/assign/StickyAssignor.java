package io.zkgroups.rebalancer.assign;

import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;

import java.util.Map;
import java.util.Objects;

/**
 * The {@code sticky} strategy: {@link RendezvousAssignor} while every member of the group advertises
 * {@link StickyCapability}, otherwise exactly 0.8.2.2's {@link RangeAssignor} — a real 0.8.2.2 consumer (or a
 * zkgroups member that does not advertise) computes range, so everybody else must compute it too.
 * <p>
 * The choice is a function of the member list alone (capabilities are part of each registration), so members
 * that read the same list make the same choice, just as they compute the same assignment.
 */
public final class StickyAssignor implements PartitionAssignor {

    private final PartitionAssignor sticky = new RendezvousAssignor();
    private final PartitionAssignor fallback = new RangeAssignor();

    @Override
    public String name() {
        return STICKY;
    }

    @Override
    public Assignment assign(GroupSnapshot group) {
        return inEffect(group).assign(group);
    }

    @Override
    public Map<TopicAndPartition, ThreadId> assignTo(GroupSnapshot group, ConsumerId member) {
        return inEffect(group).assignTo(group, member);
    }

    /** The assignor this group is assigned by now: rendezvous if every member advertises it, else range. */
    public PartitionAssignor inEffect(GroupSnapshot group) {
        Objects.requireNonNull(group, "group snapshot cannot be null");
        return group.everyMemberSticky() ? sticky : fallback;
    }
}
