package io.zkgroups.rebalancer.offsets;

import io.zkgroups.registry.ZkRegistry;
import org.apache.kafka.clients.admin.Admin;

import java.util.Objects;

/**
 * One {@code offsets.storage} value as registered in {@link OffsetStores}: its name, how to open the store, and what
 * the consumer must provide and do for it.
 */
public final class OffsetStoreType {

    /** Opens the store of a consumer. */
    @FunctionalInterface
    public interface Factory {
        /** {@code admin} is null unless the type {@link #needsKafka()}. */
        OffsetStore open(ZkRegistry registry, Admin admin);
    }

    private final String name;
    private final Factory factory;
    private final boolean needsKafka;
    private final boolean dualCommit;
    private final boolean expiresIdleOffsets;

    private OffsetStoreType(String name, Factory factory, boolean needsKafka, boolean dualCommit,
                            boolean expiresIdleOffsets) {
        this.name = Objects.requireNonNull(name, "name cannot be null");
        this.factory = Objects.requireNonNull(factory, "factory cannot be null");
        this.needsKafka = needsKafka;
        this.dualCommit = dualCommit;
        this.expiresIdleOffsets = expiresIdleOffsets;
    }

    /** A store that needs neither a Kafka client nor dual commit. */
    public static OffsetStoreType of(String name, Factory factory) {
        return new OffsetStoreType(name, factory, false, false, false);
    }

    /**
     * This type reached through a Kafka Admin client, and, like Kafka's group offsets, one that dual-commits to
     * ZooKeeper ({@code dual.commit.enabled}, by default on) and drops offsets not committed for a while (the
     * consumer then re-commits idle partitions).
     */
    public OffsetStoreType onKafka() {
        return new OffsetStoreType(name, factory, true, true, true);
    }

    /** The value of {@code offsets.storage} (compared ignoring case), and the store's {@link OffsetStore#name()}. */
    public String name() {
        return name;
    }

    /** The store of a consumer. */
    public OffsetStore open(ZkRegistry registry, Admin admin) {
        return factory.open(registry, admin);
    }

    /** Whether it needs a Kafka Admin client. */
    public boolean needsKafka() {
        return needsKafka;
    }

    /** Whether {@code dual.commit.enabled} applies to it (and defaults to true), as with 0.8.2.2's kafka storage. */
    public boolean dualCommit() {
        return dualCommit;
    }

    /** Whether it forgets offsets that are not committed again for a while, so idle partitions are re-committed. */
    public boolean expiresIdleOffsets() {
        return expiresIdleOffsets;
    }

    @Override
    public String toString() {
        return name;
    }
}
