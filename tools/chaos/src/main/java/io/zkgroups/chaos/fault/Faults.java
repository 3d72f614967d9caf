package io.zkgroups.chaos.fault;

import io.zkgroups.chaos.cluster.ChaosCluster;
import io.zkgroups.chaos.cluster.MemberProcess;
import io.zkgroups.chaos.cluster.MemberSlot;

import java.util.List;
import java.util.Random;

/** Small helpers the faults share. */
final class Faults {

    private Faults() {
    }

    static MemberSlot slot(ChaosCluster cluster, Random random) {
        List<MemberSlot> slots = cluster.slots();
        return slots.get(random.nextInt(slots.size()));
    }

    /**
     * A slot running zkgroups members (not 0.8.2.2), for faults that need the member's own commands or its Kafka
     * proxy (0.8.2.2 consumers reach the broker straight from /brokers/ids). In a group of 0.8.2.2 consumers only it
     * draws any slot, as many numbers as a group of zkgroups members of the same size would (a seed gives the same
     * faults to both), and the caller finds it {@link MemberSlot#legacy()}.
     */
    static MemberSlot zkgroupsSlot(ChaosCluster cluster, Random random) {
        List<MemberSlot> slots = cluster.slots().stream().filter(s -> !s.legacy()).toList();
        return slots.isEmpty() ? slot(cluster, random) : slots.get(random.nextInt(slots.size()));
    }

    /** Another slot than {@code not}, drawn from {@code random}. */
    static MemberSlot otherSlot(ChaosCluster cluster, Random random, MemberSlot not) {
        List<MemberSlot> slots = cluster.slots();
        return slots.get((not.index() + 1 + random.nextInt(slots.size() - 1)) % slots.size());
    }

    /** The slot's current process, started again first if a previous fault left it dead. */
    static MemberProcess running(ChaosCluster cluster, MemberSlot slot) {
        MemberProcess m = slot.current();
        if (m == null || !m.isAlive()) {
            m = cluster.startMember(slot);
        }
        return m;
    }

    /** Holds a fault for its duration: the duration is the fault's parameter, not a synchronization. */
    static void hold(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while holding a fault", e);
        }
    }

    static long sessionMs(ChaosCluster cluster) {
        return cluster.settings().sessionTimeoutMs();
    }
}
