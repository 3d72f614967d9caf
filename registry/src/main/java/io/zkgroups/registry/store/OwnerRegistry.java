package io.zkgroups.registry.store;

import io.zkgroups.registry.Immutable;
import io.zkgroups.registry.RegistryException;
import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.ZkNames;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;
import org.apache.zookeeper.Watcher;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Partition ownership under {@code /consumers/G/owners/T/P}: ephemeral nodes whose data is the owning thread id.
 * Claims are all-or-nothing (0.8.2.2 claims one by one and can leave partial claims behind), of any size
 * ({@link ClaimWriter}).
 * <p>
 * <b>Sessions.</b> Owner znodes are ephemerals of the session that claimed them, and every write to them goes to that
 * session's own ZooKeeper handle ({@link SessionWrites}), never through Curator's retries, which replay a request on
 * the client's next session after an expiry: a delete by version would then remove another member's owner znode at
 * the same path (they all have version 0), a claim would be made for a member whose registration is gone or is now
 * another process's. Releases and claims bind to the client's session when they start; if it ends before their
 * requests reach ZooKeeper, they delete nothing and claim nothing. A claim also checks, after its transactions, that
 * the member's registration is an ephemeral of the same session, and undoes itself if it is not.
 * <p>
 * Thread-safe: what its watches told is kept under a lock or in concurrent maps; a member sends its own claims and
 * releases from one thread (its event loop), which orders them.
 */
public final class OwnerRegistry {

    private static final int MAX_CLAIM_ROUNDS = 5;

    private final Znodes znodes;
    private final ZkLayout layout;
    private final SessionWrites writes;
    private final ClaimWriter claimWriter;
    /** Armed on every owner znode this registry reads with a watch: vouches for our claims, wakes deletion waiters. */
    private final WatchedOwners watched = new WatchedOwners();
    /** The same watcher, armed once per topic directory where the server has persistent watches (3.6+). */
    private final OwnerDirectoryWatch directoryWatch;

    public OwnerRegistry(Znodes znodes, ZkLayout layout) {
        this.znodes = Objects.requireNonNull(znodes, "znodes cannot be null");
        this.layout = Objects.requireNonNull(layout, "layout cannot be null");
        this.writes = new SessionWrites(znodes);
        this.claimWriter = new ClaimWriter(znodes, writes, layout);
        // a directory listed for its watch exists: the first claim in it need not try to create it
        this.directoryWatch = new OwnerDirectoryWatch(znodes, watched, claimWriter::parentExists);
    }

    /**
     * Claims every partition of {@code claims} for its thread, all or nothing, checking that {@code member} is still
     * registered by this session. Partitions this session already owns with the same thread id count as claimed (a
     * retried claim whose reply was lost).
     *
     * @throws ClaimConflictException if any partition is owned by someone else; then nothing is claimed
     * @throws RegistryException      if {@code member} is not registered by this session, the session ends, or
     *                                ZooKeeper fails
     */
    public void claim(String group, ConsumerId member, Map<TopicAndPartition, ThreadId> claims) {
        Map<TopicAndPartition, PartitionOwner> held = releaseAndClaim(group, member, Collections.emptyList(), claims, null);
        if (!held.isEmpty()) {
            throw new ClaimConflictException(group, held);
        }
    }

