package io.zkgroups.rebalancer.group;

import io.zkgroups.rebalancer.offsets.CommitPermit;
import io.zkgroups.rebalancer.offsets.FencedException;
import io.zkgroups.registry.Immutable;
import io.zkgroups.registry.Time;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * The one place that decides whether records of a partition may be handed out, and whether its offset may be
 * committed. Every hand-out and every commit of a {@link ZkGroupMember}'s partitions passes through it.
 * <p>
 * The member's event loop writes it at the moments ownership changes: {@link #grant} after a claim (before the
 * listener hears of it), {@link #beginRevoke} before the listener is asked to let go, {@link #withdraw} before an
 * owner znode is released or as soon as ownership may be gone (revocation timed out). Two writes come from other
 * threads, so that no hand-out or commit passes a moment longer than it must: {@link #withdrawAll} from Curator's
 * connection listener when the session is lost, and from the thread that stops the member for a restart. Readers are
 * the application's poll thread and the committer. <b>Every method is synchronized on the fence</b>: any thread may
 * call any of them; {@link #awaitChange} and {@link #awaitCommits} wait on the fence's monitor. Readers present
 * the {@link Grant#epoch() epoch} they were told about with the partition: a grant withdrawn and given again (the same
 * partition claimed back later) has a new epoch, so a caller acting on what it learnt before cannot pass.
 * <p>
 * A grant is tied to the ZooKeeper session that holds the owner znode, and is good only while the
 * {@link SessionLease} proves that session alive. So a process that was frozen past its session timeout is stopped
 * the moment it wakes, even before its event loop hears the session is gone, and even after the client has opened
 * a new session whose lease is valid: the grants are of the old one.
 * <p>
 * Commits are {@link #authorize authorised} with a {@link CommitPermit}: the session the write must go out on (a
 * ZooKeeper write on that session cannot land after the release, which the same session sends later) and a deadline
 * (the lease's end) that bounds writes to a store with no such ordering (Kafka). Permits in flight are counted:
 * {@link #awaitCommits} lets the member hold a release until the writes it authorised have ended or run out of time.
 */
public final class OwnershipFence {

    /**
     * One partition's ownership: given to the member's consumer thread {@code thread} (its stream, in 0.8 terms),
     * established in {@code session}, told to readers as {@code epoch}.
     */
    public static final class Grant {
        private final TopicAndPartition partition;
        private final ThreadId thread;
        private final long session;
        private final long epoch;
        private final boolean revoking;

        public Grant(TopicAndPartition partition, ThreadId thread, long session, long epoch, boolean revoking) {
            this.partition = partition;
            this.thread = thread;
            this.session = session;
            this.epoch = epoch;
            this.revoking = revoking;
        }

        public TopicAndPartition partition() {
            return partition;
        }

        public ThreadId thread() {
            return thread;
        }

        public long session() {
            return session;
        }

        public long epoch() {
            return epoch;
        }

        public boolean revoking() {
            return revoking;
        }

        @Override
        public boolean equals(Object other) {
            if (this == other) {
                return true;
            }
            if (!(other instanceof Grant)) {
                return false;
            }
            Grant that = (Grant) other;
            return Objects.equals(partition, that.partition) && Objects.equals(thread, that.thread)
                    && session == that.session && epoch == that.epoch && revoking == that.revoking;
        }

        @Override
        public int hashCode() {
            return Objects.hash(partition, thread, session, epoch, revoking);
        }

        @Override
        public String toString() {
            return "Grant[partition=" + partition + ", thread=" + thread + ", session=" + session + ", epoch=" + epoch
                    + ", revoking=" + revoking + "]";
        }
    }

    /** What the fence needs of the session lease ({@link SessionLease}). */
    public interface Lease {
        /** Whether {@code session} is certainly alive on the server now. */
        boolean holds(long session);

        /** Nanoseconds left on the lease (negative once it has run out). */
        long remainingNanos();

        /** Runs {@code action} each time the lease is renewed (on whichever thread renews it). */
        default void onRenewal(Runnable action) {
        }
    }

    /** What a hand-out of a partition's records under an epoch may do now ({@link #handOut}). */
    public enum HandOut {
        /** The grant is current and its lease holds. */
        ALLOWED,
        /** The grant is current but its lease does not hold now: it may again once renewed, or be withdrawn. */
        WAIT,
        /** The grant is gone, replaced or being revoked: records fetched under it never go out. */
        NEVER
    }

    private final Lease lease;
    private final Time time;
    private final Map<TopicAndPartition, Grant> grants = new HashMap<>();
    /** Counts the changes of {@link #grants}: a {@link HandOutCheck} looks a grant up again only after one. */
    private volatile long grantChanges;
    private final Set<CommitPermit> inFlight = new HashSet<>();
    private long nextEpoch = 1;

    public OwnershipFence(Lease lease) {
        this(lease, Time.SYSTEM);
    }

    /** @param time the monotonic clock of the lease: commit deadlines are on it */
    public OwnershipFence(Lease lease, Time time) {
        this.lease = lease;
        this.time = time;
        lease.onRenewal(this::changed);
    }

    // --- written by the member's event loop --------------------------------------------------------------

    /** {@code threads}' partitions are owned now, through owner znodes of {@code session}; returns their new grants. */
    public synchronized Map<TopicAndPartition, Grant> grant(Map<TopicAndPartition, ThreadId> threads, long session) {
        Map<TopicAndPartition, Grant> granted = new TreeMap<>();
        for (Map.Entry<TopicAndPartition, ThreadId> owned : threads.entrySet()) {
            TopicAndPartition tp = owned.getKey();
            Grant grant = new Grant(tp, owned.getValue(), session, nextEpoch++, false);
            grants.put(tp, grant);
            granted.put(tp, grant);
        }
        grantChanges++;
        notifyAll();
        return granted;
    }

    /** No more hand-outs of {@code partitions}; their offsets may still be committed until {@link #withdraw}. */
    public synchronized void beginRevoke(Collection<TopicAndPartition> partitions) {
        for (TopicAndPartition tp : partitions) {
            grants.computeIfPresent(tp, (k, g) -> new Grant(k, g.thread(), g.session(), g.epoch(), true));
        }
        grantChanges++;
        notifyAll();
    }

    /** Neither hand-outs nor commits of {@code partitions} from now on. Idempotent. */
    public synchronized void withdraw(Collection<TopicAndPartition> partitions) {
        partitions.forEach(grants::remove);
        grantChanges++;
        notifyAll();
    }

    /** Everything may belong to someone else now. */
    public synchronized void withdrawAll() {
        grants.clear();
        grantChanges++;
        notifyAll();
    }

    // --- read by whoever hands out or commits -------------------------------------------------------------

    /** The current grants of {@code partitions} (those that have one). */
    public synchronized Map<TopicAndPartition, Grant> grantsOf(Collection<TopicAndPartition> partitions) {
        Map<TopicAndPartition, Grant> result = new TreeMap<>();
        for (TopicAndPartition tp : partitions) {
            Grant grant = grants.get(tp);
            if (grant != null) {
                result.put(tp, grant);
            }
        }
        return result;
    }

    /** Of {@code epochs} (partition → the epoch the caller holds), the partitions whose records may be handed out now. */
    public synchronized Set<TopicAndPartition> deliverable(Map<TopicAndPartition, Long> epochs) {
        Set<TopicAndPartition> result = new TreeSet<>();
        epochs.forEach((tp, epoch) -> {
            if (handOut(tp, epoch) == HandOut.ALLOWED) {
                result.add(tp);
            }
        });
        return result;
    }

    /**
     * Whether one record of {@code partition}, fetched under the grant {@code epoch}, may be handed out now: for a
     * caller that hands records out later than it fetched them (queued for another thread, as 0.8 streams are), and
     * must tell a lapse of the lease, after which it must wait, from the end of the grant, after which it must drop.
     */
    public synchronized HandOut handOut(TopicAndPartition partition, long epoch) {
        Grant grant = grants.get(partition);
        if (grant == null || grant.epoch() != epoch || grant.revoking()) {
            return HandOut.NEVER;
        }
        return leaseHolds(grant.session()) ? HandOut.ALLOWED : HandOut.WAIT;
    }

    /**
     * The same verdicts as {@link #handOut} for one partition and epoch, for a thread that asks before each record:
     * the grant is looked up (under the fence's lock) only when some grant changed since its last look; the lease is
     * asked every time.
     */
    public HandOutCheck handOutCheck(TopicAndPartition partition, long epoch) {
        return new HandOutCheck(partition, epoch);
    }

    /** See {@link #handOutCheck}. Used by one thread at a time. */
    public final class HandOutCheck {
        private final TopicAndPartition partition;
        private final long epoch;
        private long lookedAt = -1;
        /** Whether the grant was current (same epoch, not being revoked) at the last look, and its session. */
        private boolean current;
        private long session;

        private HandOutCheck(TopicAndPartition partition, long epoch) {
            this.partition = partition;
            this.epoch = epoch;
        }

        public HandOut verdict() {
            long changes = grantChanges; // read first: a change after it is seen by the next verdict
            if (changes != lookedAt) {
                synchronized (OwnershipFence.this) {
                    Grant grant = grants.get(partition);
                    current = grant != null && grant.epoch() == epoch && !grant.revoking();
                    session = current ? grant.session() : 0;
                }
                lookedAt = changes;
            }
            if (!current) {
                return HandOut.NEVER;
            }
            return leaseHolds(session) ? HandOut.ALLOWED : HandOut.WAIT;
        }
    }

    /**
     * Waits until a grant changes or the lease is renewed, or at most {@code maxNanos}: what a hand-out told to
     * {@link HandOut#WAIT} waits for before it asks again.
     */
    public synchronized void awaitChange(long maxNanos) throws InterruptedException {
        if (maxNanos > 0) {
            TimeUnit.NANOSECONDS.timedWait(this, maxNanos);
        }
    }

    private synchronized void changed() {
        notifyAll();
    }

    /**
     * A permit to commit offsets of {@code epochs}' partitions, counted as in flight until {@link CommitPermit#close()}.
     *
     * @throws FencedException naming each partition that may not be committed, and why; nothing is permitted then
     */
    public synchronized CommitPermit authorize(Map<TopicAndPartition, Long> epochs) {
        Map<TopicAndPartition, String> refused = new TreeMap<>();
        long session = 0;
        for (Map.Entry<TopicAndPartition, Long> entry : epochs.entrySet()) {
            Grant grant = grants.get(entry.getKey());
            if (grant == null || grant.epoch() != entry.getValue()) {
                refused.put(entry.getKey(), "no longer owned by this member (a rebalance or a lost session moved it)");
            } else if (!leaseHolds(grant.session())) {
                refused.put(entry.getKey(), "the ZooKeeper session 0x" + Long.toHexString(grant.session())
                        + " that owns it may have expired");
            } else if (session != 0 && session != grant.session()) {
                refused.put(entry.getKey(), "owned in another session than the rest of the commit");
            } else {
                session = grant.session();
            }
        }
        if (!refused.isEmpty()) {
            throw new FencedException(refused);
        }
        long deadline = time.nanoseconds() + Math.max(0, lease.remainingNanos());
        CommitPermit permit = new CommitPermit(session, deadline, Immutable.set(epochs.keySet()), this::finished, time);
        inFlight.add(permit);
        return permit;
    }

    private synchronized void finished(CommitPermit permit) {
        inFlight.remove(permit);
        notifyAll();
    }

    /**
     * Waits until every commit authorised for any of {@code partitions} has ended or passed its deadline, the latest
     * moment a store may act on it (a write still in flight after that is refused by its store or, for Kafka, bounded
     * as {@link CommitPermit} describes).
     */
    public synchronized void awaitCommits(Collection<TopicAndPartition> partitions) throws InterruptedException {
        Set<TopicAndPartition> watched = new HashSet<>(partitions);
        while (true) {
            long now = time.nanoseconds();
            long wait = Long.MAX_VALUE;
            for (CommitPermit permit : inFlight) {
                long left = permit.deadlineNanos() - now;
                if (left > 0 && permit.partitions().stream().anyMatch(watched::contains)) {
                    wait = Math.min(wait, left);
                }
            }
            if (wait == Long.MAX_VALUE) {
                return;
            }
            TimeUnit.NANOSECONDS.timedWait(this, wait);
        }
    }

    private boolean leaseHolds(long session) {
        return lease.holds(session);
    }
}
