package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.store.MemberAlarmRegistry;
import io.zkgroups.registry.store.Unreadable;
import io.zkgroups.registry.store.Znodes;

import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;

/**
 * Publishes the member's alarms ({@link MemberHealth#unreadable()}: partitions Kafka does not let it fetch, offsets it
 * cannot read) to ZooKeeper, where {@code zkgroups groups describe} and {@code health} read them: a health listener that
 * writes when they change, or when the session they were written in has ended (its ephemeral znode went with it).
 * <p>
 * The writes run on a thread of their own, one at a time, always the newest alarms: the event loop never waits for
 * ZooKeeper, and an older write cannot land after a newer one. A failed write is tried again at the next change of the
 * member's health.
 */
final class AlarmPublisher implements Consumer<MemberHealth>, AutoCloseable {

    /** Any session: nothing of this member's is there, whatever the session (a fresh member has published nothing). */
    private static final long ANY_SESSION = -1;

    private final MemberContext member;
    private final MemberAlarmRegistry alarms;
    private final Znodes znodes;
    private final ExecutorService writer;
    /** The alarms as they are now. */
    private List<Unreadable> wanted = Collections.emptyList();
    /** What ZooKeeper holds, in which session; null: unknown, so the next value is written even when empty. */
    private List<Unreadable> written = Collections.emptyList();
    private long writtenInSession = ANY_SESSION;
    private boolean scheduled;

    AlarmPublisher(MemberContext member, MemberAlarmRegistry alarms, Znodes znodes) {
        this.member = Objects.requireNonNull(member, "member cannot be null");
        this.alarms = Objects.requireNonNull(alarms, "alarms cannot be null");
        this.znodes = Objects.requireNonNull(znodes, "znodes cannot be null");
        this.writer = Executors.newSingleThreadExecutor(task -> {
            Thread thread = new Thread(task, "zkgroups-alarms-" + member.me());
            thread.setDaemon(true);
            return thread;
        });
    }

    @Override
    public synchronized void accept(MemberHealth health) {
        wanted = health.unreadable();
        if (!scheduled && needsWrite(currentSession())) {
            scheduled = true;
            try {
                writer.execute(this::writeNewest);
            } catch (RejectedExecutionException closed) {
                scheduled = false;
            }
        }
    }

    /**
     * The member took over a session a previous process of its consumer id handed over: that process's alarms may
     * still be published there, so the next value is written even when empty.
     */
    synchronized void forgetWritten() {
        written = null;
    }

    /** Stops the writer; what the member published goes with its session. */
    @Override
    public void close() {
        writer.shutdownNow();
    }

    /** On the writer thread: writes the newest alarms until what ZooKeeper holds is what the member reports. */
    private void writeNewest() {
        while (true) {
            List<Unreadable> sending;
            long session = currentSession();
            synchronized (this) {
                if (!needsWrite(session)) {
                    scheduled = false;
                    return;
                }
                sending = wanted;
            }
            try {
                alarms.write(member.group(), member.me(), sending);
                synchronized (this) {
                    written = sending;
                    writtenInSession = session;
                }
            } catch (Exception e) {
                synchronized (this) {
                    written = null;
                    scheduled = false;
                }
                member.log().debug("writing the member's alarms {} for the tools failed ({}); tried again at the next "
                        + "change", sending, e.toString());
                return;
            }
        }
    }

    /** Whether the alarms must be written: they changed, or their session ended; never while there is no session. */
    private boolean needsWrite(long session) {
        return session != 0
                && !(wanted.equals(written) && (session == writtenInSession || writtenInSession == ANY_SESSION));
    }

    private long currentSession() {
        try {
            return znodes.sessionId();
        } catch (RuntimeException e) {
            return 0;
        }
    }
}
