package io.zkgroups.rebalancer.group;

import io.zkgroups.rebalancer.assign.GroupSnapshot;
import io.zkgroups.rebalancer.assign.PartitionAssignor;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;

import java.util.Map;
import java.util.Objects;

/**
 * One member's share of the assignment, given again for an equal snapshot (an assignment is a pure function of it):
 * an attempt that reads a group no different from the last one, as most attempts of a member that did not cause the
 * change do, does not compute it again. Not thread-safe: the member's event loop only.
 */
final class AssignmentMemo {

    private final PartitionAssignor assignor;
    private final ConsumerId member;
    private GroupSnapshot lastGroup;
    private Map<TopicAndPartition, ThreadId> lastShare;

    AssignmentMemo(PartitionAssignor assignor, ConsumerId member) {
        this.assignor = Objects.requireNonNull(assignor, "assignor cannot be null");
        this.member = Objects.requireNonNull(member, "member cannot be null");
    }

    /** {@code assignor.assignTo(group, member)}, computed again only when {@code group} differs from the last one. */
    Map<TopicAndPartition, ThreadId> share(GroupSnapshot group) {
        if (!group.equals(lastGroup)) {
            lastShare = assignor.assignTo(group, member);
            lastGroup = group;
        }
        return lastShare;
    }
}
