package io.zkgroups.rebalancer.consumer;

import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.store.Unreadable;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Owned partitions whose committed offset cannot be read (an unreadable znode, an unreachable store): not fetched, not
 * committed, looked at again with backoff (1 s doubling to 30 s). Logged once when a partition starts being held or
 * the reason changes, not at every retry. Poll thread only.
 */
final class HeldPartitions {

    private static final Logger LOG = LoggerFactory.getLogger(HeldPartitions.class);
    private static final Duration FIRST_RETRY = Duration.ofSeconds(1);
    private static final Duration MAX_RETRY = Duration.ofSeconds(30);

    /** Why a partition is held, its grant's epoch, and when to look again. */
    private record Held(long epoch, String reason, long retryAtNanos, Duration delay) {
    }

    private final String memberName;
    private final String group;
    private final Map<TopicPartition, Held> held = new TreeMap<>(RebalanceBridge.ORDER);

    HeldPartitions(String memberName, String group) {
        this.memberName = memberName;
        this.group = group;
    }

    /** Starts holding {@code tp} (granted under {@code epoch}) because of {@code reason}. */
    void hold(TopicPartition tp, long epoch, String reason) {
        put(tp, new Held(epoch, reason, System.nanoTime() + FIRST_RETRY.toNanos(), FIRST_RETRY), null);
    }

    /** {@code tp} is still unreadable at its retry: look again later (twice as late, at most 30 s). */
    void stillUnreadable(TopicPartition tp, String reason) {
        Held before = held.get(tp);
        Duration delay = before.delay().multipliedBy(2).compareTo(MAX_RETRY) > 0 ? MAX_RETRY : before.delay().multipliedBy(2);
        put(tp, new Held(before.epoch(), reason, System.nanoTime() + delay.toNanos(), delay), before);
    }

    /** {@code tp} can be read again: no longer held; returns its grant's epoch. */
    long readable(TopicPartition tp) {
        LOG.info("[{}] the committed offset of {} is readable again: fetching it", memberName, tp);
        return held.remove(tp).epoch();
    }

    /** Partitions whose retry is due, with their epochs. */
    Map<TopicPartition, Long> due() {
        long now = System.nanoTime();
        Map<TopicPartition, Long> due = new TreeMap<>(RebalanceBridge.ORDER);
        held.forEach((tp, h) -> {
            if (now - h.retryAtNanos() >= 0) {
                due.put(tp, h.epoch());
            }
        });
        return due;
    }

    /** Stops holding {@code partitions} (they left this member); returns whether any was held. */
    boolean forget(Collection<TopicPartition> partitions) {
        return held.keySet().removeAll(partitions);
    }

    /** The epoch of a held partition's grant, or null. */
    Long epochOf(TopicPartition tp) {
        Held h = held.get(tp);
        return h == null ? null : h.epoch();
    }

    Set<TopicPartition> partitions() {
        return held.keySet();
    }

    boolean isEmpty() {
        return held.isEmpty();
    }

    /** The alarms for the member's health: each held partition's offset znode and why. */
    List<Unreadable> alarms() {
        List<Unreadable> alarms = new ArrayList<>();
        held.forEach((tp, h) -> alarms.add(new Unreadable(ZkLayout.root().offset(group, GroupCoordinator.zk(tp)), h.reason())));
        return alarms;
    }

    private void put(TopicPartition tp, Held now, Held before) {
        held.put(tp, now);
        if (before == null || !before.reason().equals(now.reason())) {
            LOG.warn("[{}] holding {} (owned, not fetched, not committed) until its committed offset can be read: {}. "
                    + "Fix or delete that znode (then auto.offset.reset applies), e.g. with `zkgroups offsets reset`.",
                    memberName, tp, now.reason());
        }
    }
}