    /**
     * One step of a rebalance, in one round trip: the deletes of this session's owner znodes of {@code release}, then
     * the creates of {@code claims} for {@code member} all-or-nothing (checking that it is still registered), then a
     * read of every claimed owner znode and of the registration — sent back to back. The read tells who holds what
     * could not be claimed and arms a watch on it: {@code letGo} (if given) hears when a holder's znode is deleted. What
     * was claimed is read back under the same watch, so its release later needs no read (see {@link WatchedOwners});
     * owner znodes not claimed that way are read before they are deleted. A claim too large for one ZooKeeper request
     * goes in several, still in one round trip; if one of them fails, what the others created is deleted again.
     *
     * @return the partitions of {@code claims} held by others; empty: everything is claimed. When some are held,
     *         nothing was claimed, and the release happened all the same
     * @throws ClaimConflictException if a claim that failed without a visible holder is retried and collides
     * @throws RegistryException      if {@code member} is not registered by this session, the session ends, or
     *                                ZooKeeper fails; nothing was claimed
     */
    public Map<TopicAndPartition, PartitionOwner> releaseAndClaim(String group, ConsumerId member,
                                                                  Collection<TopicAndPartition> release,
                                                                  Map<TopicAndPartition, ThreadId> claims,
                                                                  Watcher letGo) {
        claimWriter.ensureParents(group, claims.keySet());
        long session = znodes.sessionId();
        // a persistent watch on each claimed topic's directory: nothing claimed needs reading to be watched
        boolean covered = !claims.isEmpty() && directoryWatch.covers(session, topicDirs(group, claims.keySet()));
        long mark = watched.mark();
        Map<String, Integer> releasable = ownNodes(group, release, Collections.emptyList(), session);
        Map<String, TopicAndPartition> claimPaths = pathsOf(group, claims.keySet());
        if (letGo != null) {
            claimPaths.keySet().forEach(path -> watched.awaitDeletion(path, letGo)); // before the read: no event is missed
        }
        releasable.keySet().forEach(watched::forget);
        ClaimWriter.Round round = claimWriter.send(session, group, member, releasable, claims, watched, !covered);
        if (!round.released()) {
            // a node we vouched for changed under us (or the session ended): read, then release what is still ours
            releaseAnd(session, group, release, Collections.emptyMap(), Collections.emptyList());
        }
        Map<TopicAndPartition, PartitionOwner> held = round.claimed() ? Collections.emptyMap() : round.heldByOthers();
        claimPaths.forEach((path, tp) -> {
            if (!held.containsKey(tp)) {
                watched.stopAwaiting(path); // only the holders' deletion is awaited (not that of an undone claim)
            }
        });
        Set<String> undone = claimWriter.undo(round); // nothing, if everything was claimed
        if (covered && round.claimed()) {
            claimPaths.keySet().forEach(path -> watched.vouch(path, session, 0, mark)); // created now: version 0
        } else {
            claimPaths.keySet().stream().filter(path -> round.isOurs(path) && !undone.contains(path))
                    .forEach(path -> watched.vouch(path, session, round.read(path).get().stat().getVersion(), mark));
        }
        if (round.claimed()) {
            return Collections.emptyMap();
        }
        failUnlessRetryable(round, group, member);
        if (!held.isEmpty()) {
            return held; // nothing claimed: wait for the holders
        }
        // Nobody holds any of it: our own node from a lost reply, a missing parent, or holders that let go meanwhile.
        claimWithRetries(session, group, member, round.toRetry());
        return Collections.emptyMap();
    }

    /**
     * Which of {@code partitions} have an owner znode now, as the persistent watches on their topic directories tell
     * (no request once they are armed); {@code letGo} hears the deletion of each of them. Empty where the server has no
     * persistent watches (before 3.6) or they could not be armed: then only a claim can tell. A hint for when to claim,
     * not a promise: the claim still decides.
     */
    public Optional<Set<TopicAndPartition>> heldAmong(String group, Collection<TopicAndPartition> partitions,
                                                      Watcher letGo) {
        if (partitions.isEmpty()) {
            return Optional.of(Collections.emptySet());
        }
        long session = znodes.sessionId();
        if (!directoryWatch.covers(session, topicDirs(group, partitions))) {
            return Optional.empty();
        }
        Map<String, TopicAndPartition> byPath = pathsOf(group, partitions);
        byPath.keySet().forEach(path -> watched.awaitDeletion(path, letGo)); // before looking: no event is missed
        Set<TopicAndPartition> held = new TreeSet<>();
        boolean known = true;
        for (Map.Entry<String, TopicAndPartition> entry : byPath.entrySet()) {
            Optional<Boolean> exists = watched.exists(entry.getKey());
            known &= exists.isPresent();
            if (exists.orElse(false)) {
                held.add(entry.getValue());
            } else {
                watched.stopAwaiting(entry.getKey());
            }
        }
        if (!known) { // the connection dropped meanwhile
            byPath.keySet().forEach(watched::stopAwaiting);
            return Optional.empty();
        }
        return Optional.of(Collections.unmodifiableSet(held));
    }

