package io.zkgroups.registry.store;

import io.zkgroups.registry.Immutable;
import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.Watcher;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Creates the owner znodes of a claim for {@link OwnerRegistry}: all or nothing, in the session the caller names.
 * <p>
 * <b>Any size.</b> A claim goes in one {@code multi()} per batch that fits {@code jute.maxbuffer}
 * ({@link MultiBatches}), each starting with a check that the member is registered. All batches go out at once,
 * followed by reads of what they claimed, so a claim of any size costs one round trip, and one that fits a batch is
 * one transaction. If a batch fails, {@link #undo} deletes what the others created before the claim reports why: a
 * claim is never left half made.
 * <p>
 * <b>One session.</b> Every write goes to the handle of the claim's session ({@link SessionWrites}), never replayed on
 * another. The check proves only that a registration exists, not whose it is; the read of it after the batches does.
 * If another session holds it — the consumer id registered again by another process after this session ended, or
 * while the caller stalled between reading its session and claiming — the claim is undone and refused.
 * <p>
 * <b>Parents.</b> The topic directories under {@code owners} are created once and remembered; a claim that finds one
 * gone (an operator deleted it) forgets it, and the next round creates it again.
 */
final class ClaimWriter {

    private final Znodes znodes;
    private final SessionWrites writes;
    private final ZkLayout layout;
    /** Owner topic directories known to exist: persistent, but an operator may delete them. */
    private final Set<String> knownParents = ConcurrentHashMap.newKeySet();

    ClaimWriter(Znodes znodes, SessionWrites writes, ZkLayout layout) {
        this.znodes = Objects.requireNonNull(znodes, "znodes cannot be null");
        this.writes = Objects.requireNonNull(writes, "writes cannot be null");
        this.layout = Objects.requireNonNull(layout, "layout cannot be null");
    }

    /** Creates the topic directories of {@code partitions} that are not known to exist. */
    void ensureParents(String group, Collection<TopicAndPartition> partitions) {
        ensureTopicParents(group, partitions.stream().map(TopicAndPartition::topic).distinct().collect(Immutable.toList()));
    }

    /** Creates the owner directories of {@code topics} that are not known to exist. */
    void ensureTopicParents(String group, Collection<String> topics) {
        topics.stream()
                .map(topic -> layout.owners(group, topic))
                .filter(parent -> !knownParents.contains(parent))
                .forEach(parent -> {
                    znodes.ensurePersistent(parent);
                    knownParents.add(parent);
                });
    }

    /** {@code parent}, an owner topic directory, was just listed: it exists, no claim needs to create it. */
    void parentExists(String parent) {
        knownParents.add(parent);
    }

    /** Forgets the topic directories of {@code partitions} and creates them again. */
    void recreateParents(String group, Collection<TopicAndPartition> partitions) {
        partitions.stream().map(TopicAndPartition::topic).distinct()
                .map(topic -> layout.owners(group, topic))
                .forEach(knownParents::remove);
        ensureParents(group, partitions);
    }

    /**
     * One try at a claim, in one round trip: the deletes of {@code release} (path → version, this session's owner
     * znodes), the batches of {@code claims}, then a read of every claimed owner znode arming {@code watcher} (if
     * given), and a read of the member's registration.
     */
    Round send(long session, String group, ConsumerId member, Map<String, Integer> release,
               Map<TopicAndPartition, ThreadId> claims, Watcher watcher) {
        return send(session, group, member, release, claims, watcher, true);
    }

    /**
     * As {@link #send(long, String, ConsumerId, Map, Map, Watcher)}; without {@code readBack}, the claimed owner znodes
     * are read (unwatched) only if the claim failed, in a second round trip: a persistent watch covers them already, and
     * a committed claim needs no read to know what it created.
     */
    Round send(long session, String group, ConsumerId member, Map<String, Integer> release,
               Map<TopicAndPartition, ThreadId> claims, Watcher watcher, boolean readBack) {
        String registration = layout.member(group, member);
        Map<String, TopicAndPartition> partitions = new TreeMap<>();
        Map<String, byte[]> data = new TreeMap<>();
        claims.forEach((tp, thread) -> {
            String path = layout.owner(group, tp);
            partitions.put(path, tp);
            data.put(path, thread.toString().getBytes(StandardCharsets.UTF_8));
        });
        List<Map<String, byte[]>> batches = MultiBatches.split(data, e -> e.getKey().length() + e.getValue().length);
        List<List<Op>> transactions = new ArrayList<>(batches.size());
        for (Map<String, byte[]> batch : batches) {
            List<Op> ops = new ArrayList<>(batch.size() + 1);
            ops.add(writes.check(registration));
            batch.forEach((path, bytes) -> ops.add(writes.createEphemeral(path, bytes)));
            transactions.add(ops);
        }
        SessionWrites.Committed done = writes.deleteCommitRead(session, release, transactions,
                readBack ? partitions.keySet() : Collections.emptyList(), watcher,
                claims.isEmpty() ? Collections.emptyList() : Collections.singletonList(registration));
        Round round = new Round(session, registration, partitions, Immutable.map(claims), batches, done);
        if (readBack || round.claimed()) {
            return round;
        }
        // who holds what could not be claimed, and what to undo
        return new Round(session, registration, partitions, round.claims, batches,
                done.withReads(znodes.readAll(partitions.keySet(), null)));
    }

    /**
     * Deletes again what {@code round} created, unless it claimed everything; on the round's session's handle.
     * Returns the paths it deleted or found gone.
     */
    Set<String> undo(Round round) {
        if (round.claimed()) {
            return Collections.emptySet();
        }
        Map<String, Integer> created = new TreeMap<>();
        for (String path : round.created()) {
            round.read(path).filter(d -> d.stat().getEphemeralOwner() == round.session)
                    .ifPresent(d -> created.put(path, d.stat().getVersion()));
        }
        writes.deleteAll(round.session, created);
        return created.keySet();
    }

    /** One try at a claim: what it asked for, how each batch came back, and what the reads after them found. */
    static final class Round {

        private final long session;
        private final String registration;
        private final Map<String, TopicAndPartition> partitions;
        private final Map<TopicAndPartition, ThreadId> claims;
        private final List<Map<String, byte[]>> batches;
        private final SessionWrites.Committed done;

        private Round(long session, String registration, Map<String, TopicAndPartition> partitions,
                      Map<TopicAndPartition, ThreadId> claims, List<Map<String, byte[]>> batches,
                      SessionWrites.Committed done) {
            this.session = session;
            this.registration = registration;
            this.partitions = partitions;
            this.claims = claims;
            this.batches = batches;
            this.done = done;
        }

        /** Whether the release sent with the claim went through. */
        boolean released() {
            return done.deleted();
        }

        /** Whether everything was claimed: every batch committed, for a registration of this session. */
        boolean claimed() {
            return done.committed() && !registeredElsewhere();
        }

        /** The claimed partitions. */
        Collection<TopicAndPartition> partitions() {
            return claims.keySet();
        }

        /** What the read after the batches found at owner znode {@code path}. */
        Optional<Znodes.Data> read(String path) {
            return Optional.ofNullable(done.reads().get(path));
        }

        /** Whether the owner znode {@code path} was read as this session's claim for the thread claimed. */
        boolean isOurs(String path) {
            return owner(path).map(o -> o.isClaimOf(session, claims.get(partitions.get(path)))).orElse(false);
        }

        /** The partitions whose owner znodes someone else holds. */
        Map<TopicAndPartition, PartitionOwner> heldByOthers() {
            Map<TopicAndPartition, PartitionOwner> held = new TreeMap<>();
            partitions.forEach((path, tp) -> owner(path).filter(o -> !isOurs(path)).ifPresent(o -> held.put(tp, o)));
            return held;
        }

        /** What is left to claim once the round is undone: partitions without owner znode, and those it created. */
        Map<TopicAndPartition, ThreadId> toRetry() {
            Set<String> created = created();
            Map<TopicAndPartition, ThreadId> left = new TreeMap<>();
            partitions.forEach((path, tp) -> {
                if (created.contains(path) || !read(path).isPresent()) {
                    left.put(tp, claims.get(tp));
                }
            });
            return left;
        }

        /** The owner znodes the committed batches created. */
        Set<String> created() {
            Set<String> created = new TreeSet<>();
            for (int i = 0; i < batches.size(); i++) {
                if (done.transactions().get(i).ok()) {
                    created.addAll(batches.get(i).keySet());
                }
            }
            return created;
        }

        /** Whether the claim failed for want of the member's registration. */
        boolean notRegistered() {
            return !done.committed() && !read(registration).isPresent();
        }

        /** Whether a batch failed on a create for want of its topic directory. */
        boolean parentMissing() {
            return done.transactions().stream()
                    .anyMatch(o -> o.code() == KeeperException.Code.NONODE && o.failedOp() > 0);
        }

        /** Why the claim cannot succeed by waiting for holders or trying again, if it cannot. */
        Optional<String> hopeless(String group, ConsumerId member) {
            if (registeredElsewhere()) {
                return Optional.of("cannot claim partitions in group " + group + ": member " + member + " is registered at "
                        + registration + " by session 0x" + Long.toHexString(read(registration).get().stat()
                        .getEphemeralOwner()) + ", not by this session 0x" + Long.toHexString(session)
                        + "; nothing was claimed");
            }
            for (SessionWrites.Outcome outcome : done.transactions()) {
                switch (outcome.code()) {
                    case OK:
                    case NODEEXISTS:
                    case NONODE:
                        // a holder, a missing parent or a missing registration: the caller looks at what was read
                        break;
                    case SESSIONEXPIRED:
                        return Optional.of("cannot claim partitions in group " + group + ": session 0x"
                                + Long.toHexString(session) + " ended; nothing was claimed");
                    case CONNECTIONLOSS:
                        return Optional.of("the connection to ZooKeeper was lost while claiming " + claims.size()
                                + " partitions in group " + group + "; what the claim is known to have created is "
                                + "deleted again, but a batch whose reply was lost may have left owner znodes of session 0x"
                                + Long.toHexString(session) + " (OwnerRegistry.ownedBySession lists them)");
                    default:
                        return Optional.of("claiming partitions in group " + group + " failed: " + outcome.code()
                                + " (member " + member + ", session 0x" + Long.toHexString(session) + ")");
                }
            }
            return Optional.empty();
        }

        private boolean registeredElsewhere() {
            return read(registration).map(d -> d.stat().getEphemeralOwner() != session).orElse(false);
        }

        private Optional<PartitionOwner> owner(String path) {
            return read(path).map(d -> PartitionOwner.of(partitions.get(path), d));
        }
    }
}
