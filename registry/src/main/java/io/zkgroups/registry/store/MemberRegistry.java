package io.zkgroups.registry.store;

import io.zkgroups.registry.RegistryException;
import io.zkgroups.registry.Time;
import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.codec.MemberRegistrationCodec;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.MemberRegistration;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Group membership under {@code /consumers/G/ids}: one ephemeral node per member holding its 0.8.2.2
 * registration JSON.
 * <p>
 * Rewrites and deletes of a registration go to the handle of the session that holds it ({@link SessionWrites}):
 * replayed by Curator on a later session, they could rewrite or delete the registration another process made for the
 * same consumer id meanwhile. The create of a registration goes through Curator's retries: a create replayed on the
 * client's next session removes and rewrites nothing; the node it makes is that client's own, in its current session,
 * and a member compares the session it registered in with its current one before it trusts the registration (the
 * claims check it too).
 * <p>
 * Thread-safe: it keeps no state of its own.
 */
public final class MemberRegistry {

    private final Znodes znodes;
    private final ZkLayout layout;
    private final Time time;
    private final SessionWrites writes;

    public MemberRegistry(Znodes znodes, ZkLayout layout) {
        this(znodes, layout, Time.SYSTEM);
    }

    /** @param time what the wait for a stale registration to go is measured with */
    public MemberRegistry(Znodes znodes, ZkLayout layout, Time time) {
        this.znodes = Objects.requireNonNull(znodes, "znodes cannot be null");
        this.layout = Objects.requireNonNull(layout, "layout cannot be null");
        this.time = Objects.requireNonNull(time, "time cannot be null");
        this.writes = new SessionWrites(znodes);
    }

    /**
     * Registers {@code id} in {@code group} as an ephemeral node of this client's session.
     * <p>
     * If the node exists already: held by this session ⇒ its data is brought up to date and that is
     * success (a create whose reply was lost); held by another session (a previous incarnation of this
     * consumer whose session has not expired yet, or another live process using the same
     * {@code consumer.id}) ⇒ wait up to {@code staleWait} for it to go, then fail with a clear error.
     * 0.8.2.2 loops forever in that case.
     *
     * @return the czxid of the registration (its place in registration order)
     * @throws BrokerRegistry.AlreadyRegisteredException if the node is still held by another session
     */
    public long register(String group, ConsumerId id, MemberRegistration registration, Duration staleWait) {
        String path = layout.member(group, id);
        byte[] data = MemberRegistrationCodec.encode(registration);
        long deadline = time.nanoseconds() + staleWait.toNanos();
        try {
            while (true) {
                try {
                    return znodes.createForStat(path, data, CreateMode.EPHEMERAL).getCzxid();
                } catch (KeeperException.NoNodeException newGroup) {
                    // the group's directories come first; not created up front, which would cost a write on every join
                    znodes.ensurePersistent(layout.memberIds(group));
                } catch (KeeperException.NodeExistsException exists) {
                    Optional<Znodes.Data> current = znodes.read(path);
                    if (!current.isPresent()) {
                        continue;
                    }
                    Stat stat = current.get().stat();
                    long session = znodes.sessionId();
                    if (stat.getEphemeralOwner() == session) {
                        if (!Arrays.equals(current.get().bytes(), data)
                                && !rewrite(session, path, data, stat.getVersion())) {
                            continue; // changed meanwhile: look again
                        }
                        return stat.getCzxid();
                    }
                    if (stat.getEphemeralOwner() == 0 || !awaitDeletion(path, deadline)) {
                        throw new BrokerRegistry.AlreadyRegisteredException(path, stat.getEphemeralOwner(),
                                current.get().bytes());
                    }
                }
            }
        } catch (RegistryException e) {
            throw e;
        } catch (Exception e) {
            throw RegistryException.of("registering member at", path, e);
        }
    }

    /** Waits until {@code path} is deleted or the deadline passes; true if it is gone. */
    private boolean awaitDeletion(String path, long deadlineNanos) throws InterruptedException {
        while (true) {
            CountDownLatch changed = new CountDownLatch(1);
            if (!znodes.existsWatch(path, event -> changed.countDown())) {
                return true;
            }
            long left = deadlineNanos - time.nanoseconds();
            if (left <= 0 || !changed.await(left, TimeUnit.NANOSECONDS)) {
                return !znodes.exists(path);
            }
        }
    }

    /**
     * Rewrites this session's registration (e.g. a new subscription).
     *
     * @throws RegistryException if {@code id} is not registered by this session
     */
    public void update(String group, ConsumerId id, MemberRegistration registration) {
        String path = layout.member(group, id);
        long session = znodes.sessionId();
        Optional<Znodes.Data> current = znodes.read(path);
        if (!current.isPresent() || current.get().stat().getEphemeralOwner() != session
                || !rewrite(session, path, MemberRegistrationCodec.encode(registration), current.get().stat().getVersion())) {
            throw new RegistryException("cannot update member " + id + ": " + path + " is not (or no longer) registered"
                    + " by this session 0x" + Long.toHexString(session));
        }
    }

    /** Sets the data of {@code session}'s registration at {@code path} if it still has {@code version}. */
    private boolean rewrite(long session, String path, byte[] data, int version) {
        SessionWrites.Outcome outcome = writes.multi(session, Collections.singletonList(writes.setData(path, data, version)));
        if (outcome.ok() || outcome.code() == KeeperException.Code.BADVERSION
                || outcome.code() == KeeperException.Code.NONODE || outcome.code() == KeeperException.Code.SESSIONEXPIRED) {
            return outcome.ok();
        }
        throw new RegistryException("updating member " + path + " failed: " + outcome.code());
    }

    /** Deletes {@code id}'s registration if this session holds it; true if it deleted something. */
    public boolean unregister(String group, ConsumerId id) {
        return !writes.deleteOwnEphemerals(Collections.singletonList(layout.member(group, id))).isEmpty();
    }

    /** Ids of the registered members, sorted like 0.8.2.2 (String order); arms {@code watcher} if given. */
    public List<ConsumerId> ids(String group, Watcher watcher) {
        List<ConsumerId> ids = new ArrayList<>();
        for (String child : znodes.children(layout.memberIds(group), watcher)) {
            ids.add(new ConsumerId(child));
        }
        ids.sort(null);
        return ids;
    }

    /** Every member with its registration, sorted by id; malformed registrations are reported, not thrown. */
    public Listing<Member> list(String group) {
        return list(group, null);
    }

    /**
     * As {@link #list(String)}, arming {@code watcher} on the children of {@code /consumers/G/ids} and on each
     * registration. The registrations are read at once (about one round trip for the lot).
     */
    public Listing<Member> list(String group, Watcher watcher) {
        return memberList(group).read(watcher).listing();
    }

    /** A {@link MemberList} of {@code group}, for a caller that reads it again and again. */
    public MemberList memberList(String group) {
        return new MemberList(znodes, layout, group);
    }
}
