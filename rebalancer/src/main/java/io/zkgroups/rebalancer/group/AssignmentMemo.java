package io.zkgroups.rebalancer.group;

import io.zkgroups.rebalancer.assign.Assignment;
import io.zkgroups.rebalancer.assign.GroupSnapshot;
import io.zkgroups.rebalancer.assign.PartitionAssignor;

import java.util.Objects;

/**
 * The assignor's last answer, given again for an equal snapshot (an assignment is a pure function of it): an attempt
 * that reads a group no different from the last one, as most attempts of a member that did not cause the change do,
 * does not compute the assignment again. Not thread-safe: the member's event loop only.
 */
final class AssignmentMemo {

    private final PartitionAssignor assignor;
    private GroupSnapshot lastGroup;
    private Assignment lastAssignment;

    AssignmentMemo(PartitionAssignor assignor) {
        this.assignor = Objects.requireNonNull(assignor, "assignor cannot be null");
    }

    /** {@code assignor.assign(group)}, computed again only when {@code group} differs from the last one. */
    Assignment assign(GroupSnapshot group) {
        if (!group.equals(lastGroup)) {
            lastAssignment = assignor.assign(group);
            lastGroup = group;
        }
        return lastAssignment;
    }
}
