package io.zkgroups.rebalancer.group;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.Closeable;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Ownership as a lease on the ZooKeeper session.
 * <p>
 * The server expires a session {@code sessionTimeout} after it last heard from the client. Every request
 * the server answers proves it heard from us no earlier than the moment we <em>sent</em> it, so the
 * session is certainly alive until {@code sent + sessionTimeout}. This class sends a tiny request every
 * {@code sessionTimeout / 5} and keeps the send time of the newest answered one; the lease holds until
 * {@code sent + sessionTimeout - margin}.
 * <p>
 * Counting from the last answer rather than from the moment a disconnect is <em>noticed</em> is what
 * protects a process that was frozen (GC pause, SIGSTOP, VM migration): when it wakes up its clock has
 * moved on, the lease has run out, and nothing is handed out or committed until the server answers again.
 */
public final class SessionLease implements Closeable, OwnershipFence.Lease {

    private static final Logger LOG = LoggerFactory.getLogger(SessionLease.class);

    private final CuratorFramework client;
    private final LongSupplier nanoClock;
    private final double marginFraction;
    private final AtomicLong confirmedAtNanos = new AtomicLong(Long.MIN_VALUE);
    private final AtomicLong confirmedSession = new AtomicLong();
    private volatile long sessionTimeoutNanos;
    private volatile ScheduledFuture<?> beats;

    /**
     * @param marginFraction part of the session timeout kept as a safety margin (0.25 = the lease ends a
     *                       quarter of the timeout before the server could expire the session)
     */
    public SessionLease(CuratorFramework client, double marginFraction) {
        this(client, marginFraction, System::nanoTime);
    }

    SessionLease(CuratorFramework client, double marginFraction, LongSupplier nanoClock) {
        if (marginFraction <= 0 || marginFraction >= 1) {
            throw new IllegalArgumentException("margin must be between 0 and 1, got " + marginFraction);
        }
        this.client = client;
        this.marginFraction = marginFraction;
        this.nanoClock = nanoClock;
    }

    /** Starts beating on {@code scheduler}; the first beat goes out at once. */
    public synchronized void start(ScheduledExecutorService scheduler) {
        if (beats != null) {
            return;
        }
        long timeoutMs = Math.max(negotiatedTimeoutMs(), 10);
        long periodMs = Math.max(timeoutMs / 5, 5);
        beats = scheduler.scheduleWithFixedDelay(this::beat, 0, periodMs, TimeUnit.MILLISECONDS);
    }

    /** Sends one request now; its answer renews the lease. Safe to call from any thread. */
    public void beat() {
        long sentAt = nanoClock.getAsLong();
        try {
            ZooKeeper zk = client.getZookeeperClient().getZooKeeper();
            long session = zk.getSessionId();
            sessionTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(zk.getSessionTimeout());
            zk.exists("/", false, (rc, path, ctx, stat) -> {
                if (rc == KeeperException.Code.OK.intValue()) {
                    confirm(session, sentAt);
                }
            }, null);
        } catch (Exception e) {
            LOG.debug("lease beat not sent: {}", e.toString());
        }
    }

    private void confirm(long session, long sentAt) {
        confirmedSession.set(session);
        confirmedAtNanos.accumulateAndGet(sentAt, Math::max);
    }

    /** Called when a new session replaces the old one: nothing the old session proved counts any more. */
    public void reset() {
        confirmedAtNanos.set(Long.MIN_VALUE);
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
        long confirmed = confirmedAtNanos.get();
        if (confirmed == Long.MIN_VALUE) {
            return -1;
        }
        long timeout = sessionTimeoutNanos;
        long usable = (long) (timeout * (1 - marginFraction));
        return confirmed + usable - nanoClock.getAsLong();
    }

    /** The session whose answers back the lease. */
    public long session() {
        return confirmedSession.get();
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
