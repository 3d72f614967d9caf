package io.zkgroups.rebalancer.offsets;

import io.zkgroups.registry.RegistryException;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.store.ZkOffsetStore;

import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** Offsets in {@code /consumers/G/offsets/T/P} (0.8.2.2's default storage). */
public final class ZkOffsets implements OffsetStore {

    private final ZkOffsetStore store;

    public ZkOffsets(ZkOffsetStore store) {
        this.store = store;
    }

    /**
     * @throws OffsetStoreException if an offset znode holds something that is not a number: the partition's
     *                              position is unknown, and guessing could skip or replay data
     */
    @Override
    public Map<TopicAndPartition, Long> read(String group, Collection<TopicAndPartition> partitions) {
        try {
            ZkOffsetStore.OffsetRead read = store.read(group, partitions);
            if (!read.unreadable().isEmpty()) {
                throw new OffsetStoreException("unreadable offsets in ZooKeeper for group " + group + ": "
                        + read.unreadable() + " (fix or delete the znode)", null);
            }
            return read.offsets();
        } catch (RegistryException e) {
            throw new OffsetStoreException("reading ZooKeeper offsets of group " + group + " failed: " + e.getMessage(), e);
        }
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
    public String name() {
        return "zookeeper";
    }
}
