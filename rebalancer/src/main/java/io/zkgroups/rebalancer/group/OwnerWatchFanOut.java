package io.zkgroups.rebalancer.group;

import io.zkgroups.rebalancer.assign.GroupSnapshot;

/**
 * Whether a member watches the owner directories of its group's topics as a whole (one persistent recursive watch per
 * topic: no read of what it claims, no claim sent that must fail) or only the owner znodes it claims and waits for
 * (one-shot watches, read with its claims). A directory watch hears every owner znode change below it: when a
 * rebalance moves most of P partitions, each of the N members hears about 2 × P events, N × P in all, which the
 * server sends one by one and every member decodes; one-shot watches send about P in all. The directory watches pay
 * only while that fan-out is small.
 */
final class OwnerWatchFanOut {

    /**
     * Members × partitions of the group's topics up to which directories are watched: 10 members × 100 partitions and
     * 20 × 1,000 are; 100 × 1,000 is not: a rebalance there sends about 2 × 1,000 events to each of 100 members.
     */
    static final long MAX_MEMBERS_TIMES_PARTITIONS = 20_000;

    private OwnerWatchFanOut() {
    }

    /** Whether the members of {@code snapshot} may each watch the owner directories of all its topics. */
    static boolean affordable(GroupSnapshot snapshot) {
        long partitions = 0;
        for (String topic : snapshot.subscribedTopics()) {
            partitions += snapshot.partitionCount(topic);
        }
        return snapshot.members().size() * partitions <= MAX_MEMBERS_TIMES_PARTITIONS;
    }
}
