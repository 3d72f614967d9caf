package io.zkgroups.rebalancer.cutover;

import io.zkgroups.rebalancer.group.OwnershipFence;
import io.zkgroups.registry.RegistryException;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The ZooKeeper half of {@link KafkaGroupMode}'s fence: the partitions Kafka assigned that wait for their owner znode,
 * the ones held (and the ZooKeeper session that holds them), their hand-out epochs, and the 0.8 layout's znodes they
 * need (owner znodes, ZooKeeper offsets). What it tells the consumer and the application is {@link KafkaGroupMode}'s.
 * Polling thread, except {@link #handOut}, and {@link #releaseOwners} and {@link #fenced} for the poll watchdog.
 */
final class OwnerZnodeFence {

    private final ZkRegistry registry;
    private final String group;
    private final ThreadId thread;
    private final Logger log;
    private final HandOutEpochs epochs = new HandOutEpochs();
    /** Assigned by Kafka, owner znode not held yet: paused. */
    private final Set<TopicPartition> waiting = new LinkedHashSet<>();
    /** Owner znode held, fetched, shown to the application. */
    private final Set<TopicPartition> fenced = new LinkedHashSet<>();
    /** The ZooKeeper session the owner znodes of {@link #fenced} were created in. */
    private long fenceSession;
    /** The session {@link #tryHold} held its partitions in, for {@link #admit}. */
    private long heldSession;

    OwnerZnodeFence(ZkRegistry registry, String group, ThreadId thread, Logger log) {
        this.registry = registry;
        this.group = group;
        this.thread = thread;
        this.log = log;
    }

    /** The partitions held, fetched and shown to the application (the live set, for the watchdog). */
    Set<TopicPartition> fenced() {
        return fenced;
    }

    /** Newly assigned partitions, to fetch once their owner znodes are held. */
    void await(Collection<TopicPartition> assigned) {
        waiting.addAll(assigned);
    }

    /**
     * The waiting partitions whose owner znodes are now this member's. They stay waiting until {@link #admit}: the
     * caller positions them first, and a failure meanwhile leaves them to be tried again. Empty while the client is
     * (re)connecting or the held ones are of a session that ended ({@link #endedSession} moves those first, so every
     * fence is of one session).
     */
    List<TopicPartition> tryHold() {
        if (waiting.isEmpty()) {
            return Collections.emptyList();
        }
        OptionalLong session = session();
        if (!session.isPresent() || (!fenced.isEmpty() && session.getAsLong() != fenceSession)) {
            return Collections.emptyList();
        }
        List<TopicPartition> held = new ArrayList<>();
        for (TopicPartition tp : waiting) {
            try {
                if (registry.coordination().hold(group, toRegistry(tp), thread)) {
                    held.add(tp);
                }
            } catch (RegistryException e) {
                log.warn("could not take the owner znode of {} (tried again on the next poll): {}", tp, e.getMessage());
            }
        }
        heldSession = session.getAsLong();
        return held;
    }

    /** {@code held} (from {@link #tryHold}) are fenced: fetched, under a new hand-out epoch. */
    void admit(List<TopicPartition> held) {
        waiting.removeAll(held);
        fenced.addAll(held);
        epochs.grant(held);
        fenceSession = heldSession;
    }

    /**
     * The fenced partitions, if the session that holds their owner znodes has ended (the handle reports another one):
     * they are gone, and must be {@link #lose lost}. Empty while the client is reconnecting: the session may still
     * live, and fetching goes on.
     */
    List<TopicPartition> endedSession() {
        if (fenced.isEmpty()) {
            return Collections.emptyList();
        }
        OptionalLong session = session();
        if (!session.isPresent() || session.getAsLong() == fenceSession) {
            return Collections.emptyList();
        }
        log.warn("the ZooKeeper session 0x{} that held the owner znodes of {} has ended: they are lost, and fetched "
                + "again once their owner znodes are ours in session 0x{}", Long.toHexString(fenceSession), fenced,
                Long.toHexString(session.getAsLong()));
        return new ArrayList<>(fenced);
    }

    /** Fenced partitions whose owner znodes are gone: withdrawn, waiting for their fence again. */
    void lose(List<TopicPartition> lost) {
        fenced.removeAll(lost);
        epochs.withdraw(lost);
        waiting.addAll(lost);
    }

    /**
     * Kafka took {@code partitions} back: they stop waiting, and the fenced ones among them are returned, withdrawn
     * (nothing more of them goes out); the caller {@link #release}s them once it has committed.
     */
    List<TopicPartition> giveUp(Collection<TopicPartition> partitions) {
        waiting.removeAll(partitions);
        List<TopicPartition> mine = new ArrayList<>(partitions);
        mine.retainAll(fenced);
        if (!mine.isEmpty()) {
            epochs.withdraw(mine);
        }
        return mine;
    }

    /** Unfences {@code partitions} and deletes their owner znodes. */
    void release(Collection<TopicPartition> partitions) {
        fenced.removeAll(partitions);
        releaseOwners(partitions);
    }

    /** Unfences everything and deletes the owner znodes held; nothing waits any more. */
    void releaseAll() {
        releaseOwners(new ArrayList<>(fenced));
        fenced.clear();
        epochs.withdrawAll();
        waiting.clear();
    }

    /** Nothing waits any more (leaving the group). */
    void stopWaiting() {
        waiting.clear();
    }

    /** Deletes the owner znodes of {@code partitions}; a failure is logged (they go with the ZooKeeper session). */
    void releaseOwners(Collection<TopicPartition> partitions) {
        if (partitions.isEmpty()) {
            return;
        }
        List<TopicAndPartition> zk = new ArrayList<>();
        partitions.forEach(tp -> zk.add(toRegistry(tp)));
        try {
            registry.owners().release(group, zk);
        } catch (RegistryException e) {
            log.warn("could not delete the owner znodes of {} (they go with the ZooKeeper session): {}", partitions,
                    e.getMessage());
        }
    }

    /** The epoch {@code tp} is fetched under now, 0 if it is not fenced. */
    long epochOf(TopicPartition tp) {
        return epochs.epochOf(tp);
    }

    /** Whether a record of {@code tp} fetched under {@code epoch} may be handed out now. Any thread. */
    OwnershipFence.HandOut handOut(TopicPartition tp, long epoch) {
        return epochs.check(tp, epoch);
    }

    /** The ZooKeeper offsets of {@code partitions} (where a ZooKeeper-coordinated owner hands over); absent: none. */
    Map<TopicPartition, Long> zooKeeperOffsets(List<TopicPartition> partitions) {
        List<TopicAndPartition> zk = new ArrayList<>();
        partitions.forEach(tp -> zk.add(toRegistry(tp)));
        Map<TopicAndPartition, Long> read = registry.offsets().read(group, zk).offsets();
        Map<TopicPartition, Long> offsets = new HashMap<>();
        for (TopicPartition tp : partitions) {
            Long offset = read.get(toRegistry(tp));
            if (offset != null && offset >= 0) {
                offsets.put(tp, offset);
            }
        }
        return offsets;
    }

    /** Writes {@code offsets} (committed to Kafka) to the ZooKeeper offset znodes too; a failure is logged. */
    void mirror(Map<TopicPartition, OffsetAndMetadata> offsets) {
        Map<TopicAndPartition, Long> zk = new HashMap<>();
        offsets.forEach((tp, om) -> zk.put(toRegistry(tp), om.offset()));
        try {
            registry.offsets().commit(group, zk);
        } catch (RegistryException e) {
            log.warn("could not write the offsets of {} to ZooKeeper too (Kafka has them): {}", offsets.keySet(),
                    e.getMessage());
        }
    }

    /** The ZooKeeper session of the registry's client; empty while it is (re)connecting. */
    private OptionalLong session() {
        try {
            return OptionalLong.of(registry.znodes().sessionId());
        } catch (RegistryException reconnecting) {
            return OptionalLong.empty();
        }
    }

    private static TopicAndPartition toRegistry(TopicPartition tp) {
        return new TopicAndPartition(tp.topic(), tp.partition());
    }
}