    /**
     * Whether owner topic directories are watched (persistent recursive watches, see {@link #heldAmong}); true until
     * told otherwise. A member turns them off where the group is too large for every member to hear every owner
     * znode change: its claims then read back what they create, under one-shot watches, as on a server without
     * persistent watches; turning them off removes those armed (a request each).
     */
    public void watchDirectories(boolean wanted) {
        directoryWatch.wanted(wanted);
    }

    /**
     * Stops the watches on owner topic directories (see {@link #heldAmong}) on this client, for a member that leaves
     * while the client lives on. Claims made afterwards read their owner znodes back, as on a server without them.
     */
    public void stopWatching() {
        directoryWatch.stop();
    }

    /** The claim the slow way, when the pipelined one failed without anyone else holding a partition. */
    private void claimWithRetries(long session, String group, ConsumerId member, Map<TopicAndPartition, ThreadId> claims) {
        Map<TopicAndPartition, ThreadId> toCreate = claims;
        for (int attempt = 0; attempt < MAX_CLAIM_ROUNDS && !toCreate.isEmpty(); attempt++) {
            ClaimWriter.Round round = claimWriter.send(session, group, member, Collections.emptyMap(), toCreate, null);
            if (round.claimed()) {
                return;
            }
            claimWriter.undo(round);
            failUnlessRetryable(round, group, member);
            Map<TopicAndPartition, PartitionOwner> conflicts = round.heldByOthers();
            if (!conflicts.isEmpty()) {
                throw new ClaimConflictException(group, conflicts);
            }
            toCreate = round.toRetry(); // the holders let go meanwhile, or a parent was missing: try the rest again
        }
        if (!toCreate.isEmpty()) {
            throw new RegistryException("claim in group " + group + " did not settle after " + MAX_CLAIM_ROUNDS
                    + " rounds: owners keep changing under " + layout.owners(group));
        }
    }

    /** After a round that claimed nothing: throws if trying again cannot help; creates missing topic directories. */
    private void failUnlessRetryable(ClaimWriter.Round round, String group, ConsumerId member) {
        Optional<String> hopeless = round.hopeless(group, member);
        if (hopeless.isPresent()) {
            throw new RegistryException(hopeless.get());
        }
        if (round.notRegistered()) {
            throw new RegistryException("cannot claim partitions in group " + group + ": member " + member
                    + " is not registered at " + layout.member(group, member) + " (session lost?)");
        }
        if (round.parentMissing()) {
            claimWriter.recreateParents(group, round.partitions()); // an operator deleted a topic directory
        }
    }

    /** The owner directories of the topics of {@code partitions}. */
    private List<String> topicDirs(String group, Collection<TopicAndPartition> partitions) {
        return partitions.stream().map(TopicAndPartition::topic).distinct().map(topic -> layout.owners(group, topic)).collect(Immutable.toList());
    }

    /** The owner znode path of each partition. */
    private Map<String, TopicAndPartition> pathsOf(String group, Collection<TopicAndPartition> partitions) {
        Map<String, TopicAndPartition> byPath = new TreeMap<>();
        partitions.forEach(tp -> byPath.put(layout.owner(group, tp), tp));
        return byPath;
    }

    /**
     * Deletes the owner znodes of {@code partitions} that this session holds, in one transaction; others' are
     * left alone (0.8.2.2 deletes by path without looking). Returns the partitions released.
     */
    public List<TopicAndPartition> release(String group, Collection<TopicAndPartition> partitions) {
        return releaseAnd(znodes.sessionId(), group, partitions, Collections.emptyMap(), Collections.emptyList());
    }

    /**
     * Leaves {@code group} as the member registered in this client's current session: as
     * {@link #releaseAndUnregister(String, ConsumerId, Collection, long, boolean)} with that session, not vouched.
     */
    public List<TopicAndPartition> releaseAndUnregister(String group, ConsumerId member,
                                                        Collection<TopicAndPartition> partitions) {
        return releaseAndUnregister(group, member, partitions, znodes.sessionId(), false);
    }

