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
        if (claims.isEmpty()) {
            return;
        }
        ensureParents(group, claims.keySet());
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
     * One step of a rebalance in (usually) two round trips: reads every owner znode involved at once, then in one
     * transaction deletes this session's owner znodes of {@code release} and — if nobody else holds any of
     * {@code claims} — creates {@code claims} for {@code member}, checking that it is still registered.
     * <p>
     * If another session holds some of {@code claims}, only the release happens, {@code letGo} is armed on the
     * held owner znodes, and they are returned: nothing was claimed. If the transaction fails because something
     * changed after the read, it falls back to {@link #release} and {@link #claim}.
     *
     * @return the partitions of {@code claims} held by others (empty: everything is claimed)
     * @throws ClaimConflictException if the fallback claim collides
     * @throws RegistryException      if {@code member} is not registered, or ZooKeeper fails
     */
    public Map<TopicAndPartition, PartitionOwner> releaseAndClaim(String group, ConsumerId member,
                                                                  Collection<TopicAndPartition> release,
                                                                  Map<TopicAndPartition, ThreadId> claims,
                                                                  org.apache.zookeeper.Watcher letGo) {
        ensureParents(group, claims.keySet());
        Map<String, TopicAndPartition> releasePaths = pathsOf(group, release);
        Map<String, TopicAndPartition> claimPaths = pathsOf(group, claims.keySet());
        List<String> paths = new ArrayList<>(releasePaths.keySet());
        paths.addAll(claimPaths.keySet());
        Map<String, Znodes.Data> read = znodes.readAllWatching(paths, path -> claimPaths.containsKey(path) ? letGo : null);

        long session = znodes.sessionId();
        Map<TopicAndPartition, PartitionOwner> held = new TreeMap<>();
        Map<TopicAndPartition, ThreadId> toCreate = new TreeMap<>(claims);
        claimPaths.forEach((path, tp) -> {
            Znodes.Data data = read.get(path);
            if (data == null) {
                return;
            }
            PartitionOwner owner = new PartitionOwner(tp, text(data.bytes()), data.stat().getEphemeralOwner());
            if (owner.isClaimOf(session, claims.get(tp))) {
                toCreate.remove(tp); // ours already (a claim whose reply was lost)
            } else {
                held.put(tp, owner);
            }
        });
        Map<String, Znodes.Data> releasable = new TreeMap<>(read);
        releasable.keySet().retainAll(releasePaths.keySet());
        List<CuratorOp> ops = new ArrayList<>(znodes.deleteOps(znodes.ownEphemerals(releasable)));
        if (held.isEmpty() && !toCreate.isEmpty()) {
            ops.addAll(claimOps(group, member, toCreate));
        }
        if (ops.isEmpty()) {
            return held;
        }
        try {
            znodes.client().transaction().forOperations(ops);
            return held;
        } catch (KeeperException changed) {
            release(group, release);
            if (held.isEmpty()) {
                claim(group, member, claims);
            }
            return held;
        } catch (Exception e) {
            throw RegistryException.of("releasing and claiming partitions under", layout.owners(group), e);
        }
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
        return releaseAnd(group, partitions, List.of());
    }

    /**
     * Leaves {@code group} in one transaction: deletes this session's owner znodes of {@code partitions} and
     * {@code member}'s registration (if this session holds it). Whoever is woken by the registration going finds
     * the partitions free already. Returns the partitions released.
     */
    public List<TopicAndPartition> releaseAndUnregister(String group, ConsumerId member,
                                                        Collection<TopicAndPartition> partitions) {
        return releaseAnd(group, partitions, List.of(layout.member(group, member)));
    }

    private List<TopicAndPartition> releaseAnd(String group, Collection<TopicAndPartition> partitions, List<String> alsoDelete) {
        Map<String, TopicAndPartition> byPath = pathsOf(group, partitions);
        List<String> paths = new ArrayList<>(byPath.keySet());
        paths.addAll(alsoDelete);
        List<TopicAndPartition> released = new ArrayList<>();
        for (String deleted : znodes.deleteOwnEphemerals(paths)) {
            if (byPath.containsKey(deleted)) {
                released.add(byPath.get(deleted));
            }
        }
        released.sort(null);
        return released;
    }

    /**
     * The owners of those of {@code partitions} that have an owner znode, read at once (about one round trip);
     * {@code watcher} (if given) is armed on each existing owner znode, so it hears when the owner lets go.
     */
    public Map<TopicAndPartition, PartitionOwner> owners(String group, Collection<TopicAndPartition> partitions,
                                                         org.apache.zookeeper.Watcher watcher) {
        Map<String, TopicAndPartition> byPath = pathsOf(group, partitions);
        Map<TopicAndPartition, PartitionOwner> owners = new TreeMap<>();
        znodes.readAll(byPath.keySet(), watcher).forEach((path, data) -> {
            TopicAndPartition tp = byPath.get(path);
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
