package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.TopicAndPartition;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongPredicate;

/**
 * What every member of a test group believes it owns, checked at every change: a partition may be believed
 * owned by two members only while one of them has a dead session (it learns so through onLost).
 */
final class OwnershipTracker {

    private final Map<TopicAndPartition, Map<ConsumerId, Long>> believers = new HashMap<>();
    private final List<String> violations = new ArrayList<>();
    private final LongPredicate sessionAlive;

    /** @param sessionAlive tells whether a ZooKeeper session is still alive on the server */
    OwnershipTracker(LongPredicate sessionAlive) {
        this.sessionAlive = sessionAlive;
    }

    /** A listener for {@code member}, whose ownership session is read from {@code session} at each call. */
    MembershipListener listenerFor(ConsumerId member, java.util.function.LongSupplier session) {
        return new MembershipListener() {
            @Override
            public void onRevoked(Set<TopicAndPartition> partitions) {
                drop(member, partitions);
            }

            @Override
            public void onLost(Set<TopicAndPartition> partitions) {
                drop(member, partitions);
            }

            @Override
            public void onAssigned(java.util.SortedMap<TopicAndPartition, OwnershipFence.Grant> grants) {
                take(member, session.getAsLong(), grants.keySet());
            }
        };
    }

    private synchronized void take(ConsumerId member, long session, Set<TopicAndPartition> partitions) {
        for (TopicAndPartition tp : partitions) {
            Map<ConsumerId, Long> holders = believers.computeIfAbsent(tp, k -> new HashMap<>());
            holders.forEach((other, otherSession) -> {
                if (!other.equals(member) && sessionAlive.test(otherSession)) {
                    violations.add(tp + " assigned to " + member + " while " + other + " (live session 0x"
                            + Long.toHexString(otherSession) + ") still owns it");
                }
            });
            holders.put(member, session);
        }
    }

    private synchronized void drop(ConsumerId member, Set<TopicAndPartition> partitions) {
        for (TopicAndPartition tp : partitions) {
            Map<ConsumerId, Long> holders = believers.get(tp);
            if (holders != null) {
                holders.remove(member);
            }
        }
    }

    synchronized List<String> violations() {
        return List.copyOf(violations);
    }

    synchronized Set<TopicAndPartition> believedBy(ConsumerId member) {
        Set<TopicAndPartition> result = new HashSet<>();
        believers.forEach((tp, holders) -> {
            if (holders.containsKey(member)) {
                result.add(tp);
            }
        });
        return result;
    }
}
