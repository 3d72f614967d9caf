package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.Immutable;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.store.ClaimConflictException;
import io.zkgroups.registry.store.PartitionOwner;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link ZkGroupMember}'s wait for the previous owners of what it is to claim: the claim that waits, the owner
 * znodes it waits for, and the signal when the last of them is gone. Kept apart from the attempt so that the attempt
 * only decides when to wait, not how. Its fields are written on the member's event loop; the watch events come on
 * ZooKeeper's thread.
 */
final class PreviousOwnerWait {

    /** The view of an attempt that had to wait for previous owners, and what it would have claimed. */
    static final class Parked {
        private final GroupView view;
        private final Map<TopicAndPartition, ThreadId> toClaim;

        Parked(GroupView view, Map<TopicAndPartition, ThreadId> toClaim) {
            this.view = view;
            this.toClaim = toClaim;
        }

        public GroupView view() {
            return view;
        }

        public Map<TopicAndPartition, ThreadId> toClaim() {
            return toClaim;
        }

        @Override
        public boolean equals(Object other) {
            if (this == other) {
                return true;
            }
            if (!(other instanceof Parked)) {
                return false;
            }
            Parked that = (Parked) other;
            return Objects.equals(view, that.view) && Objects.equals(toClaim, that.toClaim);
        }

        @Override
        public int hashCode() {
            return Objects.hash(view, toClaim);
        }

        @Override
        public String toString() {
            return "Parked[view=" + view + ", toClaim=" + toClaim + "]";
        }
    }

    private final ZkRegistry registry;
    private final String group;
    private final Runnable lastOneGone;
    private Parked parked;
    private volatile OwnerWait ownerWait;
    /** The partitions of the claim that waits for their previous owners (for {@link ZkGroupMember#health()}). */
    private volatile SortedSet<TopicAndPartition> awaitingRelease = Collections.emptySortedSet();

    /** @param lastOneGone asks for the claim: called when the last awaited owner znode is gone, on any thread */
    PreviousOwnerWait(ZkRegistry registry, String group, Runnable lastOneGone) {
        this.registry = registry;
        this.group = group;
        this.lastOneGone = lastOneGone;
    }

    /** A wait whose watches are to be armed by the reads it is passed to. */
    OwnerWait newWait() {
        return new OwnerWait();
    }

    /** The wait in progress, or null. */
    OwnerWait current() {
        return ownerWait;
    }

    /** The claim of {@code view} waits for its previous owners. */
    void park(GroupView view, Map<TopicAndPartition, ThreadId> toClaim) {
        parked = new Parked(view, toClaim);
    }

    /** The claim that waited, if any; it no longer waits. */
    Parked takeParked() {
        Parked taken = parked;
        parked = null;
        return taken;
    }

    /** The claim went out: nothing waits any more. */
    void unpark() {
        parked = null;
    }

    SortedSet<TopicAndPartition> awaitingRelease() {
        return awaitingRelease;
    }

    /** The claim succeeded: no wait is in progress. */
    void done() {
        ownerWait = null;
        awaitingRelease = Collections.emptySortedSet();
    }

    /** Nothing is shown as awaited any more (the member stops claiming). */
    void clearAwaited() {
        awaitingRelease = Collections.emptySortedSet();
    }

    /**
     * Waits for the holders of a claim that collided to let go: their owner znodes are watched by {@code armed}
     * (null: read them again, arming a new wait). {@code view} is the group as read by this attempt (null: read
     * the member list). When the last of them is gone, the wait asks for the claim at once. Returns whether a holder
     * is a registered member.
     */
    boolean awaitHolders(ClaimConflictException conflict, GroupView view, OwnerWait armed) {
        OwnerWait wait = armed;
        Set<TopicAndPartition> stillHeld = conflict.heldBy().keySet();
        if (wait == null) {
            wait = new OwnerWait();
            stillHeld = registry.owners().owners(group, conflict.heldBy().keySet(), wait).keySet();
        }
        awaitRelease(stillHeld, wait);
        boolean holderAlive = false;
        Set<ConsumerId> members = view != null ? view.members().keySet() : lastKnownMembers();
        for (PartitionOwner holder : conflict.heldBy().values()) {
            holderAlive |= holder.memberAmong(members).isPresent();
        }
        return holderAlive;
    }

    /** Waits for the owner znodes of {@code stillHeld}, watched by {@code wait}, to go: the last one asks for the claim. */
    private void awaitRelease(Set<TopicAndPartition> stillHeld, OwnerWait wait) {
        Set<String> paths = new TreeSet<>();
        stillHeld.forEach(tp -> paths.add(registry.layout().owner(group, tp)));
        awaitingRelease = Collections.unmodifiableSortedSet(new TreeSet<>(stillHeld));
        wait.await(paths);
    }

    private Set<ConsumerId> lastKnownMembers() {
        try {
            return new TreeSet<>(registry.members().ids(group, null));
        } catch (RuntimeException e) {
            return Collections.emptySet();
        }
    }

    /**
     * The owner znodes one wait is for: the registry's owner watch tells it of each deletion, and it asks for the
     * claim the moment the last of them is gone. A new wait replaces it (events of older ones are ignored).
     */
    final class OwnerWait implements Watcher {
        private final Set<String> gone = ConcurrentHashMap.newKeySet();
        private volatile Set<String> awaited;

        private OwnerWait() {
        }

        @Override
        public void process(WatchedEvent event) {
            if (event.getType() == Watcher.Event.EventType.NodeDeleted && event.getPath() != null) {
                gone.add(event.getPath());
                if (ownerWait == this && allGone()) {
                    lastOneGone.run();
                }
            }
        }

        /** Starts waiting for {@code paths}, whose watches are armed already. */
        void await(Set<String> paths) {
            awaited = Immutable.set(paths);
            ownerWait = this;
            if (allGone()) {
                lastOneGone.run();
            }
        }

        boolean allGone() {
            Set<String> waitingFor = awaited;
            return waitingFor != null && gone.containsAll(waitingFor);
        }
    }
}
