package io.zkgroups.registry.store;

import io.zkgroups.registry.RegistryException;
import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.ZkNames;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Partition ownership under {@code /consumers/G/owners/T/P}: ephemeral nodes whose data is the owning
 * thread id. Claims are all-or-nothing in one ZooKeeper transaction (0.8.2.2 claims one by one and can
 * leave partial claims behind).
 */
public final class OwnerRegistry {

    private static final int MAX_CLAIM_ROUNDS = 5;

    private final Znodes znodes;
    private final ZkLayout layout;
    /** Owner topic directories known to exist: persistent, never deleted by members. */
    private final Set<String> knownParents = ConcurrentHashMap.newKeySet();
    /** Armed on every owner znode this registry reads with a watch: vouches for our claims, wakes deletion waiters. */
    private final WatchedOwners watched = new WatchedOwners();

    public OwnerRegistry(Znodes znodes, ZkLayout layout) {
        this.znodes = Objects.requireNonNull(znodes, "znodes cannot be null");
        this.layout = Objects.requireNonNull(layout, "layout cannot be null");
    }

    /**
     * Claims every partition of {@code claims} for its thread in one transaction that also checks that
     * {@code member} is still registered. Partitions this session already owns with the same thread id
     * count as claimed (a retried claim whose reply was lost).
     *
     * @throws ClaimConflictException if any partition is owned by someone else; then nothing is claimed
     * @throws RegistryException      if {@code member} is not registered, or ZooKeeper fails
     */
    public void claim(String group, ConsumerId member, Map<TopicAndPartition, ThreadId> claims) {
        Map<TopicAndPartition, PartitionOwner> held = releaseAndClaim(group, member, List.of(), claims, null);
        if (!held.isEmpty()) {
            throw new ClaimConflictException(group, held);
        }
    }

    /** The claim the slow way, when the pipelined one failed without anyone else holding a partition. */
    private void claimWithRetries(String group, ConsumerId member, Map<TopicAndPartition, ThreadId> claims) {
        String memberPath = layout.member(group, member);
        Map<TopicAndPartition, ThreadId> toCreate = new TreeMap<>(claims);
        for (int round = 0; round < MAX_CLAIM_ROUNDS; round++) {
            try {
                znodes.client().transaction().forOperations(claimOps(group, member, toCreate));
                return;
            } catch (KeeperException e) {
                if (!znodes.exists(memberPath)) {
                    throw new RegistryException("cannot claim partitions in group " + group + ": member "
                            + member + " is not registered at " + memberPath + " (session lost?)", e);
                }
                Map<TopicAndPartition, PartitionOwner> conflicts = new TreeMap<>();
                Map<TopicAndPartition, ThreadId> stillMissing = new TreeMap<>();
                long session = znodes.sessionId();
                Map<TopicAndPartition, PartitionOwner> owners = owners(group, toCreate.keySet(), null);
                for (Map.Entry<TopicAndPartition, ThreadId> claim : toCreate.entrySet()) {
                    PartitionOwner owner = owners.get(claim.getKey());
                    if (owner == null) {
                        stillMissing.put(claim.getKey(), claim.getValue());
                    } else if (!owner.isClaimOf(session, claim.getValue())) {
                        conflicts.put(claim.getKey(), owner);
                    }
                }
                if (!conflicts.isEmpty()) {
                    throw new ClaimConflictException(group, conflicts);
                }
                if (stillMissing.isEmpty()) {
                    return; // everything is ours already
                }
                toCreate = stillMissing; // the conflicting owners let go meanwhile: try the rest again
            } catch (Exception e) {
                throw RegistryException.of("claiming partitions under", layout.owners(group), e);
            }
        }
        throw new RegistryException("claim in group " + group + " did not settle after " + MAX_CLAIM_ROUNDS
                + " rounds: owners keep changing under " + layout.owners(group));
    }

    /** The owner znode path of each partition. */
    private Map<String, TopicAndPartition> pathsOf(String group, Collection<TopicAndPartition> partitions) {
        Map<String, TopicAndPartition> byPath = new TreeMap<>();
        partitions.forEach(tp -> byPath.put(layout.owner(group, tp), tp));
        return byPath;
    }

    private void ensureParents(String group, Collection<TopicAndPartition> partitions) {
        partitions.stream().map(TopicAndPartition::topic).distinct()
                .map(topic -> layout.owners(group, topic))
                .filter(parent -> !knownParents.contains(parent))
                .forEach(parent -> {
                    znodes.ensurePersistent(parent);
                    knownParents.add(parent);
                });
    }

