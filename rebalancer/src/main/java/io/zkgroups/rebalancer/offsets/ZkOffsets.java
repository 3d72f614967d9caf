package io.zkgroups.rebalancer.offsets;

import io.zkgroups.registry.RegistryException;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.store.NotOwnedException;
import io.zkgroups.registry.store.OffsetRegistry;

import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Offsets in {@code /consumers/G/offsets/T/P} (0.8.2.2's default storage).
 * <p>
 * Thread-safe, as the {@link io.zkgroups.registry.store.OffsetRegistry} it writes through.
 */
public final class ZkOffsets implements OffsetStore {

    private final OffsetRegistry store;

    public ZkOffsets(OffsetRegistry store) {
        this.store = store;
    }

    /**
     * @throws OffsetStoreException if an offset znode holds something that is not a number: the partition's
     *                              position is unknown, and guessing could skip or replay data
     */
    @Override
    public Map<TopicAndPartition, Long> read(String group, Collection<TopicAndPartition> partitions) {
        try {
            OffsetRegistry.OffsetRead read = store.read(group, partitions);
            if (!read.unreadable().isEmpty()) {
                throw new OffsetStoreException("unreadable offsets in ZooKeeper for group " + group + ": "
                        + read.unreadable() + " (fix or delete the znode)", null);
            }
            return read.offsets();
        } catch (RegistryException e) {
            throw new OffsetStoreException("reading ZooKeeper offsets of group " + group + " failed: " + e.getMessage(), e);
        }
    }

    /** An unreadable offset znode is reported with its path and what is wrong with it; the others are read. */
    @Override
    public OffsetLookup lookup(String group, Collection<TopicAndPartition> partitions) {
        OffsetRegistry.OffsetRead read;
        try {
            read = store.read(group, partitions);
        } catch (RegistryException e) {
            return OffsetStore.super.lookup(group, partitions); // unreachable: every partition unknown, with the reason
        }
        Map<TopicAndPartition, String> unknown = new TreeMap<>();
        Map<String, TopicAndPartition> byPath = new TreeMap<>();
        partitions.forEach(tp -> byPath.put(store.layout().offset(group, tp), tp));
        read.unreadable().forEach(u -> {
            TopicAndPartition tp = byPath.get(u.path());
            if (tp != null) {
                unknown.put(tp, u.path() + ": " + u.reason());
            }
        });
        return OffsetLookup.of(read.offsets(), unknown);
    }

    @Override
    public Set<TopicAndPartition> commit(String group, Map<TopicAndPartition, Long> offsets) {
        try {
            store.commit(group, offsets);
            return new TreeSet<>(offsets.keySet());
        } catch (RegistryException e) {
            throw new OffsetStoreException("committing ZooKeeper offsets of group " + group + " failed: " + e.getMessage(), e);
        }
    }

    @Override
    public Set<TopicAndPartition> commit(String group, Map<TopicAndPartition, Long> offsets, CommitPermit permit) {
        if (permit.session() == 0) {
            return commit(group, offsets);
        }
        try {
            store.commitOwned(group, offsets, permit.session());
            return new TreeSet<>(offsets.keySet());
        } catch (NotOwnedException e) {
            throw new FencedException(e.getMessage());
        } catch (RegistryException e) {
            throw new OffsetStoreException("committing ZooKeeper offsets of group " + group + " failed: " + e.getMessage(), e);
        }
    }

    @Override
    public String name() {
        return "zookeeper";
    }
}
