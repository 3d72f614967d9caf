package io.zkgroups.registry.store;

import io.zkgroups.registry.RegistryException;
import io.zkgroups.registry.model.TopicAndPartition;

import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** A claim failed (or was not sent) because some partitions are still owned by someone else; nothing was claimed. */
public final class ClaimConflictException extends RegistryException {

    private static final long serialVersionUID = 1L;
    private final transient SortedMap<TopicAndPartition, PartitionOwner> heldBy;

    public ClaimConflictException(String group, Map<TopicAndPartition, PartitionOwner> heldBy) {
        this(heldBy, "claim in group " + group + " failed, nothing was claimed: ");
    }

    private ClaimConflictException(Map<TopicAndPartition, PartitionOwner> heldBy, String what) {
        super(what + describe(heldBy));
        this.heldBy = new TreeMap<>(heldBy);
    }

    /** A claim not sent: the owner directories' watches said that previous owners still hold part of it. */
    public static ClaimConflictException notSent(String group, Map<TopicAndPartition, PartitionOwner> heldBy) {
        return new ClaimConflictException(heldBy, "claim in group " + group + " waits for the previous owners: ");
    }

    /** The partitions that were held, and by whom. */
    public SortedMap<TopicAndPartition, PartitionOwner> heldBy() {
        return heldBy;
    }

    private static String describe(Map<TopicAndPartition, PartitionOwner> heldBy) {
        return new TreeMap<>(heldBy).values().stream()
                .map(o -> o.partition() + " is held by " + o.value() + " (session 0x" + Long.toHexString(o.session()) + ")")
                .collect(Collectors.joining(", "));
    }
}
