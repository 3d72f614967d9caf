package io.zkgroups.registry.store;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;

import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Objects;
import java.util.Optional;

/** An owner znode {@code /consumers/G/owners/T/P}. */
@JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY) // JSON output (CLI) shows the fields
public final class PartitionOwner {
    private final TopicAndPartition partition;
    private final String value;
    private final long session;

    /**
     * Creates it from its parts.
     *
     * @param partition the owned partition
     * @param value     the znode's text: the owning thread id {@code CID-n}, or, written by clients that own partitions per consumer (kafka-node's HighLevelConsumer), the owning consumer id {@code CID} itself
     * @param session   the ZooKeeper session holding the ephemeral node
     */
    public PartitionOwner(TopicAndPartition partition, String value, long session) {
        this.partition = partition;
        this.value = value;
        this.session = session;
    }

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

    /**
     * The owning thread as the group's registered {@code members} tell it: a value that is a member's consumer id
     * (a client without thread ids, such as kafka-node, which consumes with one stream) is that member's thread 0;
     * otherwise {@link #thread()}. A registered id is preferred over the {@code CID-n} reading, as a consumer id may
     * itself end in a dash and digits.
     */
    public Optional<ThreadId> threadAmong(Collection<ConsumerId> members) {
        ConsumerId named = asConsumerId(value);
        if (named != null && members.contains(named)) { // a set's lookup: this runs for every owner znode of a conflict
            return Optional.of(new ThreadId(named, 0));
        }
        return thread();
    }

    /** {@code value} as a consumer id; null when it cannot be one (not a znode name). */
    private static ConsumerId asConsumerId(String value) {
        try {
            return new ConsumerId(value);
        } catch (IllegalArgumentException notAnId) {
            return null;
        }
    }

    /** The owning consumer among {@code members}, if the value names one of them (see {@link #threadAmong}). */
    public Optional<ConsumerId> memberAmong(Collection<ConsumerId> members) {
        return threadAmong(members).map(ThreadId::consumer).filter(members::contains);
    }

    public TopicAndPartition partition() {
        return partition;
    }

    public String value() {
        return value;
    }

    public long session() {
        return session;
    }

    @Override
    public boolean equals(Object o) {
        if (o == this) {
            return true;
        }
        if (!(o instanceof PartitionOwner)) {
            return false;
        }
        PartitionOwner that = (PartitionOwner) o;
        return Objects.equals(partition, that.partition)
                && Objects.equals(value, that.value)
                && session == that.session;
    }

    @Override
    public int hashCode() {
        int h = 0;
        h = 31 * h + Objects.hashCode(partition);
        h = 31 * h + Objects.hashCode(value);
        h = 31 * h + Long.hashCode(session);
        return h;
    }

    @Override
    public String toString() {
        return "PartitionOwner[partition=" + partition + ", value=" + value + ", session=" + session + "]";
    }
}