    /**
     * Leaves {@code group} in one transaction: deletes this session's owner znodes of {@code partitions} and
     * {@code member}'s registration if it is an ephemeral of {@code registeredSession}, the session the caller
     * registered in. Whoever is woken by the registration going finds the partitions free already. Returns the
     * partitions released.
     * <p>
     * The registration is deleted only on {@code registeredSession}'s own handle. Once that session has ended, the
     * same consumer id may have been registered again by another process, and that registration is left alone.
     *
     * @param registrationVouched the caller has watched the registration since it read it as an ephemeral of
     *                            {@code registeredSession}, and the watch has not fired ({@link MemberList#vouchesFor}):
     *                            it is deleted without being read first. With vouched owner znodes too, leaving is a
     *                            single request
     */
    public List<TopicAndPartition> releaseAndUnregister(String group, ConsumerId member,
                                                        Collection<TopicAndPartition> partitions,
                                                        long registeredSession, boolean registrationVouched) {
        String registration = layout.member(group, member);
        long session = znodes.sessionId();
        boolean sameSession = registeredSession == session;
        // In another session, the registration of registeredSession cannot be deleted: it is gone or going with it.
        return releaseAnd(session, group, partitions,
                sameSession && registrationVouched ? Collections.singletonMap(registration, -1) : Collections.emptyMap(),
                sameSession && !registrationVouched ? Collections.singletonList(registration) : Collections.emptyList());
    }

    /**
     * Deletes, in one transaction, {@code session}'s owner znodes of {@code partitions}, {@code vouchedToo} (path → version)
     * and those of {@code alsoIfOwn} that are its ephemerals; falls back to reading and deleting one by one.
     * Everything goes to the handle of {@code session}: if it has ended, nothing is deleted.
     */
    private List<TopicAndPartition> releaseAnd(long session, String group, Collection<TopicAndPartition> partitions,
                                               Map<String, Integer> vouchedToo, List<String> alsoIfOwn) {
        Map<String, Integer> toDelete = ownNodes(group, partitions, alsoIfOwn, session);
        toDelete.putAll(vouchedToo);
        toDelete.keySet().forEach(watched::forget);
        Map<String, TopicAndPartition> byPath = pathsOf(group, partitions);
        List<TopicAndPartition> released = new ArrayList<>();
        for (String deleted : writes.deleteAll(session, toDelete)) {
            if (byPath.containsKey(deleted)) {
                released.add(byPath.get(deleted));
            }
        }
        released.sort(null);
        return released;
    }

    /**
     * Path → version of the owner znodes of {@code partitions} and of the nodes {@code alsoIfOwn} that are
     * {@code session}'s: vouched claims as they are, the rest read first (one round trip, only if there are any).
     */
    private Map<String, Integer> ownNodes(String group, Collection<TopicAndPartition> partitions, List<String> alsoIfOwn,
                                         long session) {
        Map<String, Integer> own = new TreeMap<>();
        List<String> toRead = new ArrayList<>(alsoIfOwn);
        for (String path : pathsOf(group, partitions).keySet()) {
            OptionalInt version = watched.vouchedVersion(path, session);
            if (version.isPresent()) {
                own.put(path, version.getAsInt());
            } else {
                toRead.add(path);
            }
        }
        if (!toRead.isEmpty()) {
            own.putAll(Znodes.ephemeralsOf(session, znodes.readAll(toRead, null)));
        }
        return own;
    }

    /**
     * The owners of those of {@code partitions} that have an owner znode, read at once (about one round trip);
     * {@code watcher} (if given) is armed on each existing owner znode, so it hears when the owner lets go.
     */
    public Map<TopicAndPartition, PartitionOwner> owners(String group, Collection<TopicAndPartition> partitions,
                                                         Watcher watcher) {
        Map<String, TopicAndPartition> byPath = pathsOf(group, partitions);
        if (watcher != null) {
            byPath.keySet().forEach(path -> watched.awaitDeletion(path, watcher)); // before the read: no event is missed
        }
        Map<TopicAndPartition, PartitionOwner> owners = new TreeMap<>();
        Map<String, Znodes.Data> read = znodes.readAll(byPath.keySet(), watcher == null ? null : watched);
        byPath.forEach((path, tp) -> {
            Znodes.Data data = read.get(path);
            if (data == null) {
                if (watcher != null) {
                    watched.stopAwaiting(path);
                }
                return;
            }
            owners.put(tp, PartitionOwner.of(tp, data));
        });
        return owners;
    }

