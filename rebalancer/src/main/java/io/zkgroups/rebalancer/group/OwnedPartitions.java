package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.store.OwnerRegistry;
import io.zkgroups.registry.store.PartitionOwner;
import org.apache.zookeeper.Watcher;

import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The ledger of a {@link ZkGroupMember}'s partitions: what it owns, and what it handed over but whose owner znodes may
 * still exist. Every release and claim of owner znodes goes through it, so the two never disagree with ZooKeeper for
 * longer than one attempt. Confined to the member's event loop, except {@link #snapshot()}, which any thread may call:
 * the loop publishes an immutable copy of what it owns after every change.
 */
final class OwnedPartitions {

    private final OwnerRegistry owners;
    private final String group;
    private final SortedMap<TopicAndPartition, ThreadId> owned = new TreeMap<>();
    /** An unmodifiable copy of {@code owned}'s keys, published by the event loop after every change of {@code owned}. */
    private volatile SortedSet<TopicAndPartition> published = Collections.emptySortedSet();
    /** Handed over (the listener was told) but their owner znodes may still exist: released before anything else. */
    private final Set<TopicAndPartition> unreleased = new TreeSet<>();
    /** Set on registering in a session: look once for owner znodes of that session the member does not track. */
    private boolean untrackedScanDue;

    OwnedPartitions(OwnerRegistry owners, String group) {
        this.owners = owners;
        this.group = group;
    }

    /** Partition → the thread it is owned for (a read-only view). */
    SortedMap<TopicAndPartition, ThreadId> owned() {
        return Collections.unmodifiableSortedMap(owned);
    }

    boolean isEmpty() {
        return owned.isEmpty();
    }

    boolean owns(TopicAndPartition tp) {
        return owned.containsKey(tp);
    }

    /** What is owned now, as a copy the listener may keep. */
    Set<TopicAndPartition> ownedCopy() {
        return Collections.unmodifiableSet(new TreeSet<>(owned.keySet()));
    }

    /** The keys of what is owned, unmodifiable, as of the event loop's last change (any thread). */
    SortedSet<TopicAndPartition> snapshot() {
        return published;
    }

    /** After every change of {@code owned}, on the event loop. */
    private void publish() {
        published = Collections.unmodifiableSortedSet(new TreeSet<>(owned.keySet()));
    }

    /** {@code claims} are owned now. */
    void add(Map<TopicAndPartition, ThreadId> claims) {
        owned.putAll(claims);
        publish();
    }

    /** Owned partitions that {@code target} gives to another thread or to no one of ours. */
    Set<TopicAndPartition> movedAway(Map<TopicAndPartition, ThreadId> target) {
        Set<TopicAndPartition> moving = new TreeSet<>();
        owned.forEach((tp, thread) -> {
            if (!thread.equals(target.get(tp))) {
                moving.add(tp);
            }
        });
        return moving;
    }

    /** No longer owned, and their owner znodes go with the next release. */
    void forget(Set<TopicAndPartition> partitions) {
        owned.keySet().removeAll(partitions);
        publish();
        unreleased.addAll(partitions);
    }

    /** Nothing is owned any more (what was is in {@link #toRelease} already, if it is to be released). */
    void clear() {
        owned.clear();
        publish();
    }

    /** The owner znodes of {@code partitions} go with the next release, if they are this session's. */
    void toRelease(Collection<TopicAndPartition> partitions) {
        unreleased.addAll(partitions);
    }

    /** The owner znodes of {@code partitions} are left to the session's end. */
    void keepUntilSessionEnds(Collection<TopicAndPartition> partitions) {
        unreleased.removeAll(partitions);
    }

    /** What the next release deletes (a read-only view, for logs). */
    Set<TopicAndPartition> unreleased() {
        return Collections.unmodifiableSet(unreleased);
    }

    /**
     * A claim failed without an answer (a timeout, a lost connection): it may still have been applied. Its owner znodes
     * would then be this session's without the member knowing; they go to the next attempt's release, which deletes
     * those that are this session's (and claims them again if they are still ours to take).
     */
    void claimMayHaveLanded(Map<TopicAndPartition, ThreadId> toClaim) {
        toClaim.keySet().stream().filter(tp -> !owned.containsKey(tp)).forEach(unreleased::add);
    }

    /** Registered in a new session: the next {@link #releaseUntracked()} looks for owner znodes it does not know of. */
    void scanForUntracked() {
        untrackedScanDue = true;
    }

    /**
     * Owner znodes of this session that the member does not know of — a member before this one on the same client, a
     * claim applied after its attempt gave up — would hold their partitions for as long as the session lives: they go
     * to the next release (which deletes them, or keeps them if they are still ours to own).
     */
    void releaseUntracked() {
        if (!untrackedScanDue) {
            return;
        }
        for (TopicAndPartition tp : owners.ownedBySession(group)) {
            if (!owned.containsKey(tp)) {
                unreleased.add(tp);
            }
        }
        untrackedScanDue = false;
    }

    /** Deletes the owner znodes of partitions already handed over; if that fails, the next attempt tries again. */
    void releaseLetGo() {
        if (!unreleased.isEmpty()) {
            owners.release(group, unreleased);
            unreleased.clear();
        }
    }

    /**
     * One round trip releases what moved away and, unless someone else still holds part of it, claims
     * {@code toClaim}; returns the owner znodes found held, watched by {@code wait}.
     */
    Map<TopicAndPartition, PartitionOwner> releaseAndClaim(ConsumerId me, Map<TopicAndPartition, ThreadId> toClaim,
                                                           Watcher wait) {
        Map<TopicAndPartition, PartitionOwner> held = owners.releaseAndClaim(group, me, unreleased, toClaim, wait);
        unreleased.clear();
        return held;
    }

    /** Leaves in one transaction: releases what was handed over and deletes the registration of {@code session}. */
    List<TopicAndPartition> releaseAndUnregister(ConsumerId me, long session, boolean vouched) {
        List<TopicAndPartition> released = owners.releaseAndUnregister(group, me, unreleased, session, vouched);
        unreleased.clear();
        return released;
    }
}
