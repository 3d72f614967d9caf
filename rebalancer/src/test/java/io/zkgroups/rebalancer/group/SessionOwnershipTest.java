package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.store.PartitionOwner;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

class SessionOwnershipTest {

    private static final ConsumerId ME = new ConsumerId("g_me");
    private static final TopicAndPartition P0 = new TopicAndPartition("t", 0);
    private static final TopicAndPartition P1 = new TopicAndPartition("t", 1);
    private static final TopicAndPartition P2 = new TopicAndPartition("t", 2);
    private static final TopicAndPartition P3 = new TopicAndPartition("t", 3);

    @Test
    void onlyOwnerZnodesOfTheSessionAndTheSameThreadAreKept() {
        SessionOwnership handedOver = new SessionOwnership(7, new TreeMap<>(Map.of(
                P0, new ThreadId(ME, 0), P1, new ThreadId(ME, 0), P2, new ThreadId(ME, 1), P3, new ThreadId(ME, 0))));
        Map<TopicAndPartition, PartitionOwner> read = Map.of(
                P0, new PartitionOwner(P0, "g_me-0", 7),      // still ours
                P1, new PartitionOwner(P1, "g_me-0", 8),      // another session's now
                P2, new PartitionOwner(P2, "g_me-0", 7));     // another thread's claim
        // P3: no owner znode any more

        assertThat(handedOver.stillHeld(read)).containsExactly(Map.entry(P0, new ThreadId(ME, 0)));
    }
}
