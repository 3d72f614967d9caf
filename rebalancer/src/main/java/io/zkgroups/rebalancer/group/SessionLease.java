package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.Time;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.Closeable;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Ownership as a lease on the ZooKeeper session.
 * <p>
 * The leader expires a session {@code sessionTimeout} after it last heard of it. This class sends a {@code sync}
 * every {@code sessionTimeout / 5} (a beat); each answered one proves the session alive on the leader as of a moment
 * {@code t} (below), and the lease holds until {@code t + sessionTimeout - margin}.
 * <p>
 * <b>Why a sync.</b> A read is answered by the server the client is connected to, from its own copy: a follower cut
 * off from the quorum keeps answering reads for up to {@code syncLimit × tickTime}, while the leader, which no
 * longer hears of the session, expires it and deletes its ephemeral nodes, and another member claims the
 * partitions. A follower (or observer) forwards a sync to the leader and answers it only when the leader's reply
 * comes back over the same link (ZooKeeper 3.9: {@code FollowerRequestProcessor}, {@code Leader.processSync},
 * {@code FollowerZooKeeperServer.sync}). The leader does not refuse a sync of an expired session itself, but it
 * expires a session by committing a {@code closeSession}, and that commit reaches the follower ahead of the reply to
 * any sync the leader takes later; the follower applies both in order, and closing the session closes our
 * connection first ({@code FinalRequestProcessor}): the sync fails with {@code CONNECTIONLOSS}. A follower cut off
 * from the leader never gets the reply, and drops all its clients when it gives up on the leader. So an answered
 * sync proves that the leader had not expired the session when it took the sync, after we sent it. A client of the
 * leader itself has its sync checked against the leader's own session table.
 * <p>
 * <b>Which moment.</b> The leader does not restart its expiry clock on a forwarded sync, but when the follower
 * reports the session in its answer to the leader's ping, sent every {@code tickTime / 2}. If the follower is cut
 * off right after forwarding a sync, that beat's report may never arrive. Its answers to earlier pings did arrive,
 * ahead of the sync on the same link; the last of them left at most a ping interval before the sync and reported
 * every beat sent up to then, and beats go out a period apart. So when a beat is answered, the leader's clock was
 * last restarted at most one ping interval before the send time of the <em>previous</em> beat of the same session
 * (taken at least one period back): the lease counts from that send time, and the margin covers the ping interval
 * plus network and scheduling delays.
 * The default margin, a quarter of the timeout, covers {@code tickTime / 2} for any session of at least two ticks
 * (ZooKeeper's minimum unless configured otherwise) and leaves room for delays from three ticks up: 500 ms for
 * 0.8's 6 s sessions on ZooKeeper's usual 2 s ticks. A reconnection re-validates the session at the leader, which
 * restarts its clock then, after any beat sent over the old connection. The first beat of a session proves
 * nothing by itself; the lease holds from the answer to the second.
 * <p>
 * Counting from a send time rather than from the moment a disconnect is <em>noticed</em> is what protects a process
 * that was frozen (GC pause, SIGSTOP, VM migration): when it wakes up its clock has moved on, the lease has run
 * out, and nothing is handed out or committed until the server answers again.
 * <p>
 * Cost: one sync per beat, a round trip follower → leader with no proposal and no disk write.
 */
public final class SessionLease implements Closeable, OwnershipFence.Lease {

    private static final Logger LOG = LoggerFactory.getLogger(SessionLease.class);
    private static final long NONE = Long.MIN_VALUE;

    /** What the answered beats proved: the session, and the moment the lease counts from ({@link #NONE}: none). */
    private static final class Proof {
        private final long session;
        private final long fromNanos;

        Proof(long session, long fromNanos) {
            this.session = session;
            this.fromNanos = fromNanos;
        }

        public long session() {
            return session;
        }

        public long fromNanos() {
            return fromNanos;
        }
    }

    private final CuratorFramework client;
    private final Time time;
    private final double marginFraction;
    private final AtomicReference<Proof> proof = new AtomicReference<>(new Proof(0, NONE));
    private final List<Runnable> renewalActions = new CopyOnWriteArrayList<>();
    private volatile long sessionTimeoutNanos;
    private volatile long periodNanos;
    private volatile ScheduledFuture<?> beats;
    /** The newest beat handed to the client: its session and send time. Guarded by {@code this}. */
    private long lastSentSession;
    private long lastSentAt = NONE;

    /**
     * @param marginFraction part of the session timeout kept as a safety margin; it must cover the leader's ping
     *                       interval ({@code tickTime / 2}) plus network and scheduling delays (0.25 = the lease ends
     *                       a quarter of the timeout before the leader could expire the session)
     */
    public SessionLease(CuratorFramework client, double marginFraction) {
        this(client, marginFraction, Time.SYSTEM);
    }

    /** As above, with send times and the lease's end read from {@code time}'s monotonic clock. */
    public SessionLease(CuratorFramework client, double marginFraction, Time time) {
        if (marginFraction <= 0 || marginFraction >= 1) {
            throw new IllegalArgumentException("margin must be between 0 and 1, got " + marginFraction);
        }
        this.client = client;
        this.marginFraction = marginFraction;
        this.time = time;
    }

    /** Starts beating on {@code scheduler}; the first beat goes out at once. */
    public synchronized void start(ScheduledExecutorService scheduler) {
        if (beats != null) {
            return;
        }
        long timeoutMs = Math.max(negotiatedTimeoutMs(), 10);
        long periodMs = Math.max(timeoutMs / 5, 5);
        periodNanos = TimeUnit.MILLISECONDS.toNanos(periodMs);
        beats = scheduler.scheduleWithFixedDelay(this::beat, 0, periodMs, TimeUnit.MILLISECONDS);
    }

    /** Sends one beat now; its answer renews the lease (from the previous beat on). Safe to call from any thread. */
    public void beat() {
        ZooKeeper zk;
        long session;
        try {
            zk = client.getZookeeperClient().getZooKeeper();
            session = zk.getSessionId();
            sessionTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(zk.getSessionTimeout());
        } catch (Exception e) {
            LOG.debug("lease beat not sent: {}", e.toString());
            return;
        }
        if (session == 0) {
            return; // no session yet: nothing to prove
        }
        // One at a time, so that the previous beat is the one handed to the client before this one.
        synchronized (this) {
            long sentAt = time.nanoseconds();
            long from = lastSentSession == session && lastSentAt != NONE
                    ? Math.min(lastSentAt, sentAt - periodNanos) : NONE;
            try {
                zk.sync("/", (rc, path, ctx) -> {
                    if (rc == KeeperException.Code.OK.intValue() && from != NONE) {
                        confirm(session, from);
                    }
                }, null);
            } catch (RuntimeException e) {
                LOG.debug("lease beat not sent: {}", e.toString());
                return;
            }
            lastSentSession = session;
            lastSentAt = sentAt;
        }
    }

    private void confirm(long session, long fromNanos) {
        proof.updateAndGet(p -> p.session() != session || fromNanos > p.fromNanos() ? new Proof(session, fromNanos) : p);
        renewalActions.forEach(Runnable::run);
    }

    @Override
    public void onRenewal(Runnable action) {
        renewalActions.add(action);
    }

    /** Called when a new session replaces the old one: nothing the old session proved counts any more. */
    public void reset() {
        proof.updateAndGet(p -> new Proof(p.session(), NONE));
    }

    /** True while the session that answered last is certainly alive on the server. */
    public boolean isValid() {
        return remainingNanos() > 0;
    }

    /** True while {@code session} is the one that answered last and is certainly alive on the server. */
    @Override
    public boolean holds(long session) {
        return isValid() && session() == session;
    }

    /** Nanoseconds left on the lease (negative once it has run out). */
    @Override
    public long remainingNanos() {
        long from = proof.get().fromNanos();
        if (from == NONE) {
            return -1;
        }
        long usable = (long) (sessionTimeoutNanos * (1 - marginFraction));
        return from + usable - time.nanoseconds();
    }

    /** The session whose answers back the lease. */
    public long session() {
        return proof.get().session();
    }

    private long negotiatedTimeoutMs() {
        try {
            int negotiated = client.getZookeeperClient().getZooKeeper().getSessionTimeout();
            sessionTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(negotiated);
            return negotiated;
        } catch (Exception e) {
            return 1_000;
        }
    }

    @Override
    public synchronized void close() {
        if (beats != null) {
            beats.cancel(false);
            beats = null;
        }
        reset();
    }
}
