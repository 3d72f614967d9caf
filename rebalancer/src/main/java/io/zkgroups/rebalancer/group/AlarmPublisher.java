package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.store.MemberAlarmRegistry;
import io.zkgroups.registry.store.Unreadable;
import io.zkgroups.registry.store.Znodes;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.zookeeper.KeeperException;

import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Publishes the member's alarms ({@link MemberHealth#unreadable()}: partitions Kafka does not let it fetch, offsets it
 * cannot read) to ZooKeeper, where {@code zkgroups groups describe} and {@code health} read them: a health listener that
 * writes when they change, or when the session they were written in has ended (its ephemeral znode went with it).
 * <p>
 * One write at a time, in the background: the event loop never waits for ZooKeeper, and a write Curator retries
 * after a lost connection cannot land after a newer one. When a write ends and the alarms changed meanwhile, the
 * newest are written next; a failed write is tried again at the next change of the member's health.
 */
final class AlarmPublisher implements Consumer<MemberHealth> {

    /** Any session: nothing of this member's is there, whatever the session (a fresh member has published nothing). */
    private static final long ANY_SESSION = -1;

    private final MemberContext member;
    private final MemberAlarmRegistry alarms;
    private final Znodes znodes;
    /** The alarms as they are now. */
    private List<Unreadable> wanted = Collections.emptyList();
    /** What ZooKeeper holds, in which session; null: unknown, so the next value is written even when empty. */
    private List<Unreadable> written = Collections.emptyList();
    private long writtenInSession = ANY_SESSION;
    private boolean writing;

    AlarmPublisher(MemberContext member, MemberAlarmRegistry alarms, Znodes znodes) {
        this.member = Objects.requireNonNull(member, "member cannot be null");
        this.alarms = Objects.requireNonNull(alarms, "alarms cannot be null");
        this.znodes = Objects.requireNonNull(znodes, "znodes cannot be null");
    }

    @Override
    public synchronized void accept(MemberHealth health) {
        wanted = health.unreadable();
        writeIfNeeded();
    }

    /**
     * The member took over a session a previous process of its consumer id handed over: that process's alarms may
     * still be published there, so the next value is written even when empty.
     */
    synchronized void forgetWritten() {
        written = null;
    }

    private void writeIfNeeded() {
        if (writing) {
            return; // the write under way looks again when it ends
        }
        long session = currentSession();
        if (session == 0 || (wanted.equals(written) && (session == writtenInSession || writtenInSession == ANY_SESSION))) {
            return; // nothing to do, or not connected: the next change after the reconnect writes
        }
        List<Unreadable> sending = wanted;
        writing = true;
        try {
            alarms.publish(member.group(), member.me(), sending, (client, event) -> ended(event, sending, session));
        } catch (Exception e) {
            writing = false;
            failed(sending, e.toString());
        }
    }

    private synchronized void ended(CuratorEvent event, List<Unreadable> sent, long session) {
        writing = false;
        int rc = event.getResultCode();
        if (rc == KeeperException.Code.OK.intValue() || rc == KeeperException.Code.NONODE.intValue()) {
            written = sent;
            writtenInSession = session;
            writeIfNeeded();
        } else {
            failed(sent, KeeperException.Code.get(rc).toString());
        }
    }

    private void failed(List<Unreadable> what, String why) {
        written = null;
        member.log().debug("writing the member's alarms {} for the tools failed ({}); tried again at the next change",
                what, why);
    }

    private long currentSession() {
        try {
            return znodes.sessionId();
        } catch (RuntimeException e) {
            return 0;
        }
    }
}