    /**
     * One step of a rebalance, in one round trip: a transaction that deletes this session's owner znodes of
     * {@code release}, then a transaction that creates {@code claims} for {@code member} all-or-nothing (checking that
     * it is still registered), then a read of every claimed owner znode — sent back to back. The read tells who holds
     * what could not be claimed and arms a watch on it: {@code letGo} (if given) hears when a holder's znode is
     * deleted. What was claimed is read back under the same watch, so its release later needs no read (see
     * {@link WatchedOwners}); owner znodes not claimed that way are read before they are deleted.
     *
     * @return the partitions of {@code claims} held by others; empty: everything is claimed. When some are held,
     *         nothing was claimed, and the release happened all the same
     * @throws ClaimConflictException if a claim that failed without a visible holder is retried and collides
     * @throws RegistryException      if {@code member} is not registered, or ZooKeeper fails
     */
    public Map<TopicAndPartition, PartitionOwner> releaseAndClaim(String group, ConsumerId member,
                                                                  Collection<TopicAndPartition> release,
                                                                  Map<TopicAndPartition, ThreadId> claims,
                                                                  org.apache.zookeeper.Watcher letGo) {
        ensureParents(group, claims.keySet());
        long session = znodes.sessionId();
        Map<String, Integer> releasable = ownNodes(group, release, List.of(), session);
        Map<String, TopicAndPartition> claimPaths = pathsOf(group, claims.keySet());
        if (letGo != null) {
            claimPaths.keySet().forEach(path -> watched.awaitDeletion(path, letGo)); // before the read: no event is missed
        }
        releasable.keySet().forEach(watched::forget);
        Znodes.Committed done = znodes.deleteCommitRead(session, releasable,
                claims.isEmpty() ? List.of() : claimOps(group, member, claims), claimPaths.keySet(), watched);
        if (!done.deleted()) {
            release(group, release); // a node we vouched for changed under us: read, then release what is still ours
        }
        Map<TopicAndPartition, PartitionOwner> held = new TreeMap<>();
        Map<TopicAndPartition, ThreadId> missing = new TreeMap<>();
        claimPaths.forEach((path, tp) -> {
            Znodes.Data data = done.reads().get(path);
            PartitionOwner owner = data == null ? null
                    : new PartitionOwner(tp, text(data.bytes()), data.stat().getEphemeralOwner());
            if (owner == null) {
                missing.put(tp, claims.get(tp));
            } else if (owner.isClaimOf(session, claims.get(tp))) {
                watched.vouch(path, session, data.stat().getVersion());
            } else if (!done.committed()) {
                held.put(tp, owner);
                return; // its deletion is awaited
            } // else: claimed, and changed since (not vouched, so read before its release)
            watched.stopAwaiting(path);
        });
        if (done.committed()) {
            return Map.of();
        }
        if (!held.isEmpty()) {
            return held; // nothing claimed: wait for the holders
        }
        // Nobody holds any of it: the member is not registered, or the holders let go between the two requests.
        if (!missing.isEmpty()) {
            claimWithRetries(group, member, missing);
        }
        return Map.of();
    }

    /** A check that {@code member} is registered, then the creates of {@code claims}. */
    private List<CuratorOp> claimOps(String group, ConsumerId member, Map<TopicAndPartition, ThreadId> claims) {
        try {
            List<CuratorOp> ops = new ArrayList<>();
            ops.add(znodes.client().transactionOp().check().forPath(layout.member(group, member)));
            for (Map.Entry<TopicAndPartition, ThreadId> claim : claims.entrySet()) {
                ops.add(znodes.client().transactionOp().create().withMode(CreateMode.EPHEMERAL)
                        .forPath(layout.owner(group, claim.getKey()), bytes(claim.getValue())));
            }
            return ops;
        } catch (Exception e) {
            throw RegistryException.of("preparing the claim under", layout.owners(group), e);
        }
    }

    /**
     * Deletes the owner znodes of {@code partitions} that this session holds, in one transaction; others' are
     * left alone (0.8.2.2 deletes by path without looking). Returns the partitions released.
     */
    public List<TopicAndPartition> release(String group, Collection<TopicAndPartition> partitions) {
        return releaseAnd(group, partitions, Map.of(), List.of());
    }

    /**
     * Leaves {@code group} in one transaction: deletes this session's owner znodes of {@code partitions} and
     * {@code member}'s registration (if this session holds it). Whoever is woken by the registration going finds
     * the partitions free already. Returns the partitions released.
     */
    public List<TopicAndPartition> releaseAndUnregister(String group, ConsumerId member,
                                                        Collection<TopicAndPartition> partitions) {
        return releaseAndUnregister(group, member, partitions, false);
    }

