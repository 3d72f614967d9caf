package io.zkgroups.registry.store;

import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * An owner znode {@code /consumers/G/owners/T/P}.
 *
 * @param partition the owned partition
 * @param value     the znode's text: the owning thread id {@code CID-n}
 * @param session   the ZooKeeper session holding the ephemeral node
 */
public record PartitionOwner(TopicAndPartition partition, String value, long session) {

    /** The owner znode of {@code partition} as read. */
    static PartitionOwner of(TopicAndPartition partition, Znodes.Data data) {
        String value = data.bytes() == null ? "" : new String(data.bytes(), StandardCharsets.UTF_8);
        return new PartitionOwner(partition, value, data.stat().getEphemeralOwner());
    }

    /** Whether this is {@code thread}'s claim made by {@code session} (a claim whose reply was lost, say). */
    public boolean isClaimOf(long session, ThreadId thread) {
        return this.session == session && value.equals(thread.toString());
    }

    /** The owning thread, if the value has the {@code CID-n} shape. */
    public Optional<ThreadId> thread() {
        return ThreadId.parse(value);
    }
}
