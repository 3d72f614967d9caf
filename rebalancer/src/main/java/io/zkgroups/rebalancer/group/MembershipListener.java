package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.model.TopicAndPartition;

import java.util.Set;
import java.util.SortedMap;

/**
 * What a {@link ZkGroupMember} tells its owner about partition ownership. Calls come one at a time from the
 * member's event loop and must return only when done: the member releases a revoked partition only after
 * {@link #onRevoked} has returned, which is what lets the next owner start exactly at the committed offset.
 */
public interface MembershipListener {

    /**
     * {@code partitions} are about to be released: stop handing out their records and commit their offsets
     * before returning. The member still owns them during this call.
     */
    void onRevoked(Set<TopicAndPartition> partitions);

    /**
     * {@code partitions} may already belong to someone else (the session was lost or the lease ran out):
     * stop handing out their records and do <em>not</em> commit them — a late commit would rewind the new
     * owner's offsets.
     */
    void onLost(Set<TopicAndPartition> partitions);

    /**
     * The partitions of {@code grants} are now owned by this member (owner znodes created) under the fence's grants
     * given: read their offsets here, and hand records out under each grant's epoch.
     */
    void onAssigned(SortedMap<TopicAndPartition, OwnershipFence.Grant> grants);

    /** A listener that does nothing, for members that only hold ownership. */
    MembershipListener NONE = new MembershipListener() {
        @Override
        public void onRevoked(Set<TopicAndPartition> partitions) {
        }

        @Override
        public void onLost(Set<TopicAndPartition> partitions) {
        }

        @Override
        public void onAssigned(SortedMap<TopicAndPartition, OwnershipFence.Grant> grants) {
        }
    };
}