    /**
     * As {@link #releaseAndUnregister(String, ConsumerId, Collection)}; {@code registrationVouched}: the caller has
     * watched the registration since it read it as this session's ephemeral, and the watch has not fired
     * ({@link MemberList#vouchesFor}), so it is deleted without being read first. With vouched owner znodes too,
     * leaving is a single request.
     */
    public List<TopicAndPartition> releaseAndUnregister(String group, ConsumerId member,
                                                        Collection<TopicAndPartition> partitions,
                                                        boolean registrationVouched) {
        String registration = layout.member(group, member);
        return releaseAnd(group, partitions, registrationVouched ? Map.of(registration, -1) : Map.of(),
                registrationVouched ? List.of() : List.of(registration));
    }

    /**
     * Deletes, in one transaction, this session's owner znodes of {@code partitions}, {@code vouchedToo} (path → version)
     * and those of {@code alsoIfOwn} that are this session's ephemerals; falls back to reading and deleting one by one.
     */
    private List<TopicAndPartition> releaseAnd(String group, Collection<TopicAndPartition> partitions,
                                               Map<String, Integer> vouchedToo, List<String> alsoIfOwn) {
        long session = znodes.sessionId();
        Map<String, Integer> toDelete = ownNodes(group, partitions, alsoIfOwn, session);
        toDelete.putAll(vouchedToo);
        toDelete.keySet().forEach(watched::forget);
        Map<String, TopicAndPartition> byPath = pathsOf(group, partitions);
        List<TopicAndPartition> released = new ArrayList<>();
        for (String deleted : znodes.deleteAll(session, toDelete)) {
            if (byPath.containsKey(deleted)) {
                released.add(byPath.get(deleted));
            }
        }
        released.sort(null);
        return released;
    }

    /**
     * Path → version of the owner znodes of {@code partitions} and of the nodes {@code alsoIfOwn} that are this
     * session's: vouched claims as they are, the rest read first (one round trip, only if there are any).
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
            own.putAll(znodes.ownEphemerals(znodes.readAll(toRead, null)));
        }
        return own;
    }

    /**
     * The owners of those of {@code partitions} that have an owner znode, read at once (about one round trip);
     * {@code watcher} (if given) is armed on each existing owner znode, so it hears when the owner lets go.
     */
    public Map<TopicAndPartition, PartitionOwner> owners(String group, Collection<TopicAndPartition> partitions,
                                                         org.apache.zookeeper.Watcher watcher) {
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
            owners.put(tp, new PartitionOwner(tp, text(data.bytes()), data.stat().getEphemeralOwner()));
        });
        return owners;
    }

    /** The owner of one partition, if any. */
    public Optional<PartitionOwner> owner(String group, TopicAndPartition tp) {
        return znodes.read(layout.owner(group, tp)).map(d -> new PartitionOwner(tp, text(d.bytes()), d.stat().getEphemeralOwner()));
    }

    /** Every owner znode of {@code group}; malformed ones are reported, not thrown. */
    public Listing<PartitionOwner> owners(String group) {
        List<PartitionOwner> owners = new ArrayList<>();
        List<Unreadable> unreadable = new ArrayList<>();
        for (String topic : znodes.children(layout.owners(group))) {
            String topicPath = layout.owners(group) + "/" + topic;
            if (!ZkNames.isValid(topic)) {
                unreadable.add(new Unreadable(topicPath, "'" + topic + "' is not a valid topic name"));
                continue;
            }
            for (String child : znodes.children(topicPath)) {
                String path = topicPath + "/" + child;
                OptionalInt partition = ZkLayout.parsePartition(child);
                if (partition.isEmpty()) {
                    unreadable.add(new Unreadable(path, "'" + child + "' is not a partition number"));
                    continue;
                }
                Optional<Znodes.Data> data = znodes.read(path);
                if (data.isEmpty()) {
                    continue;
                }
                if (data.get().bytes() == null || data.get().bytes().length == 0) {
                    unreadable.add(new Unreadable(path, "owner znode has no data (expected a thread id)"));
                    continue;
                }
                owners.add(new PartitionOwner(new TopicAndPartition(topic, partition.getAsInt()),
                        text(data.get().bytes()), data.get().stat().getEphemeralOwner()));
            }
        }
        owners.sort((a, b) -> a.partition().compareTo(b.partition()));
        return new Listing<>(owners, unreadable);
    }

    private static byte[] bytes(ThreadId thread) {
        return thread.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] data) {
        return data == null ? "" : new String(data, StandardCharsets.UTF_8);
    }
}