    /** The owner of one partition, if any. */
    public Optional<PartitionOwner> owner(String group, TopicAndPartition tp) {
        return znodes.read(layout.owner(group, tp)).map(data -> PartitionOwner.of(tp, data));
    }

    /** Every owner znode of {@code group}; malformed ones are reported, not thrown. */
    public Listing<PartitionOwner> owners(String group) {
        List<Unreadable> unreadable = new ArrayList<>();
        List<PartitionOwner> owners = new ArrayList<>();
        readOwnerZnodes(group, unreadable).forEach((path, owner) -> {
            if (owner.value().isEmpty()) {
                unreadable.add(new Unreadable(path, "owner znode has no data (expected a thread id)"));
            } else {
                owners.add(owner);
            }
        });
        owners.sort((a, b) -> a.partition().compareTo(b.partition()));
        unreadable.sort((a, b) -> a.path().compareTo(b.path()));
        return new Listing<>(owners, unreadable);
    }

    /**
     * The partitions of {@code group} whose owner znode is an ephemeral of this client's current session, whether or
     * not the caller knows of them (e.g. a claim whose reply was lost): one {@code getEphemerals} request on ZooKeeper 3.6+;
     * on older servers every topic directory is listed and every owner znode read at once, three round trips.
     */
    public SortedSet<TopicAndPartition> ownedBySession(String group) {
        long session = znodes.sessionId();
        SortedSet<TopicAndPartition> owned = new TreeSet<>();
        String ownersDir = layout.owners(group);
        Optional<List<String>> ephemerals = znodes.ephemeralsOfSession(session, ownersDir); // one request on 3.6+
        if (ephemerals.isPresent()) {
            for (String path : ephemerals.get()) {
                String[] topicAndPartition = path.startsWith(ownersDir + "/")
                        ? path.substring(ownersDir.length() + 1).split("/") : new String[0];
                OptionalInt partition = topicAndPartition.length == 2
                        ? ZkLayout.parsePartition(topicAndPartition[1]) : OptionalInt.empty();
                if (partition.isPresent() && ZkNames.isValid(topicAndPartition[0])) {
                    owned.add(new TopicAndPartition(topicAndPartition[0], partition.getAsInt()));
                }
            }
            return Collections.unmodifiableSortedSet(owned);
        }
        readOwnerZnodes(group, new ArrayList<>()).values().stream()
                .filter(owner -> owner.session() == session)
                .forEach(owner -> owned.add(owner.partition()));
        return Collections.unmodifiableSortedSet(owned);
    }

    /**
     * Every owner znode of {@code group} by path, listed and read in three pipelined round trips (owners, topic
     * directories, owner znodes); names that are no topic or no partition number go to {@code unreadable}.
     */
    private Map<String, PartitionOwner> readOwnerZnodes(String group, List<Unreadable> unreadable) {
        String ownersDir = layout.owners(group);
        Map<String, String> topicByDir = new TreeMap<>();
        for (String topic : znodes.children(ownersDir)) {
            String dir = ownersDir + "/" + topic;
            if (ZkNames.isValid(topic)) {
                topicByDir.put(dir, topic);
            } else {
                unreadable.add(new Unreadable(dir, "'" + topic + "' is not a valid topic name"));
            }
        }
        Map<String, TopicAndPartition> byPath = new TreeMap<>();
        znodes.childrenAll(topicByDir.keySet()).forEach((dir, children) -> {
            for (String child : children) {
                String path = dir + "/" + child;
                OptionalInt partition = ZkLayout.parsePartition(child);
                if (partition.isPresent()) {
                    byPath.put(path, new TopicAndPartition(topicByDir.get(dir), partition.getAsInt()));
                } else {
                    unreadable.add(new Unreadable(path, "'" + child + "' is not a partition number"));
                }
            }
        });
        Map<String, PartitionOwner> owners = new TreeMap<>();
        znodes.readAll(byPath.keySet(), null).forEach((path, data) -> owners.put(path, PartitionOwner.of(byPath.get(path), data)));
        return owners;
    }
}
